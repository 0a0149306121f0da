/**
 * The places where bad input used to reach a 500 or an English answer (issue 9): control characters
 * and lone surrogates, integers a column cannot hold, huge `in` filters, malformed URLs, a date range
 * the spec's defaults make empty, and a new record saved without a field that declares `initial`.
 * Each answer is `[{ error }]` in Japanese (the harness checks every answer for internals) and
 * changes nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dialects, useHarness, type Answer } from './harness';

type Row = Record<string, string | number | null>;

const JAPANESE = /[\u3040-\u30FF\u4E00-\u9FFF]/;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    /** A refusal: the status, a Japanese message, and (optionally) the text it must contain. */
    const refused = (res: Answer<unknown[]>, status: number, contains?: string | RegExp): string => {
      assert.equal(res.status, status, res.text.slice(0, 300));
      assert.ok(Array.isArray(res.body) && res.body.length === 1, res.text.slice(0, 300));
      const error = String((res.body[0] as { error?: unknown }).error ?? '');
      assert.match(error, JAPANESE, res.text.slice(0, 300));
      if (contains) assert.match(error, typeof contains === 'string' ? new RegExp(contains) : contains);
      return error;
    };

    const count = async (table: string): Promise<number> => {
      const row = await h.database.db.selectFrom(table as 'client').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    };

    it('a NUL or another control character in any parameter is refused, naming it', async () => {
      refused(await h.post('client_lst', { kw: 'ABC\u0000商事' }), 400, '検索キーワード');
      refused(await h.post('client_lst', { kw: 'ab\u0007' }), 400, '使用できない文字');
      refused(await h.post('client_lst', { postData: { status: ['1\u0000'] } }), 400, '使用できない文字');
      refused(await h.post('hod_list', { from: '2026-01-01', to: '2026-01-31', team: 'A\u0000' }), 400, '使用できない文字');
      const searches = await count('search');
      refused(await h.post('search_save', { srch_name: 'x\u0000y', srch_tbl: 'client' }), 400, '使用できない文字');
      assert.equal(await count('search'), searches);
      const clients = await count('client');
      const save = await h.post('client_save', { postData: { co_name: '株式会社\u0000NUL', status: '1', tel_1: '03-1234-5678' } });
      refused(save, 400, '会社名');
      assert.deepEqual(Object.keys((save.body[0] as { fields?: object }).fields ?? {}), ['co_name']);
      assert.equal(await count('client'), clients);
    });

    it('tab and newline are kept in text', async () => {
      const saved = await h.post<Row>('client_save', { postData: { co_name: 'タブ\t改行株式会社', memo: '一行目\n二行目\r\n三行目', status: '1', tel_1: '03-1234-5678' } });
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.body[0].cl_memo, '一行目\n二行目\r\n三行目');
    });

    it('a lone surrogate (escaped in JSON or percent-encoded) is refused, not stored as U+FFFD', async () => {
      const clients = await count('client');
      refused(await h.post('client_save', { postData: '{"co_name":"\\ud800株式会社","status":"1","tel_1":"03-1234-5678"}' }), 400, '会社名');
      const raw = await h.request(`${h.config.dbApiPrefix}/client_save`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `authKey=${h.adminKey}&postData=${encodeURIComponent('{"co_name":"')}%ED%A0%80${encodeURIComponent('","status":"1","tel_1":"03-1234-5678"}')}`,
      });
      refused(raw as Answer<unknown[]>, 400, '文字');
      assert.equal(await count('client'), clients);
    });

    it('integers a column cannot hold are refused with a field message', async () => {
      refused(await h.post('order_lst', { postData: { uriage_total: [0.5, 1.5] } }), 400, '合計金額');
      refused(await h.post('order_lst', { postData: { uriage_total: [2147483648, ''] } }), 400, '合計金額');
      refused(await h.post('order_cnt', { postData: { uriage_total: ['', 1e300] } }), 400, '合計金額');
      refused(await h.post('log_lst', { postData: { record_id: 999999999999999 } }), 400, 'レコードID');
      refused(await h.post('stock_adjust', { sk_id: 1, postData: { it_id: 2147483648, kind: 'in', quantity: 1, reason: '仕入' } }), 400);
      refused(await h.post('order_save', { postData: { cl_id: 2147483648, date: '2026-05-01' } }), 400);
      const parent = await h.post('client_save', { postData: { co_name: '親ID', status: '1', tel_1: '03-1234-5678', parent_id: 1e20 } });
      refused(parent, 400, '請求親顧客');
      assert.ok('parent_id' in ((parent.body[0] as { fields?: object }).fields ?? {}));
      refused(await h.post('client_save', { postData: { co_name: '配送ID', status: '1', tel_1: '03-1234-5678', delivery_usr_id: '2147483648' } }), 400, '配送担当者');
      refused(await h.post('client_save', { postData: { co_name: '与信', status: '1', tel_1: '03-1234-5678', yoshin_gendo: '-99999999999' } }), 400);
      const stored = await h.database.db.selectFrom('client').select('cl_id').where('cl_co_name', 'in', ['親ID', '配送ID', '与信']).execute();
      assert.deepEqual(stored, []);
    });

    it('a list-valued filter takes at most 1,000 values', async () => {
      const many = Array.from({ length: 40_000 }, (_, i) => i + 1);
      refused(await h.post('bottle_lst', { postData: { it_id: many } }), 400, '1,000');
      const ok = await h.post('bottle_lst', { postData: { it_id: many.slice(0, 1000) } });
      assert.equal(ok.status, 200, ok.text);
    });

    it('malformed URLs and long call names get the protocol answer in Japanese', async () => {
      for (const path of ['/api/db/%u0000', '/api/db/%E0%A4%A', `/api/db/${'x'.repeat(150)}`, `/api/db/${'client_lst'.repeat(30)}`]) {
        const res = await h.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `authKey=${h.adminKey}` });
        assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status}`);
        refused(res as Answer<unknown[]>, res.status);
        assert.doesNotMatch(res.text, /FST_|Bad Request|URI Too Long/);
      }
    });

    it('a date range whose default end comes before its start finds nothing instead of being refused', async () => {
      for (const call of ['client_lst', 'client_cnt', 'client_pagination']) {
        const res = await h.post<Row>(call, { postData: { created: ['2999-01-01', ''] } });
        assert.equal(res.status, 200, `${call}: ${res.text}`);
        if (call === 'client_lst') assert.deepEqual(res.body, []);
        if (call === 'client_cnt') assert.deepEqual(res.body, [0]);
      }
      refused(await h.post('client_lst', { postData: { created: ['2026-05-01', '2026-04-01'] } }), 400, '「登録日」の範囲が正しくありません');
    });

    it('a new record saved without a field that declares `initial` takes that value', async () => {
      const saved = await h.post<Row>('client_save', { postData: { co_name: '初期値テスト株式会社', tel_1: '03-1234-5678' } });
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.body[0].cl_status, '1');
      const contact = await h.post<Row>('contact_save', { postData: { cl_id: saved.body[0].cl_id, subject: '問い合わせ' } });
      assert.equal(contact.status, 200, contact.text);
      assert.equal(contact.body[0].ct_usr_id, h.fixtures.users.admin.id);
      assert.match(String(contact.body[0].ct_uketsuke_date), /^\d{4}-\d{2}-\d{2}$/);
    });
  });
}
