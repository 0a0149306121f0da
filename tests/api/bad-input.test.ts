/**
 * Bad input of every kind gets a clear `[{error}]` answer with the right status, changes nothing,
 * and never shows internals (the harness checks every answer for stack lines and "Error:").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    const expectError = async (call: string, params: Record<string, unknown>, status: number, message: string) => {
      const res = await h.post(call, params as Record<string, string>);
      assert.deepEqual([res.status, res.body], [status, [{ error: message }]], `${call} ${JSON.stringify(params).slice(0, 100)}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    };

    it('unknown calls: 404 with the Japanese message, before and after auth', async () => {
      await expectError('no_such_call', {}, 404, MESSAGES.unknownCall);
      await expectError('client_frobnicate', {}, 404, MESSAGES.unknownCall);
      const noKey = await h.post('no_such_call', {}, null);
      assert.deepEqual([noKey.status, noKey.body], [404, [{ error: MESSAGES.unknownCall }]]);
      for (const path of ['/api/db/', '/api/db/a/b', '/api/db/client_lst']) {
        const res = await h.request(path);
        assert.deepEqual([res.status, res.body], [404, [{ error: MESSAGES.unknownCall }]], path);
      }
    });

    it('wrong parameter types: repeated keys and nested JSON values', async () => {
      const repeated = await h.request('/api/db/client_lst', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `authKey=${h.adminKey}&n=1&n=2`,
      });
      assert.deepEqual([repeated.status, repeated.body], [400, [{ error: MESSAGES.badRequest }]]);
      const nested = await h.request('/api/db/client_lst', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ authKey: h.adminKey, postData: { created: ['', ''] } }),
      });
      assert.equal(nested.status, 400);
      const brokenJsonBody = await h.request('/api/db/client_lst', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"authKey":' });
      assert.deepEqual([brokenJsonBody.status, brokenJsonBody.body], [400, [{ error: MESSAGES.badRequest }]]);
      const plain = await h.request('/api/db/client_lst', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
      assert.deepEqual([plain.status, plain.body], [400, [{ error: MESSAGES.badRequest }]]);
      const xml = await h.request('/api/db/client_lst', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
      assert.deepEqual([xml.status, xml.body], [415, [{ error: MESSAGES.badRequest }]]);
    });

    it('list parameters: sort column, order, page size, page, keyword length', async () => {
      await expectError('client_lst', { col: 'cl_pw' }, 400, MESSAGES.badSortColumn);
      await expectError('client_lst', { col: 'cl_id; DROP TABLE client' }, 400, MESSAGES.badSortColumn);
      await expectError('client_lst', { odr: 'sideways' }, 400, MESSAGES.badSortOrder);
      for (const n of ['0', '100000', 'abc', '-1', '1.5', String(LIMITS.maxPageSize + 1)]) await expectError('client_lst', { n }, 400, MESSAGES.badPageSize);
      await expectError('client_pagination', { n: '0' }, 400, MESSAGES.badPageSize);
      for (const p of ['0', 'x', '-2']) await expectError('client_lst', { p }, 400, MESSAGES.badPage);
      await expectError('client_lst', { kw: 'あ'.repeat(LIMITS.maxKeyword + 1) }, 400, MESSAGES.badKeyword);
      assert.equal((await h.post('client_lst', { n: LIMITS.maxPageSize, kw: 'あ'.repeat(LIMITS.maxKeyword) })).status, 200);
    });

    it('broken postData JSON', async () => {
      for (const postData of ['{broken', '[1,2]', '"text"', 'null', '1']) {
        await expectError('client_lst', { postData }, 400, MESSAGES.badJson);
        await expectError('client_save', { postData }, 400, MESSAGES.badJson);
      }
    });

    it('a _save without postData (missing, empty, blank or {}) is refused with a message, never stored as a record of defaults', async () => {
      const rounds = async () => Number((await h.database.db.selectFrom('hod_report').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await rounds();
      // 配送実績 declares no field a new record must be given: a save of nothing used to store a round of defaults.
      for (const params of [{}, { postData: '' }, { postData: '   ' }, { postData: '{}' }]) await expectError('hodreport_save', params, 400, MESSAGES.emptySave);
      assert.equal(await rounds(), before);
      await expectError('company_save', { id: 1 }, 400, MESSAGES.emptySave);
      await expectError('client_save', { id: 1, postData: '{}' }, 400, MESSAGES.emptySave);
      // An empty new customer is answered by the form's rules, naming what must be filled in (crm-items.test.ts).
      const empty = await h.post<{ fields?: Record<string, string> }>('client_save', { postData: '{}' });
      assert.equal(empty.status, 400, empty.text);
      assert.ok(Object.keys(empty.body[0].fields ?? {}).length > 0, empty.text);
    });

    it('ids must be positive integers', async () => {
      for (const id of ['abc', '-1', '0', '1.5', '1e3', '99999999999', '']) {
        await expectError('client_dtl', { id }, 400, MESSAGES.badId);
        await expectError('client_del', { id }, 400, MESSAGES.badId);
      }
      await expectError('client_save', { id: 'x', postData: '{}' }, 400, MESSAGES.badId);
    });

    it('a 1 MB string in a field gets the field’s message; nothing is written', async () => {
      const before = (await h.post('client_cnt', {})).body[0];
      const res = await h.post('client_save', { postData: JSON.stringify({ co_name: 'a'.repeat(1_000_000), tel_1: '03-1111-2222', status: '1' }) });
      assert.equal(res.status, 400);
      assert.equal(res.body[0].error, '会社名は100文字以内で入力してください。');
      const wide = await h.post('client_save', { postData: JSON.stringify({ name: 'あ'.repeat(300_000), tel_1: '03-1111-2222', status: '1' }) });
      assert.equal(wide.status, 400);
      assert.deepEqual(wide.body[0].fields, { name: '氏名は100文字以内で入力してください。' });
      const memo = await h.post('client_save', { postData: JSON.stringify({ co_name: '長文', memo: 'x'.repeat(1_000_000), tel_1: '03-1111-2222', status: '1' }) });
      assert.equal(memo.status, 400);
      assert.match(String(memo.body[0].error), /メモは4000文字以内/);
      assert.equal((await h.post('client_cnt', {})).body[0], before);
    });

    it('a body over the limit is 413', async () => {
      const res = await h.request('/api/db/client_save', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `authKey=${h.adminKey}&postData=${'a'.repeat(LIMITS.maxBodyBytes + 10)}`,
      });
      assert.deepEqual([res.status, res.body], [413, [{ error: MESSAGES.tooLarge }]]);
    });

    it('SQL and HTML in text are stored and answered verbatim; the table stays intact', async () => {
      const sqlText = "'); DROP TABLE client;--";
      const html = '<script>alert(1)</script>';
      const res = await h.post<Row>('client_save', { postData: JSON.stringify({ co_name: sqlText, name: html, biko_1: "O'Reilly \"quoted\" \\ back", tel_1: '03-1111-2222', status: '1' }) });
      assert.equal(res.status, 200, res.text);
      const id = Number(res.body[0].cl_id);
      const row = (await h.post<Row>('client_dtl', { id })).body[0];
      assert.equal(row.cl_co_name, sqlText);
      assert.equal(row.cl_name, html);
      assert.equal(row.cl_biko_1, "O'Reilly \"quoted\" \\ back");
      const raw = await h.post('client_dtl', { id });
      assert.ok(raw.text.includes(html), 'JSON carries the text as is; the client escapes it');
      assert.match(raw.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual((await h.post<Row>('client_lst', { kw: 'drop table' })).body.map((r) => r.cl_id), [id]);
      assert.deepEqual((await h.post<Row>('client_lst', { kw: '<script>' })).body.map((r) => r.cl_id), [id]);
      const count = await h.post('client_cnt', {});
      assert.equal(count.status, 200);
      assert.ok(Number(count.body[0]) >= 7);
    });

    it('master_lst checks its table name', async () => {
      await expectError('master_lst', { table: 'client' }, 400, MESSAGES.badRequest);
      await expectError('master_lst', { table: "mt_x'; --" }, 400, MESSAGES.badRequest);
      await expectError('master_lst', {}, 400, MESSAGES.badRequest);
    });
  });
}
