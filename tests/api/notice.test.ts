/**
 * お知らせ (lib/resources/notice.ts), the resource added as the recipe's proof: the generic calls save and list it
 * (system area: 管理 writes, the other roles read), and `notice_home` answers each caller the notices of their role (or of
 * every role) whose days include today.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDays, todayJst } from '../../lib/format';
import type { HomeNotice } from '../../lib/protocol';
import { dialects, useHarness, type Harness } from './harness';

type Row = Record<string, string | number | null>;

const save = (h: Harness, postData: Record<string, unknown>, key?: string) =>
  h.post<Row & { error?: string; fields?: Record<string, string> }>('notice_save', { postData: JSON.stringify(postData) }, key);

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    it('saves and lists notices, refuses an end before the start and a save by a role that only reads the settings', async () => {
      const today = todayJst();
      const saved = await save(h, { title: '年末年始の配送', body: '12/30〜1/3 は休配です。', from: today, to: addDays(today, 7), role: '' });
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.body[0].nt_title, '年末年始の配送');

      const backwards = await save(h, { title: '逆順', from: today, to: addDays(today, -1), role: '' });
      assert.equal(backwards.status, 400, backwards.text);
      assert.equal(backwards.body[0].fields?.to, '表示終了日は表示開始日以降の日付を入力してください。');

      const sales = await h.keyOf(h.fixtures.users.sales.email, h.fixtures.users.sales.password);
      assert.equal((await save(h, { title: '営業から', from: today, role: '' }, sales)).status, 403);

      const list = await h.post<Row>('notice_lst', { n: 10, p: 1, kw: '年末年始' }, sales);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.map((r) => r.nt_title), ['年末年始の配送']);
    });

    it('shows each role on the home page the notices of its role or of every role, within their days', async () => {
      const today = todayJst();
      await save(h, { title: '全員へ', from: today, role: '' });
      await save(h, { title: '配送へ', from: addDays(today, -3), to: today, role: '配送' });
      await save(h, { title: '経理へ', from: today, role: '経理' });
      await save(h, { title: '配送へ（終了）', from: addDays(today, -9), to: addDays(today, -1), role: '配送' });
      await save(h, { title: '配送へ（明日から）', from: addDays(today, 1), role: '配送' });

      const home = async (account: { email: string; password: string }) => {
        const answer = await h.post<HomeNotice>('notice_home', {}, await h.keyOf(account.email, account.password));
        assert.equal(answer.status, 200, answer.text);
        return answer.body.map((n) => n.title).filter((t) => t !== '年末年始の配送');
      };
      assert.deepEqual(await home(h.fixtures.users.delivery), ['全員へ', '配送へ']);
      assert.deepEqual(await home(h.fixtures.users.accounting), ['経理へ', '全員へ']);
      assert.deepEqual(await home(h.fixtures.users.sales), ['全員へ']);
    });
  });
}
