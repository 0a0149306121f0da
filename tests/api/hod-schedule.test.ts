/**
 * Regular delivery (HOD): a customer's pauses and skips (`hodpause_*`: CRUD, date rules, roles) and
 * `hod_preview` (the deliveries the schedules make due in a range, across 2026 Golden Week and a
 * pause; bad ranges; roles), on every dialect.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { HodPreview } from '../../lib/hod/kinds';
import { MESSAGES } from '../../lib/protocol';
import { assertNoInternals, dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string> };

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { monday: 0, wednesday: 0, off: 0 };
    let salesKey = '';

    const save = (postData: Record<string, unknown>, id?: number, key?: string) =>
      h.post<Row>('hodpause_save', { id, postData: JSON.stringify(postData) }, key);
    const problem = (res: { body: unknown[] }) => res.body[0] as Problem;
    const preview = (params: Record<string, string | number>, key?: string) => h.post<HodPreview>('hod_preview', params, key);
    const client = async (values: Record<string, unknown>): Promise<number> => {
      const res = await h.post<Row>('client_save', { postData: JSON.stringify({ status: '1', tel_1: '03-5555-0000', ...values }) });
      assert.equal(res.status, 200, res.text);
      return Number(res.body[0].cl_id);
    };

    before(async () => {
      const { sales } = h.fixtures.users;
      salesKey = await h.keyOf(sales.email, sales.password);
      ids.monday = await client({ co_name: '月曜配送テスト', haiso_flag: 1, haiso_type: '1', haiso_wks: 1, haiso_dow: '1', haiso_num: 2, next_shipping_date: '2026-04-27' });
      ids.wednesday = await client({ co_name: '水曜配送テスト', haiso_flag: 1, haiso_type: '1', haiso_wks: 1, haiso_dow: '3', haiso_num: 4, haiso_holiday: '2', next_shipping_date: '2026-04-29' });
      ids.off = await client({ co_name: '定期なしテスト', haiso_flag: 0, haiso_type: '1', haiso_dow: '1', haiso_num: 2, next_shipping_date: '2026-04-27' });
    });

    describe('pauses and skips (hodpause)', () => {
      it('saves, reads, lists under the customer, edits and deletes a pause period', async () => {
        const res = await save({ cl_id: ids.monday, kind: '1', from_date: '2026-06-01', to_date: '2026-06-14', reason: '旅行', note: '不在' });
        assert.equal(res.status, 200, res.text);
        const id = Number(res.body[0].hp_id);
        const row = (await h.post<Row>('hodpause_dtl', { id })).body[0];
        assert.equal(row.hp_kind, '1');
        assert.equal(row.hp_to_date, '2026-06-14');
        assert.equal(row.hp_cl_id_label, '月曜配送テスト');
        assert.deepEqual((await h.post<Row>('hodpause_lst', { cl_id: ids.monday })).body.map((r) => r.hp_id), [id]);
        assert.deepEqual((await h.post<Row>('hodpause_lst', { cl_id: ids.wednesday })).body, []);
        const edited = await save({ reason: '入院', modified: row.modified }, id);
        assert.equal(edited.status, 200, edited.text);
        assert.equal(edited.body[0].hp_reason, '入院');
        assert.equal((await save({ reason: '古い編集', modified: row.modified }, id)).status, 409, 'a stale edit is refused');
        assert.equal((await h.post('hodpause_del', { id })).status, 200);
        assert.equal((await h.post('hodpause_dtl', { id })).status, 404);
      });

      it('gives a skip its one day: 終了日 = 開始日 when left empty', async () => {
        const res = await save({ cl_id: ids.monday, kind: '2', from_date: '2026-07-06', to_date: '' });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].hp_to_date, '2026-07-06');
        assert.equal((await h.post('hodpause_del', { id: res.body[0].hp_id })).status, 200);
      });

      it('refuses bad input with the field named, and changes nothing', async () => {
        const before = (await h.post('hodpause_cnt', {})).body[0];
        const cases: [Record<string, unknown>, string, RegExp][] = [
          [{ cl_id: ids.monday, kind: '1', from_date: '2026-06-10', to_date: '2026-06-01' }, 'to_date', /終了日は開始日以降/],
          [{ cl_id: ids.monday, kind: '1', from_date: '2026-06-10', to_date: '' }, 'to_date', /休止期間は終了日を入力/],
          [{ cl_id: ids.monday, kind: '1', from_date: '2026-06-10' }, 'to_date', /休止期間は終了日を入力/],
          [{ cl_id: ids.monday, kind: '2', from_date: '2026-06-10', to_date: '2026-06-11' }, 'to_date', /スキップの終了日は開始日と同じ日/],
          [{ cl_id: ids.monday, kind: '1', from_date: '2026-02-30', to_date: '2026-03-01' }, 'from_date', /./],
          [{ cl_id: ids.monday, kind: '9', from_date: '2026-06-10', to_date: '2026-06-10' }, 'kind', /./],
          [{ cl_id: 999_999, kind: '1', from_date: '2026-06-10', to_date: '2026-06-11' }, 'cl_id', /./],
          [{ kind: '1', from_date: '2026-06-10', to_date: '2026-06-11' }, 'cl_id', /./],
        ];
        for (const [values, field, message] of cases) {
          const res = await save(values);
          assert.equal(res.status, 400, `${JSON.stringify(values)}: ${res.text}`);
          assertNoInternals(res.text);
          assert.match(problem(res).fields?.[field] ?? '', message, `${field} is named: ${res.text}`);
        }
        assert.equal((await h.post('hodpause_cnt', {})).body[0], before);
      });

      it('lets 営業 read but not write (配送 area read), and 配送 write', async () => {
        assert.equal((await h.post('hodpause_lst', { cl_id: ids.monday }, salesKey)).status, 200);
        const refused = await save({ cl_id: ids.monday, kind: '2', from_date: '2026-06-01' }, undefined, salesKey);
        assert.equal(refused.status, 403);
        assert.equal(problem(refused).error, MESSAGES.forbidden);
        const { delivery } = h.fixtures.users;
        const res = await save({ cl_id: ids.monday, kind: '2', from_date: '2026-06-01' }, undefined, await h.keyOf(delivery.email, delivery.password));
        assert.equal(res.status, 200, res.text);
        assert.equal((await h.post('hodpause_del', { id: res.body[0].hp_id })).status, 200);
      });
    });

    describe('hod_preview', () => {
      it('answers the deliveries due across Golden Week and a pause, with counts and new anchors', async () => {
        const paused = await save({ cl_id: ids.wednesday, kind: '1', from_date: '2026-05-04', to_date: '2026-05-08', reason: '帰省' });
        assert.equal(paused.status, 200, paused.text);
        const res = await preview({ from: '2026-04-27', to: '2026-05-10' });
        assert.equal(res.status, 200, res.text);
        const answer = res.body[0];
        const mine = answer.rows.filter((r) => r.cl_id === ids.monday || r.cl_id === ids.wednesday);
        assert.deepEqual(mine.map((r) => [r.cl_id, r.original_date, r.date, r.quantity, r.status]), [
          [ids.monday, '2026-04-27', '2026-04-27', 2, 'deliver'],
          // 昭和の日 (Wed 4/29), previous business day: Tue 4/28.
          [ids.wednesday, '2026-04-29', '2026-04-28', 4, 'deliver'],
          // 5/6 振替休日 falls in the pause.
          [ids.wednesday, '2026-05-06', '', 0, 'skip'],
          // みどりの日 (Mon 5/4) → past こどもの日 and the 振替休日 to Thu 5/7.
          [ids.monday, '2026-05-04', '2026-05-07', 2, 'deliver'],
        ]);
        assert.match(mine[1].note, /昭和の日のため前営業日/);
        assert.equal(mine[2].note, '休止期間（帰省）');
        assert.equal(mine[0].cl_label, '月曜配送テスト');
        assert.equal(mine.find((r) => r.cl_id === ids.monday)?.next_shipping_date, '2026-05-11');
        assert.equal(mine.find((r) => r.cl_id === ids.wednesday)?.next_shipping_date, '2026-05-13');
        assert.ok(!answer.rows.some((r) => r.cl_id === ids.off), 'a customer without regular delivery is not due');
        assert.equal(answer.customers, 2);
        assert.deepEqual([answer.deliveries, answer.skipped, answer.bottles, answer.moved, answer.total], [3, 1, 8, 2, 4]);
        assert.equal((await h.post('hodpause_del', { id: paused.body[0].hp_id })).status, 200);
        const without = (await preview({ from: '2026-04-27', to: '2026-05-10' })).body[0];
        assert.deepEqual([without.deliveries, without.skipped], [4, 0], 'the deleted pause no longer skips');
        const again = (await preview({ from: '2026-04-27', to: '2026-05-10' })).body[0];
        assert.deepEqual(again, without, 'previewing twice answers the same');
      });

      it('pages the rows (n, p) and keeps the counts of the whole range', async () => {
        const page = (await preview({ from: '2026-04-27', to: '2026-05-10', n: 1, p: 2 })).body[0];
        assert.equal(page.rows.length, 1);
        assert.equal(page.total, 4);
        assert.equal(page.rows[0].original_date, '2026-04-29');
      });

      it('refuses a bad range with the field named', async () => {
        const cases: [Record<string, string>, string, string][] = [
          [{ to: '2026-05-10' }, 'from', MESSAGES.hodBadFrom],
          [{ from: '2026-13-01', to: '2026-05-10' }, 'from', MESSAGES.hodBadFrom],
          [{ from: '2026-05-01', to: 'x' }, 'to', MESSAGES.hodBadTo],
          [{ from: '2026-05-10', to: '2026-05-01' }, 'to', MESSAGES.hodToBeforeFrom],
          [{ from: '2026-01-01', to: '2026-12-31' }, 'to', MESSAGES.hodRangeTooLong],
        ];
        for (const [params, field, message] of cases) {
          const res = await preview(params);
          assert.equal(res.status, 400, res.text);
          assertNoInternals(res.text);
          assert.equal((res.body[0] as unknown as Problem).fields?.[field], message);
        }
        assert.equal((await preview({ from: '2026-05-01', to: '2026-05-10', n: 0 })).status, 400);
      });

      it('is refused to a role without the 受注 area, and to a missing auth key', async () => {
        const role = await h.post<Row>('role_save', { postData: JSON.stringify({ name: '配送補助', areas: JSON.stringify({ client: 'read', hod: 'read', order: 'none' }) }) });
        assert.equal(role.status, 200, role.text);
        const user = await h.post<Row>('user_save', { postData: JSON.stringify({ name: '補助 四郎', kana: 'ホジョ', email: 'hojo@example.jp', role: '配送補助', active: '1', password: 'hojo-pass-2026' }) });
        assert.equal(user.status, 200, user.text);
        const key = await h.keyOf('hojo@example.jp', 'hojo-pass-2026');
        const refused = await preview({ from: '2026-04-27', to: '2026-05-10' }, key);
        assert.equal(refused.status, 403);
        assert.equal((refused.body[0] as unknown as Problem).error, MESSAGES.forbidden);
        assert.equal((await h.post('hodpause_lst', { cl_id: ids.monday }, key)).status, 200, 'the hod area still reads pauses');
        assert.equal((await h.post('hod_preview', { from: '2026-04-27', to: '2026-05-10' }, null)).status, 401);
        assert.equal((await preview({ from: '2026-04-27', to: '2026-05-10' }, salesKey)).status, 200, '営業 reads 受注');
      });
    });
  });
}
