/**
 * What the detail forms stand on: a detail names the value of each master-backed select
 * (`{column}_label`, a deleted master row's text too); a customer's 配送担当者, 請求親顧客 and 代理店
 * are records the server checks (drivers, not oneself, agencies).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    it('answers the text of a master value, a retired one too, and a warehouse’s name; lists stay without them', async () => {
      const stamp = new Date().toISOString();
      const row = (value: string, text: string, deleted: number) => ({ mo_table: 'mt_pmt_method', mo_value: value, mo_text: text, mo_flg: 0, mo_sort: 900, created: stamp, modified: stamp, deleted });
      await h.database.db.insertInto('master_option').values([row('PX', '手形（旧）', 1), row('PY', '現金書留', 0)]).execute();
      const saved = await h.post<Row>('souko_save', { postData: JSON.stringify({ code: 'WL1', name: '名前確認倉庫' }) });
      assert.equal(saved.status, 200, saved.text);
      const warehouse = String(saved.body[0].sk_id);
      const client = await h.post<Row>('client_save', { postData: JSON.stringify({ co_name: 'ラベル確認', tel_1: '03-1111-2222', status: '1', pm_id: 'PX', collect_type: 'PY', sk_id: warehouse, area: 'NOPE' }) });
      assert.equal(client.status, 200, client.text);
      const id = Number(client.body[0].cl_id);
      const [detail] = (await h.post<Row>('client_dtl', { id })).body;
      assert.equal(detail.cl_pm_id_label, '手形（旧）');
      assert.equal(detail.cl_collect_type_label, '現金書留');
      assert.equal(detail.cl_sk_id_label, '名前確認倉庫');
      assert.equal(detail.cl_area_label, null, 'a code no master has is answered without a name');
      const [listed] = (await h.post<Row>('client_lst', { n: 1, p: 1, kw: 'ラベル確認', postData: '{}' })).body;
      assert.equal(Number(listed.cl_id), id);
      assert.ok(!('cl_pm_id_label' in listed));
    });

    const options = async (table: string) => (await h.post<{ value: string; text: string }>('master_lst', { table })).body;
    const problemOf = (res: { body: unknown }) => (res.body as { error?: string; fields?: Record<string, string> }[])[0];
    /** Saves changes to a customer with the `modified` it has now. */
    const saveClient = async (id: number, values: Record<string, unknown>) => {
      const [current] = (await h.post<Row>('client_dtl', { id })).body;
      return h.post<Row>('client_save', { id, postData: JSON.stringify({ ...values, modified: current.modified }) });
    };

    it('offers as drivers the staff who record deliveries (配送 first, then 管理), and refuses anyone else', async () => {
      const { users, clients } = h.fixtures;
      const drivers = (await options('mt_driver')).map((o) => Number(o.value));
      assert.ok(drivers.includes(users.delivery.id));
      assert.ok(drivers.includes(users.admin.id));
      assert.ok(drivers.indexOf(users.delivery.id) < drivers.indexOf(users.admin.id), 'drivers before admins');
      assert.ok(!drivers.includes(users.accounting.id) && !drivers.includes(users.sales.id));
      const save = (values: Record<string, unknown>) => saveClient(clients.abc, values);
      const refused = await save({ delivery_usr_id: users.accounting.id });
      assert.equal(refused.status, 400);
      assert.match(problemOf(refused).fields!.delivery_usr_id, /配送担当者に選べないユーザーです/);
      const saved = await save({ delivery_usr_id: users.delivery.id });
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.body[0].cl_delivery_usr_id_label, '配送 次郎');
    });

    it('takes another customer as billing parent, never the customer itself; an agency only among customers marked 代理店', async () => {
      const { clients } = h.fixtures;
      const save = saveClient;
      const self = await save(clients.yamada, { parent_id: clients.yamada });
      assert.match(problemOf(self).fields!.parent_id, /請求親顧客にこの顧客自身は選べません/);
      const parent = await save(clients.yamada, { parent_id: clients.abc });
      assert.equal(parent.status, 200, parent.text);
      assert.ok(parent.body[0].cl_parent_id_label);
      const notAgency = await save(clients.yamada, { dairiten_id: clients.percent });
      assert.match(problemOf(notAgency).fields!.dairiten_id, /代理店に選べない顧客です/);
      assert.equal((await save(clients.percent, { dairiten_flag: 1 })).status, 200);
      assert.deepEqual((await options('mt_dairiten')).map((o) => Number(o.value)), [clients.percent]);
      const agency = await save(clients.yamada, { dairiten_id: clients.percent });
      assert.equal(agency.status, 200, agency.text);
      // Unmarking the agency keeps it on the customers it brought (a stored value may stay).
      assert.equal((await save(clients.percent, { dairiten_flag: 0 })).status, 200);
      assert.equal((await save(clients.yamada, { memo: '代理店は登録済み' })).status, 200);
    });
  });
}
