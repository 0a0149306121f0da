/**
 * A detail names the value of each master-backed select (`{column}_label`), so a form shows a value
 * its master no longer offers by its name: a deleted master row's text, a warehouse's name.
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
  });
}
