/**
 * System settings: the master editor's calls (`master_option_*`) and `master_lst` answering the
 * edits in its old shape; the per-prefecture delivery fees (47 rows, `deliveryfee_bulk_save` in one
 * transaction, `deliveryFeeFor`); the system log (`log_*`: filters, keyword, before → after, indexes).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { todayJst } from '../../lib/format';
import { PREFECTURES } from '../../lib/prefectures';
import { MESSAGES, NAMED_MESSAGES, type MasterOption } from '../../lib/protocol';
import { auditLogResource } from '../../lib/resources/audit-log';
import { auditChanges } from '../../lib/system/audit';
import { MASTER_CATALOGUE } from '../../lib/system/masters';
import { writeAudit } from '../../server/audit/audit-log';
import { resourceView } from '../../server/db/schema';
import { keywordMatcher } from '../../server/resources/keyword';
import { pageIds, parseListParams } from '../../server/resources/list-query';
import { MASTER_TABLES } from '../../server/seed/data/generate';
import { deliveryFeeFor } from '../../server/system/delivery-fee';
import { dialects, downloadFile, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string>; id?: number };

const problem = (body: unknown[]): Problem => body[0] as Problem;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    let salesKey: string;
    before(async () => {
      salesKey = await h.keyOf(h.fixtures.users.sales.email, h.fixtures.users.sales.password);
    });

    const ok = async <T = Row>(call: string, params: Record<string, unknown> = {}, key?: string): Promise<T[]> => {
      const res = await h.post<T>(call, params as Record<string, string>, key);
      assert.equal(res.status, 200, `${call}: ${res.text}`);
      return res.body;
    };
    const masterLst = (table: string) => ok<MasterOption>('master_lst', { table });

    describe('master editor', () => {
      const rowsOf = (table: string, extra: Record<string, unknown> = {}) =>
        ok('master_option_lst', { n: 1000, postData: JSON.stringify({ table: [table] }), ...extra });
      const saveMaster = (postData: Record<string, unknown>, id?: number | string | null, key?: string) =>
        h.post<Row>('master_option_save', { id: id ?? undefined, postData: JSON.stringify(postData) }, key);

      it('lists the rows of one master in display order, and keyword-filters them', async () => {
        const rows = await rowsOf('mt_bank');
        assert.equal(rows.length, MASTER_TABLES.mt_bank.length);
        assert.deepEqual(rows.map((r) => r.mo_value), MASTER_TABLES.mt_bank.map((m) => m.value));
        assert.ok(rows.every((r) => typeof r.mo_id === 'number' && typeof r.modified === 'string'));
        const found = await rowsOf('mt_bank', { kw: 'ＵＦＪ' });
        assert.deepEqual(found.map((r) => r.mo_text), ['三菱UFJ銀行']);
        const [count] = await ok<number>('master_option_cnt', { postData: JSON.stringify({ table: ['mt_rank'] }) });
        assert.equal(count, MASTER_TABLES.mt_rank.length);
      });

      it('adds a row at the end of its master (flag 0) and master_lst offers it in the spec shape', async () => {
        const res = await saveMaster({ table: 'mt_rank', value: 'S', text: 'S（最優良）' });
        assert.equal(res.status, 200, res.text);
        const row = res.body[0];
        assert.equal(row.mo_flg, 0);
        const sorts = (await rowsOf('mt_rank')).map((r) => Number(r.mo_sort));
        assert.equal(row.mo_sort, Math.max(...sorts));
        const options = await masterLst('mt_rank');
        assert.deepEqual(options.at(-1), { value: 'S', text: 'S（最優良）', id: row.mo_id, flg: 0, checked: false });
        assert.deepEqual(Object.keys(options[0]), ['value', 'text', 'id', 'flg', 'checked']);
      });

      it('edits a row inline: master_lst answers the new name, flag and order at once', async () => {
        const [a] = await rowsOf('mt_contract_type');
        const res = await saveMaster({ table: 'mt_contract_type', value: a.mo_value, text: 'レンタル（月額）', flg: 1, sort: 999, modified: a.modified }, a.mo_id);
        assert.equal(res.status, 200, res.text);
        const options = await masterLst('mt_contract_type');
        assert.deepEqual(options.at(-1), { value: String(a.mo_value), text: 'レンタル（月額）', id: a.mo_id, flg: 1, checked: false });
        const log = await h.database.db.selectFrom('audit_log').selectAll().where('log_table', '=', 'master_option').where('log_record_id', '=', Number(a.mo_id)).execute();
        assert.equal(log.length, 1);
        assert.deepEqual((JSON.parse(log[0].log_changes) as Record<string, unknown>).mo_text, ['レンタル', 'レンタル（月額）']);
      });

      it('keeps a code unique within its master, but the same code may live in another master', async () => {
        const dup = await saveMaster({ table: 'mt_status', value: '1', text: '重複' });
        assert.equal(dup.status, 400);
        assert.match(problem(dup.body).fields?.value ?? '', /同じコードが既に登録されています/);
        const other = await saveMaster({ table: 'mt_rank', value: '1', text: 'ランク1' });
        assert.equal(other.status, 200, other.text);
      });

      it('refuses a stale edit with the conflict message, and a change of code or master', async () => {
        const [row] = await rowsOf('mt_area');
        const first = await saveMaster({ table: 'mt_area', value: row.mo_value, text: '都心エリア（23区）', modified: row.modified }, row.mo_id);
        assert.equal(first.status, 200, first.text);
        const stale = await saveMaster({ table: 'mt_area', value: row.mo_value, text: '上書き', modified: row.modified }, row.mo_id);
        assert.equal(stale.status, 409);
        assert.equal(problem(stale.body).error, MESSAGES.conflict);
        const fresh = first.body[0];
        const code = await saveMaster({ table: 'mt_area', value: '99', text: 'x', modified: fresh.modified }, row.mo_id);
        assert.equal(code.status, 400);
        assert.match(problem(code.body).fields?.value ?? '', /コードは登録後に変更できません/);
        const moved = await saveMaster({ table: 'mt_server_model', value: row.mo_value, text: 'x', modified: fresh.modified }, row.mo_id);
        assert.equal(moved.status, 400);
        assert.ok(problem(moved.body).fields?.table);
        assert.equal((await masterLst('mt_area'))[0].text, '都心エリア（23区）');
      });

      it('refuses deleting a code records hold; once unused, deletes softly: master_lst stops offering it, the code can be added again', async () => {
        const client = h.fixtures.clients.abc;
        const [dtl] = await ok('client_dtl', { id: client });
        const saved = await h.post<Row>('client_save', { id: client, postData: JSON.stringify({ rank: 'C', modified: dtl.modified }) });
        assert.equal(saved.status, 200, saved.text);
        const c = (await rowsOf('mt_rank')).find((r) => r.mo_value === 'C')!;
        const refused = await h.post('master_option_del', { id: c.mo_id });
        assert.equal(refused.status, 400, refused.text);
        assert.match(problem(refused.body).error, /^このランク「C（要フォロー）」は顧客（1件）の「ランク」に使われているため削除できません。/);
        assert.ok((await masterLst('mt_rank')).some((o) => o.value === 'C'), 'still offered');
        await h.post<Row>('client_save', { id: client, postData: JSON.stringify({ rank: 'B', modified: saved.body[0].modified }) });
        const del = await h.post('master_option_del', { id: c.mo_id });
        assert.equal(del.status, 200, del.text);
        assert.ok(!(await masterLst('mt_rank')).some((o) => o.value === 'C'));
        const stored = await h.database.db.selectFrom('master_option').select(['deleted', 'mo_text']).where('mo_id', '=', Number(c.mo_id)).executeTakeFirstOrThrow();
        assert.equal(stored.deleted, 1);
        const again = await saveMaster({ table: 'mt_rank', value: 'C', text: 'C（要確認）' });
        assert.equal(again.status, 200, again.text);
        assert.ok((await masterLst('mt_rank')).some((o) => o.value === 'C' && o.text === 'C（要確認）'));
      });

      it('lets other roles read the masters but refuses their writes', async () => {
        assert.equal((await rowsOf('mt_team')).length, MASTER_TABLES.mt_team.length);
        const list = await h.post('master_option_lst', { postData: JSON.stringify({ table: ['mt_team'] }) }, salesKey);
        assert.equal(list.status, 200);
        const add = await saveMaster({ table: 'mt_team', value: '7', text: '配送4班' }, undefined, salesKey);
        assert.equal(add.status, 403);
        assert.equal(problem(add.body).error, MESSAGES.forbidden);
        const [row] = await rowsOf('mt_team');
        assert.equal((await h.post('master_option_del', { id: row.mo_id }, salesKey)).status, 403);
        assert.equal((await masterLst('mt_team')).length, MASTER_TABLES.mt_team.length);
      });

      it('refuses a table outside the catalogue, including the virtual masters', async () => {
        for (const table of ['mt_unknown', 'mt_user', 'mt_role', 'client']) {
          const res = await saveMaster({ table, value: 'X', text: 'x' });
          assert.equal(res.status, 400, table);
          assert.match(problem(res.body).fields?.table ?? '', /マスタの選択肢にない値です/);
        }
        const list = await h.post('master_option_lst', { postData: JSON.stringify({ table: ['mt_unknown'] }) });
        assert.equal(list.status, 400);
        assert.equal(problem(list.body).error, NAMED_MESSAGES.badFilterValue('マスタ'));
        assert.equal((await h.database.db.selectFrom('master_option').select('mo_id').where('mo_table', 'in', ['mt_unknown', 'mt_user']).execute()).length, 0);
      });

      it('keeps master_lst as before for every master of the catalogue, and the virtual masters', async () => {
        const untouched = ['mt_pmt_method', 'mt_bank', 'mt_bunrui_1', 'mt_item_class', 'mt_delivery_time', 'mt_server_model'];
        for (const table of untouched) {
          const options = await masterLst(table);
          assert.deepEqual(options.map((o) => [o.value, o.text, o.flg, o.checked]), MASTER_TABLES[table].map((m) => [m.value, m.text, m.flg ?? 0, false]), table);
          assert.ok(options.every((o) => Number.isInteger(o.id)));
        }
        for (const { table } of MASTER_CATALOGUE) assert.ok((await masterLst(table)).length > 0, table);
        assert.deepEqual((await masterLst('mt_role')).map((o) => o.value), ['管理', '営業', '配送', '経理']);
        assert.ok((await masterLst('mt_user')).some((o) => o.text === '管理 太郎'));
      });
    });

    describe('delivery fees', () => {
      const fees = () => ok('deliveryfee_lst', { n: 100 });
      const byCode = async (code: string) => (await fees()).find((r) => r.df_pref_code === code)!;
      const bulk = (rows: Record<string, unknown>[], key?: string) => h.post<Row>('deliveryfee_bulk_save', { postData: JSON.stringify({ rows }) }, key);
      const amounts = async () => (await fees()).map((r) => [r.df_fee, r.df_remote_fee, r.df_note]);

      it('has the 47 prefectures with their JIS codes and realistic fees', async () => {
        const rows = await fees();
        assert.deepEqual(rows.map((r) => [r.df_pref_code, r.df_pref_name]), PREFECTURES.map((p) => [p.code, p.name]));
        const fee = (code: string) => rows.find((r) => r.df_pref_code === code)!.df_fee;
        assert.equal(fee('13'), 550);
        assert.equal(fee('27'), 550);
        assert.equal(fee('01'), 880);
        assert.equal(fee('40'), 880);
        assert.equal(fee('38'), 660);
        assert.equal(fee('47'), 1320);
        assert.ok(rows.every((r) => Number.isInteger(r.df_fee) && Number.isInteger(r.df_remote_fee)));
        assert.ok(Number(rows.find((r) => r.df_pref_code === '13')!.df_remote_fee) > 0, 'Tokyo islands cost extra');
      });

      it('saves every changed row in one call, each audited', async () => {
        const [tokyo, osaka, okinawa] = await Promise.all(['13', '27', '47'].map(byCode));
        const res = await bulk([
          { id: tokyo.df_id, fee: 600, remote_fee: 1200, note: '伊豆諸島・小笠原諸島は加算', modified: tokyo.modified },
          { id: osaka.df_id, fee: '５８０', modified: osaka.modified },
          { id: okinawa.df_id, fee: 1400, remote_fee: 1700, note: '離島は加算', modified: okinawa.modified },
        ]);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.map((r) => [r.df_pref_code, r.df_fee]), [['13', 600], ['27', 580], ['47', 1400]]);
        assert.equal((await byCode('27')).df_remote_fee, osaka.df_remote_fee, 'fields not sent stay');
        const log = await h.database.db.selectFrom('audit_log').select(['log_record_id', 'log_changes']).where('log_call', '=', 'deliveryfee_bulk_save').orderBy('log_id').execute();
        assert.deepEqual(log.map((l) => l.log_record_id), [tokyo.df_id, osaka.df_id, okinawa.df_id]);
        assert.deepEqual((JSON.parse(log[0].log_changes) as Record<string, unknown>).df_fee, [550, 600]);
      });

      it('refuses the whole save when one row is bad, naming its prefecture', async () => {
        const [hokkaido, osaka] = await Promise.all(['01', '27'].map(byCode));
        const before = await amounts();
        const cases: [unknown, RegExp][] = [
          [-1, /^大阪府：送料は0以上で入力してください。$/],
          ['1.5', /^大阪府：送料は整数で入力してください。$/],
          [100000, /^大阪府：送料は99999以下で入力してください。$/],
          ['', /^大阪府：送料を入力してください。$/],
        ];
        for (const [fee, message] of cases) {
          const res = await bulk([
            { id: hokkaido.df_id, fee: 990, modified: hokkaido.modified },
            { id: osaka.df_id, fee, modified: osaka.modified },
          ]);
          assert.equal(res.status, 400, JSON.stringify(fee));
          const answer = problem(res.body);
          assert.match(answer.error, message);
          assert.equal(answer.id, osaka.df_id);
          assert.ok(answer.fields?.[`${String(osaka.df_id)}.fee`]);
        }
        const readOnly = await bulk([{ id: hokkaido.df_id, fee: 990, pref_name: '蝦夷', modified: hokkaido.modified }]);
        assert.equal(readOnly.status, 200, 'read-only fields are ignored');
        assert.equal((await byCode('01')).df_pref_name, '北海道');
        const after = await amounts();
        after[0][0] = before[0][0];
        assert.deepEqual(after, before);
      });

      it('refuses the whole save when any row was changed by someone else since it was loaded', async () => {
        const [aomori, iwate] = await Promise.all(['02', '03'].map(byCode));
        const first = await bulk([{ id: iwate.df_id, fee: 700, modified: iwate.modified }]);
        assert.equal(first.status, 200, first.text);
        const before = await amounts();
        const stale = await bulk([
          { id: aomori.df_id, fee: 720, modified: aomori.modified },
          { id: iwate.df_id, fee: 710, modified: iwate.modified },
        ]);
        assert.equal(stale.status, 409);
        assert.equal(problem(stale.body).error, MESSAGES.conflict);
        assert.deepEqual(await amounts(), before, 'the valid row was not written either');
        assert.equal((await byCode('02')).df_fee, aomori.df_fee);
      });

      it('refuses bad bulk input, other roles, and calls that would add or remove prefectures', async () => {
        for (const postData of ['{}', '{"rows":[]}', '{"rows":"x"}', '{"rows":[1]}', JSON.stringify({ rows: Array.from({ length: 1001 }, () => ({ id: 1 })) })]) {
          const res = await h.post('deliveryfee_bulk_save', { postData });
          assert.equal(res.status, 400, postData.slice(0, 40));
          assert.equal(problem(res.body).error, MESSAGES.badBulk);
        }
        const badId = await bulk([{ id: 'abc', fee: 1 }]);
        assert.equal(badId.status, 400);
        const missing = await bulk([{ id: 99999, fee: 1, modified: 'x' }]);
        assert.equal(missing.status, 404);
        const tokyo = await byCode('13');
        const sales = await bulk([{ id: tokyo.df_id, fee: 1, modified: tokyo.modified }], salesKey);
        assert.equal(sales.status, 403);
        const insert = await bulk([{ fee: 100, remote_fee: 0 }]);
        assert.equal(insert.status, 403);
        for (const call of ['deliveryfee_del', 'log_save', 'log_del', 'log_bulk_save', 'client_bulk_save']) {
          assert.equal((await h.post(call, { id: 1 })).status, 404, call);
        }
        assert.equal((await fees()).length, 47);
        assert.equal((await byCode('13')).df_fee, tokyo.df_fee);
      });

      it('deliveryFeeFor answers a prefecture by code, name or address, with the current fee', async () => {
        const { db } = h.database;
        const okinawa = await byCode('47');
        assert.deepEqual(await deliveryFeeFor(db, '47'), {
          prefCode: '47', prefName: '沖縄県', fee: okinawa.df_fee, remoteFee: okinawa.df_remote_fee, note: okinawa.df_note,
        });
        assert.equal((await deliveryFeeFor(db, 1))?.prefName, '北海道');
        assert.equal((await deliveryFeeFor(db, '１'))?.prefCode, '01');
        assert.equal((await deliveryFeeFor(db, '京都府'))?.prefCode, '26');
        assert.equal((await deliveryFeeFor(db, '〒060-0001 北海道札幌市中央区北1条西2丁目'))?.prefCode, '01');
        for (const unknown of ['48', '0', 'ハワイ', '']) assert.equal(await deliveryFeeFor(db, unknown), undefined, unknown);
        const kagawa = await byCode('37');
        const res = await bulk([{ id: kagawa.df_id, fee: 640, modified: kagawa.modified }]);
        assert.equal(res.status, 200, res.text);
        assert.equal((await deliveryFeeFor(db, '香川県'))?.fee, 640);
      });
    });

    describe('system log', () => {
      const logs = (postData: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, key?: string) =>
        ok('log_lst', { n: 100, postData: JSON.stringify(postData), ...extra }, key);
      const editClient = async (id: number, values: Record<string, unknown>, key?: string) => {
        const [dtl] = await ok('client_dtl', { id }, key);
        const res = await h.post<Row>('client_save', { id, postData: JSON.stringify({ ...values, modified: dtl.modified }) }, key);
        assert.equal(res.status, 200, res.text);
        return dtl;
      };

      it('shows a client edit just made, newest first: who, which call, which record, before → after', async () => {
        const id = h.fixtures.clients.yamada;
        const before = await editClient(id, { tel_1: '011-555-0199', memo: '定期配送の曜日を変更' });
        const [entry] = await logs();
        assert.equal(entry.log_call, 'client_save');
        assert.equal(entry.log_table, 'client');
        assert.equal(entry.log_record_id, id);
        assert.equal(entry.log_user_id, h.fixtures.users.admin.id);
        assert.equal(entry.log_user_id_label, '管理 太郎');
        assert.match(String(entry.created), /^\d{4}-\d{2}-\d{2}T/);
        const changes = auditChanges('client', entry.log_changes);
        const tel = changes.find((c) => c.column === 'cl_tel_1');
        assert.deepEqual(tel, { column: 'cl_tel_1', label: '電話番号1', before: before.cl_tel_1, after: '011-555-0199' });
        assert.ok(changes.some((c) => c.label === 'メモ' && c.after === '定期配送の曜日を変更'));
        assert.ok(!('log_search' in entry));
        const times = (await logs()).map((r) => String(r.created));
        assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
      });

      it('names every kind of data and call in Japanese on screen and in its CSV: 自社情報 and 受注設定, never their tables', async () => {
        for (const [table, call] of [['company_setting', 'company_save'], ['order_setting', 'ordersetting_save']]) {
          await writeAudit(h.database.db, { userId: h.fixtures.users.admin.id, call, table, recordId: 1, changes: { modified: ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'] } });
        }
        const named = (await ok<MasterOption>('master_lst', { table: 'mt_log_table' })).map((o) => [o.value, o.text]);
        assert.ok(named.some(([value, text]) => value === 'company_setting' && text === '自社情報'), JSON.stringify(named));
        assert.ok(named.some(([value, text]) => value === 'order_setting' && text === '受注設定'));
        const calls = (await ok<MasterOption>('master_lst', { table: 'mt_log_call' })).map((o) => [o.value, o.text]);
        assert.ok(calls.some(([value, text]) => value === 'company_save' && text === '自社情報の保存'));
        const csv = (await downloadFile(h, 'log_csv', { enc: 'utf8', postData: JSON.stringify({ table: 'company_setting' }) })).bytes.toString('utf8');
        assert.match(csv, /自社情報の保存,自社情報/);
        assert.doesNotMatch(csv, /company_setting|company_save/);
      });

      it('filters by user, by call, and by kind of data and record', async () => {
        const { sales, admin } = h.fixtures.users;
        const id = h.fixtures.clients.percent;
        await editClient(id, { memo: '営業が更新' }, salesKey);
        await editClient(id, { memo: '管理者が更新' });
        const bySales = await logs({ user_id: sales.id });
        assert.ok(bySales.length >= 1);
        assert.ok(bySales.every((r) => r.log_user_id === sales.id));
        assert.ok(bySales.some((r) => r.log_record_id === id && r.log_call === 'client_save'));
        assert.ok((await logs({ user_id: String(admin.id) })).every((r) => r.log_user_id === admin.id));

        const saved = await h.post('search_save', { srch_name: '東京の顧客', srch_tbl: 'client', srch_kw: '東京', postData: '{}' });
        assert.equal(saved.status, 200, saved.text);
        const byCall = await logs({ call: 'search_save' });
        assert.ok(byCall.length >= 1 && byCall.every((r) => r.log_call === 'search_save' && r.log_table === 'search'));

        const byRecord = await logs({ table: 'client', record_id: id });
        const expected = await h.database.db.selectFrom('audit_log').select('log_id').where('log_table', '=', 'client').where('log_record_id', '=', id).execute();
        assert.equal(byRecord.length, expected.length);
        assert.ok(byRecord.every((r) => r.log_table === 'client' && r.log_record_id === id));
        assert.deepEqual(byRecord.slice(0, 2).map((r) => r.log_user_id), [admin.id, sales.id]);
        const [count] = await ok<number>('log_cnt', { postData: JSON.stringify({ table: 'client', record_id: String(id) }) });
        assert.equal(count, expected.length);

        for (const [bad, message] of [
          [{ record_id: 'abc' }, NAMED_MESSAGES.badFilterValue('レコードID')],
          [{ user_id: '1 OR 1=1' }, NAMED_MESSAGES.badFilterValue('ユーザー')],
          [{ log_user_id: 1 }, MESSAGES.badFilter],
        ] as const) {
          const res = await h.post('log_lst', { postData: JSON.stringify(bad) });
          assert.equal(res.status, 400, JSON.stringify(bad));
          assert.equal(problem(res.body).error, message);
        }
      });

      it('filters by a date range of Japan days', async () => {
        const { db } = h.database;
        const user = h.fixtures.users.accounting.id;
        // JST 2025-01-15 00:30 and JST 2025-01-14 23:59: the day boundary is Japan's.
        await writeAudit(db, { userId: user, call: 'client_save', table: 'client', recordId: 1, changes: { cl_memo: ['a', 'b'] }, at: '2025-01-14T15:30:00.000Z' });
        await writeAudit(db, { userId: user, call: 'client_save', table: 'client', recordId: 1, changes: { cl_memo: ['b', 'c'] }, at: '2025-01-14T14:59:00.000Z' });
        const day15 = await logs({ created: ['2025-01-15', '2025-01-15'] });
        assert.deepEqual(day15.map((r) => r.created), ['2025-01-14T15:30:00.000Z']);
        const day14 = await logs({ created: ['2025-01-14', '2025-01-14'] });
        assert.deepEqual(day14.map((r) => r.created), ['2025-01-14T14:59:00.000Z']);
        assert.equal((await logs({ created: ['2025-01-14', '2025-01-15'], user_id: user })).length, 2);
        assert.equal((await logs({ created: ['2000-01-01', '2000-12-31'] })).length, 0);
        const today = await logs({ created: [todayJst(), ''] });
        assert.ok(today.length > 0 && today.every((r) => String(r.created) > '2025-01-15'));
        const bad = await h.post('log_lst', { postData: JSON.stringify({ created: ['2025-02-01', '2025-01-01'] }) });
        assert.equal(bad.status, 400);
      });

      it('finds entries by keyword in what changed, sorts and pages', async () => {
        await editClient(h.fixtures.clients.underscore, { memo: 'ウォーターサーバー２台目を設置' });
        const found = await logs({}, { kw: 'サーバー2台目' });
        assert.equal(found.length, 1);
        assert.equal(found[0].log_record_id, h.fixtures.clients.underscore);
        assert.equal((await logs({}, { kw: 'client_save 2台目' })).length, 1);
        assert.equal((await logs({}, { kw: '存在しない語句ｘｙｚ' })).length, 0);

        const all = await logs();
        const page2 = await ok('log_lst', { n: 2, p: 2 });
        assert.deepEqual(page2.map((r) => r.log_id), all.slice(2, 4).map((r) => r.log_id));
        const [pages] = await ok<{ total: number; pages: number }>('log_pagination', { n: 2 });
        assert.equal(pages.total, all.length);
        const oldest = await logs({}, { col: 'created', odr: 'asc' });
        assert.equal(oldest[0].created, all.map((r) => String(r.created)).sort()[0]);
        const bad = await h.post('log_lst', { col: 'log_changes' });
        assert.equal(bad.status, 400);
      });

      it('sorted by ユーザー, 操作 or データ, lists the rows that share the value in time order', async () => {
        const { db } = h.database;
        const user = h.fixtures.users.admin.id;
        // Ids in one order, times in another (a row's time is its write's stamp, not its id).
        const times = ['2025-03-01T00:00:03.000Z', '2025-03-01T00:00:01.000Z', '2025-03-01T00:00:02.000Z'];
        for (const at of times) {
          await db.insertInto('audit_log').values({ log_user_id: user, log_call: 'client_save', log_table: 'client', log_record_id: 777_777, log_changes: '{}', log_search: 'client_save client', created: at, modified: at }).execute();
        }
        for (const col of ['log_user_id', 'log_call', 'log_table']) {
          const asc = await logs({ record_id: 777_777 }, { col, odr: 'asc' });
          assert.deepEqual(asc.map((r) => r.created), [...times].sort(), col);
          const desc = await logs({ record_id: 777_777 }, { col, odr: 'desc' });
          assert.deepEqual(desc.map((r) => r.created), [...times].sort().reverse(), col);
        }
      });

      it('is readable by other roles, and its entries never block deleting a user', async () => {
        assert.ok((await logs({}, {}, salesKey)).length > 0);
        const created = await h.post<Row>('user_save', { postData: JSON.stringify({ name: '臨時 四郎', email: 'rinji@example.jp', role: '営業', active: 1, password: 'rinji-pass-2026' }) });
        assert.equal(created.status, 200, created.text);
        const userId = Number(created.body[0].user_id);
        const key = await h.keyOf('rinji@example.jp', 'rinji-pass-2026');
        assert.equal((await h.post('search_save', { srch_name: '臨時', srch_tbl: 'client', postData: '{}' }, key)).status, 200);
        const del = await h.post('user_del', { id: userId });
        assert.equal(del.status, 200, del.text);
        const [entry] = await logs({ user_id: userId });
        assert.equal(entry.log_user_id_label, '臨時 四郎', 'the log still names a deleted user');
      });

      it('reads the newest page, its filters (user, call, kind of data, date) and its sorts from indexes', async () => {
        const { db } = h.database;
        const users = Object.values(h.fixtures.users).map((u) => u.id);
        const start = Date.parse('2024-01-01T00:00:00Z');
        const rows = Array.from({ length: 20_000 }, (_, i) => {
          const at = new Date(start + i * 600_000).toISOString();
          return { log_user_id: users[i % users.length], log_call: i % 100 === 0 ? 'client_del' : 'client_save', log_table: 'client', log_record_id: (i % 300) + 1, log_changes: '{}', log_search: 'client_save client {}', created: at, modified: at };
        });
        for (let i = 0; i < rows.length; i += 500) await db.insertInto('audit_log').values(rows.slice(i, i + 500)).execute();
        await db.executeQuery(CompiledQuery.raw(dialect === 'postgres' ? 'ANALYZE audit_log' : 'ANALYZE'));
        const matcher = await keywordMatcher(h.database);
        const plan = async (postData: Record<string, unknown>, sort: Record<string, string> = {}): Promise<string> => {
          const request = parseListParams(auditLogResource, { postData: JSON.stringify(postData), ...sort });
          const query = pageIds(resourceView(db), auditLogResource, request, matcher).compile();
          const explain = dialect === 'postgres' ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN ';
          const result = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
          return result.rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
        };
        const cases: [Record<string, unknown>, Record<string, string>?][] = [
          [{}], [{ user_id: users[1] }], [{ created: ['2024-02-01', '2024-02-01'] }], [{ user_id: users[2], created: ['2024-02-01', '2024-02-07'] }], [{ call: 'client_del' }],
          [{ table: 'client' }], [{}, { col: 'log_user_id', odr: 'asc' }], [{}, { col: 'log_call', odr: 'desc' }], [{}, { col: 'log_table', odr: 'desc' }],
        ];
        for (const [postData, sort] of cases) {
          const text = await plan(postData, sort);
          const about = `${JSON.stringify(postData)} ${JSON.stringify(sort ?? {})}:\n${text}`;
          // One index walked in list order: no table scan, no sort, the page stops after n rows.
          assert.match(text, /SEARCH audit_log USING (COVERING )?INDEX audit_log_|Index (Only )?Scan (Backward )?using audit_log_\w+ on audit_log\s+\(.*\n\s+Index Cond/, about);
          assert.doesNotMatch(text, /SCAN audit_log|Seq Scan|TEMP B-TREE|Sort\b|Filter:/, about);
        }
      });
    });
  });
}
