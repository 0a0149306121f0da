/**
 * `server_upd` (issue 12): a water server installed at a customer, exchanged (the old one back to a
 * warehouse as メンテ待ち, the customer's サーバー交換日 set) and taken back, each in one transaction with
 * the server history, the customer's agreement and the customer; refusals in Japanese that write nothing;
 * stale edits refused. Both dialects.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Move = { kind: string; server: Row; replaced?: Row; agreement?: Row; history: number[] };
type Problem = { error: string; fields?: Record<string, string> };

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { tokyo: 0, osaka: 0, agreement: 0 };
    let customer = 0;
    let stockKey = '';
    let accountingKey = '';

    const save = async (resource: string, postData: Record<string, unknown>, id?: number): Promise<Row> => {
      const res = await h.post<Row>(`${resource}_save`, { id, postData: JSON.stringify(postData) });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const detail = async (resource: string, id: number): Promise<Row> => (await h.post<Row>(`${resource}_dtl`, { id })).body[0];
    const upd = (params: Record<string, string | number | undefined>, key?: string) => h.post<Move | Problem>('server_upd', params, key);
    const moved = async (params: Record<string, string | number | undefined>): Promise<Move> => {
      const res = await upd(params);
      assert.equal(res.status, 200, res.text);
      return res.body[0] as Move;
    };
    const refused = async (params: Record<string, string | number | undefined>, status: number, field: string | undefined, message: RegExp) => {
      const res = await upd(params);
      assert.equal(res.status, status, res.text);
      const problem = res.body[0] as Problem;
      assert.match(problem.error, message);
      if (field) assert.match(problem.fields?.[field] ?? '', message);
    };
    const history = async (filter: Record<string, number>) =>
      (await h.post<Row>('serverhistory_lst', { ...filter, n: 100, col: 'sh_id', odr: 'asc' })).body;
    const server = async (serial: string, extra: Record<string, unknown> = {}) =>
      Number((await save('server', { serial_no: serial, model: 'AQ-01', status: 'stock', sk_id: ids.tokyo, rental_fee: 1100, ...extra })).sv_id);

    before(async () => {
      ids.tokyo = Number((await save('souko', { code: 'M-TKY', name: '移動テスト東京倉庫', active: 1 })).sk_id);
      ids.osaka = Number((await save('souko', { code: 'M-OSK', name: '移動テスト大阪倉庫', active: 1 })).sk_id);
      customer = Number((await save('client', { co_name: '設置テスト株式会社', status: '1', tel_1: '03-5555-0000' })).cl_id);
      ids.agreement = Number((await save('agreement', { cl_id: customer, agreement_no: 'M-AG-1', contract_type: '1', status: '1', contract_date: '2026-01-10', server_count: 0 })).ag_id);
      const { delivery, accounting } = h.fixtures.users;
      stockKey = await h.keyOf(delivery.email, delivery.password);
      accountingKey = await h.keyOf(accounting.email, accounting.password);
    });

    it('installs, exchanges and takes back a server with its history, agreement and customer', async () => {
      const first = await server('MV-0001', { last_maintenance_date: '2026-01-05' });
      const second = await server('MV-0002', { model: 'AQ-02', sk_id: ids.osaka });

      const installed = await moved({ id: first, cl_id: customer, date: '2026-02-01' });
      assert.equal(installed.kind, 'install');
      assert.equal(installed.server.sv_status, 'installed');
      assert.equal(installed.server.sv_cl_id, customer);
      assert.equal(installed.server.sv_sk_id, null, 'no longer in a warehouse');
      assert.equal(installed.server.sv_install_date, '2026-02-01');
      assert.equal(installed.server.sv_last_maintenance_date, '', 'the warehouse maintenance before installing is not this installation\'s');
      assert.equal(installed.server.sv_next_due_date, '2027-02-01', 'due a year after installing');
      assert.equal(installed.agreement?.ag_server_count, 1);
      assert.equal(installed.agreement?.ag_server_model, 'AQ-01');

      const exchanged = await moved({ id: second, cl_id: customer, old_id: first, date: '2026-06-15', modified: String((await detail('server', second)).modified) });
      assert.equal(exchanged.kind, 'exchange');
      assert.equal(exchanged.server.sv_status, 'installed');
      assert.equal(exchanged.server.sv_exchange_date, '2026-06-15');
      assert.equal(exchanged.replaced?.sv_status, 'waiting', 'the old one is back as メンテ待ち');
      assert.equal(exchanged.replaced?.sv_cl_id, null);
      assert.equal(exchanged.replaced?.sv_sk_id, ids.osaka, 'to the warehouse the new one came from');
      assert.equal(exchanged.agreement?.ag_server_count, 1);
      assert.equal(exchanged.agreement?.ag_server_model, 'AQ-02');
      assert.equal((await detail('client', customer)).cl_server_changed, '2026-06-15');

      const back = await moved({ id: second, sk_id: ids.tokyo, date: '2026-09-30' });
      assert.equal(back.kind, 'takeback');
      assert.equal(back.server.sv_status, 'waiting');
      assert.equal(back.server.sv_sk_id, ids.tokyo);
      assert.equal(back.agreement?.ag_server_count, 0);

      const rows = await history({ cl_id: customer });
      assert.deepEqual(rows.map((r) => [r.sh_kind, r.sh_sv_id, r.sh_date, r.sh_sk_id, r.sh_other_sv_id]), [
        ['install', first, '2026-02-01', ids.tokyo, null],
        ['exchange_in', second, '2026-06-15', ids.osaka, first],
        ['exchange_out', first, '2026-06-15', ids.osaka, second],
        ['takeback', second, '2026-09-30', ids.tokyo, null],
      ]);
      assert.equal(rows[0].sh_sv_id_label, 'MV-0001', 'the server is named on the history');
      assert.equal(rows[0].sh_usr_id_label, '管理 太郎');
      assert.equal((await h.post('serverhistory_cnt', { sv_id: first })).body[0], 2, 'the server\'s own history tab');
      const log = (await h.post<Row>('log_lst', { postData: JSON.stringify({ call: 'server_upd' }), n: 100 })).body;
      assert.ok(log.some((r) => r.log_table === 'water_server') && log.some((r) => r.log_table === 'agreement') && log.some((r) => r.log_table === 'client') && log.some((r) => r.log_table === 'server_history'));
    });

    it('picks a server of the model (item_id) from stock and refuses a model that does not match', async () => {
      const spare = await server('MV-0100', { model: 'HT-10' });
      await server('MV-0101', { model: 'HT-10' });
      const picked = await moved({ cl_id: customer, item_id: 'HT-10', date: '2026-03-01' });
      assert.equal(picked.server.sv_id, spare, 'the first by serial number');
      const other = await server('MV-0102', { model: 'AQ-03' });
      await refused({ id: other, cl_id: customer, item_id: 'HT-10' }, 400, 'item_id', /MV-0102の機種は「AQ-03」で、指定の機種「HT-10」と違います/);
      await refused({ cl_id: customer, item_id: 'XX-99' }, 400, 'item_id', /機種「XX-99」の在庫サーバーがありません/);
      await moved({ id: spare, sk_id: ids.tokyo, date: '2026-03-02' });
    });

    it('refuses in Japanese and writes nothing: disposed, installed elsewhere, waiting, no customer, no agreement, wrong old server', async () => {
      const disposed = await server('MV-0200', { status: 'disposed', sk_id: '' });
      const other = Number((await save('client', { co_name: '別の顧客', status: '1', tel_1: '03-5555-0001' })).cl_id);
      await save('agreement', { cl_id: other, agreement_no: 'M-AG-2', contract_type: '1', status: '1', contract_date: '2026-01-10' });
      const elsewhere = await server('MV-0201');
      await moved({ id: elsewhere, cl_id: other, date: '2026-02-01' });
      const waiting = await server('MV-0202', { status: 'waiting' });
      const fresh = await server('MV-0203');
      const noContract = Number((await save('client', { co_name: '契約なし商店', status: '1', tel_1: '03-5555-0002' })).cl_id);
      const before = await history({});

      await refused({ id: disposed, cl_id: customer }, 400, 'id', /MV-0200は廃棄済みのため設置できません/);
      await refused({ id: elsewhere, cl_id: customer }, 400, 'id', /MV-0201は既に「別の顧客」に設置されています。先に引上げてください/);
      await refused({ id: waiting, cl_id: customer }, 400, 'id', /MV-0202は「メンテ待ち」です/);
      await refused({ id: fresh, cl_id: 999_999 }, 400, 'cl_id', /顧客が見つかりません（ID 999999）/);
      await refused({ id: fresh, cl_id: noContract }, 400, 'cl_id', /「契約なし商店」には契約中の契約がありません/);
      await refused({ id: fresh, cl_id: customer, old_id: elsewhere }, 400, 'old_id', /MV-0201は「設置テスト株式会社」に設置されていません/);
      await refused({ id: fresh, cl_id: customer, old_id: fresh }, 400, 'old_id', /同じサーバーは選べません/);
      await refused({ id: fresh }, 400, 'id', /MV-0203はどの顧客にも設置されていません/);
      await refused({ id: elsewhere }, 400, 'sk_id', /保管する倉庫を選んでください/);
      await refused({ id: elsewhere, sk_id: ids.tokyo, date: '2026-01-01' }, 400, 'date', /引上げ日（2026-01-01）は製造番号 MV-0201の設置日（2026-02-01）以降/);
      await refused({ id: fresh, cl_id: customer, date: '2026-13-01' }, 400, 'date', /YYYY-MM-DD/);
      await refused({ id: 999_999, cl_id: customer }, 400, 'id', /サーバーが見つかりません（ID 999999）/);
      await refused({ id: 'abc', cl_id: customer }, 400, undefined, /ID/);
      assert.equal((await upd({ id: fresh, cl_id: customer }, accountingKey)).status, 403, '経理 does not write the server ledger');
      assert.equal((await upd({ id: fresh, cl_id: customer, date: '2026-02-02' }, stockKey)).status, 200, '配送 does');

      assert.deepEqual(await history({}).then((rows) => rows.length), before.length + 1, 'only the allowed move wrote history');
      assert.equal((await detail('server', disposed)).sv_status, 'disposed');
      assert.equal((await detail('server', waiting)).sv_status, 'waiting');
    });

    it('a refusal midway (a stale edit of the new server after the old one was moved back) leaves nothing written', async () => {
      const old = await server('MV-0300');
      await moved({ id: old, cl_id: customer, date: '2026-04-01' });
      const next = await server('MV-0301');
      const shown = String((await detail('server', next)).modified);
      await save('server', { note: '別の担当者が先に編集', modified: shown }, next);
      const clientBefore = await detail('client', customer);
      const agreementBefore = await detail('agreement', ids.agreement);
      const historyBefore = (await history({})).length;

      const res = await upd({ id: next, cl_id: customer, old_id: old, date: '2026-05-01', modified: shown });
      assert.equal(res.status, 409, res.text);
      assert.match((res.body[0] as Problem).error, /他のユーザー|更新/);
      const oldAfter = await detail('server', old);
      assert.equal(oldAfter.sv_status, 'installed', 'the old server, written before the refusal, is rolled back');
      assert.equal(oldAfter.sv_cl_id, customer);
      assert.equal((await detail('server', next)).sv_status, 'stock');
      assert.equal((await detail('client', customer)).modified, clientBefore.modified);
      assert.equal((await detail('agreement', ids.agreement)).modified, agreementBefore.modified);
      assert.equal((await history({})).length, historyBefore);

      const staleOld = await upd({ id: next, cl_id: customer, old_id: old, old_modified: '2000-01-01T00:00:00.000Z', date: '2026-05-01' });
      assert.equal(staleOld.status, 409, 'the old server shown stale is refused too');
      assert.equal((await moved({ id: next, cl_id: customer, old_id: old, date: '2026-05-01' })).kind, 'exchange', 'with what is stored now it goes through');
    });
  });
}
