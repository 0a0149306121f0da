/**
 * Contacts, sales reports, daily reports, agreements and items on the generic machinery: every one
 * lists, counts, saves, refuses a stale edit and soft-deletes the same way; references are named
 * by label, must exist, and keep the records they point at from being deleted; unique fields and
 * field sets; each area's roles.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MESSAGES } from '../../lib/protocol';
import { dialects, useHarness, type Harness } from './harness';

type Row = Record<string, string | number | null>;
type Fields = { error: string; fields?: Record<string, string> };

interface ResourceCase {
  name: string;
  prefix: string;
  /** A valid new record; `{client}` and `{me}` are replaced by the fixture ids. */
  record: Record<string, string | number>;
  keyword: string;
  sort: string;
  edit: [string, string];
}

const CASES: ResourceCase[] = [
  {
    name: 'contact', prefix: 'ct_', keyword: '温水が出ない', sort: 'ct_uketsuke_date', edit: ['status', '2'],
    record: { cl_id: '{client}', uketsuke_date: '2026-11-02', channel: '1', caller: '総務 佐々木様', subject: 'サーバーの温水が出ない', content: '電源を確認いただく。', usr_id: '{me}', status: '1' },
  },
  {
    name: 'report', prefix: 'rp_', keyword: '省エネモデル', sort: 'rp_report_date', edit: ['result', '4'],
    record: { cl_id: '{client}', report_date: '2026-11-05', usr_id: '{me}', kind: '1', title: '省エネモデルへの入替提案', content: '3 年経過のため入替を提案。' },
  },
  {
    name: 'daily', prefix: 'dr_', keyword: '積み込み作業', sort: 'dr_report_date', edit: ['plan', '午前は配送ルート A'],
    record: { usr_id: '{me}', report_date: '2026-11-06', start_time: '8:30', end_time: '17:30', deliveries: '24', content: '午後は倉庫で積み込み作業。' },
  },
  {
    name: 'agreement', prefix: 'ag_', keyword: 'AG-TEST-0001', sort: 'ag_contract_date', edit: ['rental_fee', '1000'],
    record: { cl_id: '{client}', agreement_no: 'AG-TEST-0001', contract_type: '1', status: '1', contract_date: '2026-04-01', server_count: '2', rental_fee: '500', min_order: '2' },
  },
  {
    name: 'item', prefix: 'it_', keyword: 'テスト天然水', sort: 'it_code', edit: ['price', '1300'],
    record: { code: 'TEST-W12', name: 'テスト天然水 12L', kana: 'テストテンネンスイ', unit: '本', price: '1200', tax_class: 'reduced', returnable: '1', active: '1' },
  },
];

