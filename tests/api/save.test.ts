/**
 * `{r}_save` (insert, update of the sent fields, Japanese validation messages naming the field,
 * half-width conversion, edit conflicts), `{r}_del` (soft delete) and their audit-log rows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MESSAGES } from '../../lib/protocol';
import { searchJoin } from '../../lib/text';
import { verifyPassword } from '../../server/auth/password';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    const save = (postData: Record<string, unknown>, id?: number) => h.post<Row>('client_save', { id, postData: JSON.stringify(postData) });
    const detail = async (id: number) => (await h.post<Row>('client_dtl', { id })).body[0];
    const audits = (id: number) =>
      h.database.db.selectFrom('audit_log').selectAll().where('log_table', '=', 'client').where('log_record_id', '=', id).orderBy('log_id').execute();

    describe('insert', () => {
      it('saves a new customer, converting full-width phone, postcode and e-mail', async () => {
        const res = await save({ co_name: '株式会社　新規', tel_1: '０３－９８７６－５４３２', zipcode: '１０００００１', email: 'ＩＮＦＯ＠ＥＸＡＭＰＬＥ．ＪＰ', status: '1', haiso_wks: '２', lat: '35.681236' });
        assert.equal(res.status, 200, res.text);
        const row = res.body[0];
        assert.equal(row.cl_co_name, '株式会社　新規', 'ordinary text is stored as typed');
        assert.equal(row.cl_tel_1, '03-9876-5432');
        assert.equal(row.cl_zipcode, '100-0001');
        assert.equal(row.cl_email, 'INFO@EXAMPLE.JP');
        assert.equal(row.cl_haiso_wks, 2);
        assert.equal(row.cl_lat, 35.681236);
        assert.equal(row.cl_parent_id, null);
        assert.match(String(row.created), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.equal(row.created, row.modified);
        assert.ok(!('cl_search' in row));
        const stored = await h.database.db.selectFrom('client').select('cl_search').where('cl_id', '=', Number(row.cl_id)).executeTakeFirstOrThrow();
        // The search key drops spaces and hyphens: 「株式会社新規」 and 「0398765432」 find it.
        assert.match(String(stored.cl_search), /株式会社新規 0398765432/);
        const log = await audits(Number(row.cl_id));
        assert.equal(log.length, 1);
        assert.equal(log[0].log_call, 'client_save');
        assert.equal(log[0].log_user_id, h.fixtures.users.admin.id);
        const changes = JSON.parse(log[0].log_changes) as Record<string, unknown[]>;
        assert.deepEqual(changes.cl_tel_1, [null, '03-9876-5432']);
      });

      it("keys a new customer's audit row by what finds the customer in its list, a change's by the values before and after", async () => {
        const res = await save({ co_name: '株式会社　監査', tel_1: '03-2222-3333', city: '港区', memo: '鍵は管理人室', status: '1' });
        assert.equal(res.status, 200, res.text);
        const id = Number(res.body[0].cl_id);
        const searchOf = async () => (await h.database.db.selectFrom('audit_log').select('log_search').where('log_table', '=', 'client').where('log_record_id', '=', id).orderBy('log_id').execute()).map((r) => String(r.log_search));
        const stored = await h.database.db.selectFrom('client').select('cl_search').where('cl_id', '=', id).executeTakeFirstOrThrow();
        assert.deepEqual(await searchOf(), [`client_save client ${String(stored.cl_search)}`], 'the keyword fields (会社名, 電話, 市区町村), not the メモ');
        const changed = await save({ memo: '鍵はフロント', modified: res.body[0].modified }, id);
        assert.equal(changed.status, 200, changed.text);
        assert.equal((await searchOf())[1], searchJoin(['client_save', 'client', '鍵は管理人室', '鍵はフロント']));
      });

      it('refuses missing required fields with Japanese messages naming the field (error key first)', async () => {
        const res = await save({ co_name: '電話なし', status: '' }); // 状態 sent empty (left out, it takes its initial 契約中)
        assert.equal(res.status, 400);
        const answer = res.body[0] as unknown as { error: string; fields: Record<string, string> };
        assert.equal(Object.keys(answer)[0], 'error');
        assert.equal(answer.fields.tel_1, '電話番号1を入力してください。');
        assert.equal(answer.fields.status, '状態を選択してください。');
        assert.ok(Object.values(answer.fields).includes(answer.error));
        const both = await save({ tel_1: '03-1111-2222', status: '1' });
        assert.equal((both.body[0].fields as unknown as Record<string, string>).co_name, '会社名か氏名のどちらかを入力してください。');
      });

      it('names the field of each format problem', async () => {
        const cases: [Record<string, unknown>, string, RegExp][] = [
          [{ email: 'not-an-email' }, 'email', /メールアドレスの形式/],
          [{ zipcode: '12345' }, 'zipcode', /郵便番号は 7 桁/],
          [{ tel_2: 'abc' }, 'tel_2', /電話番号2の形式/],
          [{ birthday: '2026-02-30' }, 'birthday', /生年月日は YYYY-MM-DD/],
          [{ haiso_wks: '9' }, 'haiso_wks', /配送間隔（週）は8以下/],
          [{ kake_ritu: '1.5' }, 'kake_ritu', /整数/],
          [{ co_name_kana: '漢字' }, 'co_name_kana', /カタカナ/],
          [{ pref: '東京' }, 'pref', /選択肢にない/],
          [{ co_name: 'あ'.repeat(101) }, 'co_name', /会社名は100文字以内/],
          [{ co_name: ['array'] }, 'co_name', /文字列/],
        ];
        for (const [values, field, message] of cases) {
          const res = await save({ co_name: '検証', tel_1: '03-1111-2222', status: '1', ...values });
          assert.equal(res.status, 400, JSON.stringify(values));
          const fields = res.body[0].fields as unknown as Record<string, string>;
          assert.match(fields[field], message, JSON.stringify(res.body));
        }
      });

      it('refuses an order for a customer that does not exist', async () => {
        const res = await h.post('order_save', { postData: JSON.stringify({ cl_id: 999999, date: '2026-05-01', status: 'untreated' }) });
        const message = '顧客が見つかりません（ID 999999）。選び直してください。';
        assert.deepEqual([res.status, res.body], [400, [{ error: message, fields: { cl_id: message } }]]);
      });
    });

    describe('update', () => {
      it('writes only the sent fields and a new, later modified', async () => {
        const id = h.fixtures.clients.halfAbc;
        const before = await detail(id);
        const res = await save({ city: '大阪市中央区', modified: before.modified }, id);
        assert.equal(res.status, 200, res.text);
        const after = res.body[0];
        assert.equal(after.cl_city, '大阪市中央区');
        assert.equal(after.cl_co_name, before.cl_co_name);
        assert.equal(after.cl_tel_1, before.cl_tel_1);
        assert.ok(String(after.modified) > String(before.modified));
        const kw = await h.post<Row>('client_lst', { kw: '中央区' });
        assert.deepEqual(kw.body.map((r) => r.cl_id), [id], 'the search text follows the save');
        const log = (await audits(id)).at(-1)!;
        assert.deepEqual(JSON.parse(log.log_changes), { cl_city: ['大阪市北区', '大阪市中央区'] });
      });

      it('gives two quick saves strictly increasing modified values', async () => {
        const id = h.fixtures.clients.underscore;
        let modified = String((await detail(id)).modified);
        for (let i = 0; i < 3; i++) {
          const res = await save({ biko_1: `連続保存 ${i}`, modified }, id);
          assert.equal(res.status, 200, res.text);
          assert.ok(String(res.body[0].modified) > modified);
          modified = String(res.body[0].modified);
        }
      });

      it('refuses a stale or missing modified with 409 and leaves the row unchanged', async () => {
        const id = h.fixtures.clients.percent;
        const loaded = await detail(id);
        assert.equal((await save({ biko_1: '先に保存', modified: loaded.modified }, id)).status, 200);
        const stale = await save({ biko_1: '後から保存', modified: loaded.modified }, id);
        assert.deepEqual([stale.status, stale.body], [409, [{ error: MESSAGES.conflict }]]);
        const missing = await save({ biko_1: '更新日時なし' }, id);
        assert.equal(missing.status, 409);
        assert.equal((await detail(id)).cl_biko_1, '先に保存');
      });

      it('answers 404 for an id that does not exist', async () => {
        const res = await save({ co_name: 'x', modified: '2026-01-01T00:00:00.000Z' }, 999999);
        assert.deepEqual([res.status, res.body], [404, [{ error: MESSAGES.notFound }]]);
      });

      it('stores a secret only as a hash, answers it empty, and keeps it when sent empty', async () => {
        const id = h.fixtures.clients.contract;
        let loaded = await detail(id);
        assert.equal((await save({ pw: 'mypage-secret', modified: loaded.modified }, id)).body[0].cl_pw, '');
        const hash = async () => String((await h.database.db.selectFrom('client').select('cl_pw').where('cl_id', '=', id).executeTakeFirstOrThrow()).cl_pw);
        assert.ok(await verifyPassword('mypage-secret', await hash()));
        loaded = await detail(id);
        assert.equal(loaded.cl_pw, '');
        await save({ pw: '', biko_2: 'パスワードはそのまま', modified: loaded.modified }, id);
        assert.ok(await verifyPassword('mypage-secret', await hash()));
        const log = await audits(id);
        assert.ok(log.every((l) => !l.log_changes.includes('scrypt')), 'no hash in the audit log');
      });
    });

    describe('delete', () => {
      it('soft-deletes: dtl 404, lists hide it, audit-logged; deleting again is 404', async () => {
        const created = await save({ co_name: '削除予定', tel_1: '03-1111-2222', status: '1' });
        const id = Number(created.body[0].cl_id);
        const res = await h.post('client_del', { id });
        assert.deepEqual([res.status, res.body], [200, [{ id }]]);
        assert.deepEqual((await h.post('client_dtl', { id })).body, [{ error: MESSAGES.notFound }]);
        assert.equal((await h.post('client_dtl', { id })).status, 404);
        assert.deepEqual((await h.post('client_lst', { kw: '削除予定' })).body, []);
        assert.deepEqual((await h.post('client_cnt', { kw: '削除予定' })).body, [0]);
        const row = await h.database.db.selectFrom('client').select(['deleted']).where('cl_id', '=', id).executeTakeFirstOrThrow();
        assert.equal(row.deleted, 1);
        const log = (await audits(id)).at(-1)!;
        assert.equal(log.log_call, 'client_del');
        assert.deepEqual((JSON.parse(log.log_changes) as Record<string, unknown>).deleted, [0, 1]);
        assert.equal((await h.post('client_del', { id })).status, 404);
        const saveDeleted = await save({ co_name: '復活', modified: created.body[0].modified }, id);
        assert.equal(saveDeleted.status, 404);
      });
    });
  });
}