const fill = (h: Harness, record: ResourceCase['record']) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v === '{client}' ? h.fixtures.clients.yamada : v === '{me}' ? h.fixtures.users.admin.id : v]));

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const save = (name: string, postData: Record<string, unknown>, id?: number | string, key?: string) =>
      h.post<Row>(`${name}_save`, { id, postData: JSON.stringify(postData) }, key);

    for (const c of CASES) {
      describe(c.name, () => {
        it('saves, answers by id, finds by keyword, sorts, counts, refuses a stale edit and soft-deletes', async () => {
          const created = await save(c.name, fill(h, c.record));
          assert.equal(created.status, 200, created.text);
          const row = created.body[0];
          const id = Number(row[`${c.prefix}id`]);
          assert.ok(id > 0);

          const found = await h.post<Row>(`${c.name}_lst`, { kw: c.keyword, col: c.sort, odr: 'desc', n: 5 });
          assert.equal(found.status, 200, found.text);
          assert.deepEqual(found.body.map((r) => r[`${c.prefix}id`]), [id]);
          assert.deepEqual((await h.post(`${c.name}_cnt`, { kw: c.keyword })).body, [1]);
          const sorted = await h.post<Row>(`${c.name}_lst`, { col: c.sort, odr: 'asc', n: 100 });
          const values = sorted.body.map((r) => String(r[c.sort] ?? ''));
          assert.deepEqual(values, [...values].sort(), `${c.name} sorted by ${c.sort}`);
          assert.equal((await h.post(`${c.name}_lst`, { col: `${c.prefix}search` })).status, 400, 'the search column is not sortable');

          const [field, value] = c.edit;
          const edited = await save(c.name, { [field]: value, modified: row.modified }, id);
          assert.equal(edited.status, 200, edited.text);
          assert.equal(String(edited.body[0][`${c.prefix}${field}`]), value);
          const stale = await save(c.name, { [field]: value, modified: row.modified }, id);
          assert.deepEqual([stale.status, stale.body], [409, [{ error: MESSAGES.conflict }]]);

          assert.equal((await h.post(`${c.name}_del`, { id })).status, 200);
          assert.equal((await h.post(`${c.name}_dtl`, { id })).status, 404);
          assert.deepEqual((await h.post(`${c.name}_cnt`, { kw: c.keyword })).body, [0]);
          const log = await h.database.db.selectFrom('audit_log').select('log_call').where('log_record_id', '=', id).where('log_call', 'like', `${c.name}_%`).orderBy('log_id').execute();
          assert.deepEqual(log.map((l) => l.log_call), [`${c.name}_save`, `${c.name}_save`, `${c.name}_del`]);
        });

        it('refuses a record without its required fields, naming each field in Japanese, and writes nothing', async () => {
          const before = (await h.post(`${c.name}_cnt`, {})).body[0];
          const res = await save(c.name, {});
          assert.equal(res.status, 400);
          const answer = res.body[0] as unknown as Fields;
          assert.ok(answer.fields && Object.keys(answer.fields).length > 0);
          for (const message of Object.values(answer.fields)) assert.match(message, /を(入力|選択)してください。$/);
          assert.deepEqual((await h.post(`${c.name}_cnt`, {})).body, [before]);
        });
      });
    }

    describe('references', () => {
      it('answers the referenced records by name and lists a customer’s records by cl_id', async () => {
        const res = await save('contact', { cl_id: h.fixtures.clients.abc, uketsuke_date: '2026-11-10', channel: '2', subject: '請求書の再発行', usr_id: h.fixtures.users.sales.id, status: '1' });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].ct_cl_id_label, '株式会社ABC商事');
        assert.equal(res.body[0].ct_usr_id_label, '営業 花子');
        const listed = await h.post<Row>('contact_lst', { cl_id: h.fixtures.clients.abc });
        assert.ok(listed.body.length >= 1);
        assert.ok(listed.body.every((r) => r.ct_cl_id === h.fixtures.clients.abc));
        assert.equal(listed.body[0].ct_cl_id_label, '株式会社ABC商事');
        const other = await h.post<Row>('contact_lst', { cl_id: h.fixtures.clients.percent });
        assert.ok(other.body.every((r) => r.ct_cl_id === h.fixtures.clients.percent));
      });

      it('names a customer without a company name by the person', async () => {
        const res = await save('report', { cl_id: h.fixtures.clients.yamada, report_date: '2026-11-11', usr_id: h.fixtures.users.admin.id, kind: '2', title: '電話フォロー', content: '配送本数の確認。' });
        assert.equal(res.body[0].rp_cl_id_label, '山田商店');
      });

      it('refuses a reference to a record that does not exist or was deleted, naming the field', async () => {
        const missing = await save('contact', { cl_id: 999999, uketsuke_date: '2026-11-10', channel: '1', subject: '存在しない顧客', status: '1' });
        assert.equal(missing.status, 400);
        assert.match((missing.body[0] as unknown as Fields).fields!.cl_id, /顧客が見つかりません/);
        const temp = await h.post<Row>('client_save', { postData: JSON.stringify({ co_name: '削除予定商店', tel_1: '03-0000-0000', status: '1' }) });
        const tempId = temp.body[0].cl_id;
        assert.equal((await h.post('client_del', { id: tempId })).status, 200);
        const deleted = await save('contact', { cl_id: tempId, uketsuke_date: '2026-11-10', channel: '1', subject: '削除済みの顧客', status: '1' });
        assert.equal(deleted.status, 400);
        const user = await save('daily', { usr_id: 999999, report_date: '2026-11-12', content: 'x' });
        assert.match((user.body[0] as unknown as Fields).fields!.usr_id, /担当者が見つかりません/);
      });

      it('refuses to delete a customer that live agreements, contacts or reports point at, and allows it once they are gone', async () => {
        const client = await h.post<Row>('client_save', { postData: JSON.stringify({ co_name: '参照テスト商事', tel_1: '03-2222-3333', status: '1' }) });
        const clId = Number(client.body[0].cl_id);
        const contact = await save('contact', { cl_id: clId, uketsuke_date: '2026-11-10', channel: '1', subject: '参照あり', status: '1' });
        const refused = await h.post('client_del', { id: clId });
        assert.equal(refused.status, 400);
        assert.match(String(refused.body[0].error), /この顧客は対応履歴（1件）の「顧客」に使われているため削除できません/);
        assert.equal((await h.post('client_dtl', { id: clId })).status, 200, 'nothing changed');
        assert.equal((await h.post('contact_del', { id: contact.body[0].ct_id })).status, 200);
        assert.equal((await h.post('client_del', { id: clId })).status, 200);
      });

      it('refuses to delete a user that records point at (history stays intact)', async () => {
        const staff = h.fixtures.users.delivery.id;
        await save('daily', { usr_id: staff, report_date: '2026-11-13', content: '配送 25 件。' });
        const res = await h.post('user_del', { id: staff });
        assert.equal(res.status, 400);
        assert.match(String(res.body[0].error), /日報/);
      });
    });

    describe('rules', () => {
      it('item codes are unique among live items (and free again after a delete); a full-width code is the same code', async () => {
        const first = await save('item', { code: 'UNIQ-1', name: '一意テスト', unit: '本', price: '100', tax_class: 'standard' });
        assert.equal(first.status, 200, first.text);
        const clash = await save('item', { code: 'ＵＮＩＱ－1', name: '重複', unit: '本', price: '100', tax_class: 'standard' });
        assert.equal(clash.status, 400);
        assert.equal((clash.body[0] as unknown as Fields).fields!.code, '商品コード「UNIQ-1」は既に登録されています。');
        const dup = await save('item', { code: 'UNIQ-1', name: '重複', unit: '本', price: '100', tax_class: 'standard' });
        assert.equal((dup.body[0] as unknown as Fields).fields!.code, '商品コード「UNIQ-1」は既に登録されています。');
        assert.equal((await h.post('item_del', { id: first.body[0].it_id })).status, 200);
        assert.equal((await save('item', { code: 'UNIQ-1', name: '再登録', unit: '本', price: '100', tax_class: 'standard' })).status, 200);
      });

      it('one daily report per staff member per day', async () => {
        const me = h.fixtures.users.sales.id;
        assert.equal((await save('daily', { usr_id: me, report_date: '2026-11-16', content: '訪問 3 件。' })).status, 200);
        const again = await save('daily', { usr_id: me, report_date: '2026-11-16', content: '二重登録' });
        assert.equal(again.status, 400);
        assert.equal(String(again.body[0].error), 'この担当者のこの日の日報は既に登録されています。');
        assert.equal((await save('daily', { usr_id: me, report_date: '2026-11-17', content: '翌日は登録できる。' })).status, 200);
        const badTime = await save('daily', { usr_id: me, report_date: '2026-11-18', content: 'x', start_time: '25:00' });
        assert.match((badTime.body[0] as unknown as Fields).fields!.start_time, /H:mm/);
      });

      it('cross-field rules: a finished contact needs its date; a cancelled agreement needs its cancel date', async () => {
        const done = await save('contact', { cl_id: h.fixtures.clients.abc, uketsuke_date: '2026-11-10', channel: '1', subject: '完了', status: '3' });
        assert.match((done.body[0] as unknown as Fields).fields!.done_date, /完了日を入力してください/);
        const early = await save('contact', { cl_id: h.fixtures.clients.abc, uketsuke_date: '2026-11-10', channel: '1', subject: '完了', status: '3', done_date: '2026-11-01' });
        assert.match((early.body[0] as unknown as Fields).fields!.done_date, /受付日以降/);
        const cancelled = await save('agreement', { cl_id: h.fixtures.clients.abc, agreement_no: 'AG-X-1', contract_type: '1', status: '9', contract_date: '2026-01-01' });
        assert.match((cancelled.body[0] as unknown as Fields).fields!.cancel_date, /解約日を入力してください/);
        const dup = await save('agreement', { cl_id: h.fixtures.clients.abc, agreement_no: 'AG-X-2', contract_type: '1', status: '1', contract_date: '2026-01-01' });
        assert.equal(dup.status, 200);
        const again = await save('agreement', { cl_id: h.fixtures.clients.halfAbc, agreement_no: 'AG-X-2', contract_type: '1', status: '1', contract_date: '2026-01-01' });
        assert.match((again.body[0] as unknown as Fields).fields!.agreement_no, /既に登録されています/);
      });

      it('filters: date ranges, in and number ranges are whitelisted per resource', async () => {
        const open = await h.post<Row>('contact_lst', { postData: JSON.stringify({ status: ['1'], uketsuke_date: ['2026-11-01', '2026-11-30'] }), n: 100 });
        assert.equal(open.status, 200, open.text);
        assert.ok(open.body.every((r) => r.ct_status === '1' && String(r.ct_uketsuke_date) >= '2026-11-01'));
        await save('item', { code: 'PRICE-LOW', name: '安い商品', unit: '個', price: '300', tax_class: 'standard' });
        await save('item', { code: 'PRICE-HIGH', name: '高い商品', unit: '台', price: '3800', tax_class: 'standard' });
        const priced = await h.post<Row>('item_lst', { postData: JSON.stringify({ price: [1000, ''] }), n: 100 });
        assert.ok(priced.body.some((r) => r.it_code === 'PRICE-HIGH'));
        assert.ok(priced.body.every((r) => Number(r.it_price) >= 1000));
        assert.equal((await h.post('item_lst', { postData: JSON.stringify({ cl_id: [1] }) })).status, 400);
        assert.equal((await h.post('contact_lst', { postData: JSON.stringify({ status: ['9'] }) })).status, 400);
      });
    });

    describe('roles', () => {
      it('経理 reads contacts and items but may not write them; 配送 writes contacts; 営業 may not write items', async () => {
        const keiri = await h.keyOf(h.fixtures.users.accounting.email, h.fixtures.users.accounting.password);
        const haiso = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
        const eigyo = await h.keyOf(h.fixtures.users.sales.email, h.fixtures.users.sales.password);
        assert.equal((await h.post('contact_lst', {}, keiri)).status, 200);
        const contact = { cl_id: h.fixtures.clients.abc, uketsuke_date: '2026-11-20', channel: '1', subject: '権限テスト', status: '1' };
        assert.deepEqual((await save('contact', contact, undefined, keiri)).body, [{ error: MESSAGES.forbidden }]);
        assert.equal((await save('contact', contact, undefined, haiso)).status, 200);
        assert.equal((await h.post('item_lst', {}, eigyo)).status, 200);
        assert.equal((await save('item', { code: 'ROLE-1', name: '権限', unit: '本', price: '1', tax_class: 'standard' }, undefined, eigyo)).status, 403);
        assert.equal((await h.post('item_del', { id: 1 }, eigyo)).status, 403);
      });
    });

    describe('postal_lookup', () => {
      it('answers 都道府県・市区町村・町域 of a postal code from the bundled data, to any signed-in user', async () => {
        const haiso = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
        const res = await h.post<Row>('postal_lookup', { zipcode: '１００ー０００１' }, haiso);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, [{ zipcode: '100-0001', pref: '東京都', city: '千代田区', town: '千代田' }]);
        assert.ok((await h.post<Row>('postal_lookup', { zipcode: '4520961' })).body.length > 10, 'every 町域 of a code with several');
        assert.equal((await h.post('postal_lookup', { zipcode: '1000001' }, null)).status, 401);
      });

      it('answers [] for an unknown code and 400 naming zipcode for one not of 7 digits', async () => {
        assert.deepEqual((await h.post('postal_lookup', { zipcode: '999-9999' })).body, []);
        const bad = await h.post<Fields>('postal_lookup', { zipcode: '100-001' });
        assert.equal(bad.status, 400);
        assert.equal(bad.body[0].fields?.zipcode, '郵便番号は 7 桁の数字で入力してください（例: 100-0001）。');
      });
    });
  });
}
