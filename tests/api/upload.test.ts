/**
 * Calls that take a file (`upload` in the call table, server/calls/upload.ts), through the real app on both
 * dialects. No production call takes a file yet (the first, `import_preview`, comes with the imports of
 * issue 14), so the suite sets one into the running app's call table (outside the call map),
 * and it answers through the one route every call goes through. Its handler is what an import does: it
 * writes inside a transaction while it reads the file's stream, then answers what it read.
 * - A file within the limit (and one exactly at it) reaches the handler byte for byte, with its Japanese
 *   name, type and size; the text fields are the call's parameters under the usual text rules; the
 *   upload's audit row names who sent which file.
 * - Past the limit: 413 naming it, and nothing written (the handler's transaction and the audit row alike),
 *   whether found while reading or from the announced length before reading.
 * - No key, a role without the area: 401 / 403 before the file is read (answered while the client still
 *   holds the rest of the body back); no file, a file of another kind, two files, a form-encoded body: 400.
 * - A multipart body to a call that takes none: 415, unread.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { before, describe, it } from 'node:test';
import { can, ROLE_TABLE } from '../../lib/permissions';
import { AUTH_KEY_ERROR, MESSAGES, NAMED_MESSAGES } from '../../lib/protocol';
import { writeAudit } from '../../server/audit/audit-log';
import type { UploadCallDef } from '../../server/calls/call-table';
import { dialects, useHarness, type Answer } from './harness';

const CALL = 'test_upload';
const LIMIT = 1024 * 1024;
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

interface Received {
  name: string;
  type: string;
  size: number;
  sha256: string;
  kind: string;
}

for (const dialect of dialects()) {
  describe(`uploads (${dialect})`, () => {
    const h = useHarness(dialect);
    let handled = 0;

    before(() => {
      // A call of no area plugin, outside the call map: set into the table as addCall would.
      h.app.callTable.set(CALL, {
        area: 'client',
        level: 'write',
        upload: { field: 'file', maxBytes: LIMIT, accept: { extensions: ['.csv', '.txt'], types: ['text/csv'] }, auditTable: 'client' },
        async handler({ call, params, user, upload }) {
          handled += 1;
          return h.database.db.transaction().execute(async (trx) => {
            await writeAudit(trx, { userId: user.user_id, call, table: 'client', recordId: null, changes: { 読込: [null, '開始'] } });
            const hash = createHash('sha256');
            for await (const chunk of upload.stream) hash.update(chunk as Buffer);
            const digest = hash.digest('hex');
            await writeAudit(trx, { userId: user.user_id, call, table: 'client', recordId: null, changes: { 読込: [null, digest] } });
            return [{ name: upload.name, type: upload.type, size: upload.size, sha256: digest, kind: params.kind ?? '' }];
          });
        },
      } satisfies UploadCallDef);
    });

    /** Sends a multipart body (fields in order, then files) with the admin's key unless `key` says otherwise. */
    async function send(call: string, fields: Record<string, string>, files: { field?: string; bytes: Uint8Array; name: string; type?: string }[], key: string | null = h.adminKey): Promise<Answer<unknown[]>> {
      const form = new FormData();
      if (key !== null) form.append('authKey', key);
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const file of files) form.append(file.field ?? 'file', new Blob([file.bytes as BlobPart], { type: file.type ?? 'text/csv' }), file.name);
      return (await h.request(`${h.config.dbApiPrefix}/${call}`, { method: 'POST', body: form })) as Answer<unknown[]>;
    }

    const auditCount = async (): Promise<number> =>
      Number((await h.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    it('hands the file to the handler byte for byte, with its name, type, size and the parameters; audits the upload', async () => {
      const bytes = randomBytes(300_000);
      // Bytes a text path would change: CR LF, NUL, cp932 lead bytes, an invalid UTF-8 sequence.
      bytes.set([0x0d, 0x0a, 0x00, 0x82, 0xa0, 0xff, 0xfe, 0xed, 0xa0, 0x80], 0);
      const before = handled;
      const res = await send(CALL, { kind: '顧客' }, [{ bytes, name: '顧客一覧 2026年4月.csv' }]);
      assert.equal(res.status, 200, res.text);
      assert.equal(handled, before + 1);
      assert.deepEqual(res.body[0], { name: '顧客一覧 2026年4月.csv', type: 'text/csv', size: bytes.byteLength, sha256: sha256(bytes), kind: '顧客' });
      const audit = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', CALL).orderBy('log_id', 'desc').executeTakeFirstOrThrow();
      assert.equal(audit.log_user_id, h.fixtures.users.admin.id);
      assert.equal(audit.log_table, 'client');
      assert.deepEqual(JSON.parse(audit.log_changes), { ファイル名: [null, '顧客一覧 2026年4月.csv'], サイズ: [null, bytes.byteLength], 種類: [null, 'text/csv'] });
    });

    it('takes a file of exactly the limit, and one chosen by its type alone', async () => {
      const bytes = randomBytes(LIMIT);
      const res = await send(CALL, {}, [{ bytes, name: 'limit.CSV', type: 'application/octet-stream' }]);
      assert.equal(res.status, 200, res.text);
      assert.equal((res.body[0] as Received).sha256, sha256(bytes));
      const byType = await send(CALL, {}, [{ bytes: new TextEncoder().encode('a,b\r\n'), name: 'export', type: 'text/csv' }]);
      assert.equal(byType.status, 200, byType.text);
    });

    it('refuses a file past the limit with 413 naming it, and writes nothing', async () => {
      const count = await auditCount();
      const handledBefore = handled;
      const res = await send(CALL, {}, [{ bytes: randomBytes(LIMIT + 1), name: 'big.csv' }]);
      assert.equal(res.status, 413, res.text);
      assert.deepEqual(res.body, [{ error: 'ファイルが大きすぎます（上限 1 MB）。' }]);
      assert.equal(handled, handledBefore + 1, 'found while the handler read it');
      // A body announcing far more than the limit is refused before the handler, unread.
      const huge = await send(CALL, {}, [{ bytes: randomBytes(3 * LIMIT), name: 'huge.csv' }]);
      assert.equal(huge.status, 413, huge.text);
      assert.deepEqual(huge.body, [{ error: MESSAGES.uploadTooLarge(LIMIT) }]);
      assert.equal(handled, handledBefore + 1);
      assert.equal(await auditCount(), count, 'the handler\'s transaction rolled back and no upload was audited');
    });

    it('refuses a caller without a key or without the area before reading the file', async () => {
      const count = await auditCount();
      const handledBefore = handled;
      const file = [{ bytes: randomBytes(1000), name: 'a.csv' }];
      for (const key of [null, 'made-up-key']) {
        const res = await send(CALL, {}, file, key);
        assert.equal(res.status, 401, res.text);
        assert.deepEqual(res.body, [{ error: AUTH_KEY_ERROR }]);
      }
      const reader = Object.values(h.fixtures.users).find((u) => !can(ROLE_TABLE[u.role], 'client', 'write'));
      assert.ok(reader, 'a fixture role without 顧客 write');
      const refused = await send(CALL, {}, file, await h.keyOf(reader.email, reader.password));
      assert.equal(refused.status, 403, refused.text);
      assert.deepEqual(refused.body, [{ error: MESSAGES.forbidden }]);
      assert.equal(handled, handledBefore);
      assert.equal(await auditCount(), count);
    });

    it('answers 401 while the client still holds back the rest of the file', async () => {
      const boundary = 'hodUploadBoundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="authKey"\r\n\r\nnot-a-key\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n`;
      const { port } = new URL(h.url);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1', port, method: 'POST', path: `${h.config.dbApiPrefix}/${CALL}`,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 500_000) },
        }, (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          req.destroy();
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        // The fields and the first bytes of the file; the rest never comes.
        req.write(head);
        req.write(Buffer.alloc(1000, 0x61));
      });
      assert.equal(status, 401);
    });

    it('checks the parameters as any call does, and refuses no file, another kind of file, two files and a form body', async () => {
      const count = await auditCount();
      const control = await send(CALL, { kind: 'a\u0001b' }, [{ bytes: randomBytes(10), name: 'a.csv' }]);
      assert.equal(control.status, 400);
      assert.equal((control.body[0] as { error: string }).error, NAMED_MESSAGES.badCharacters('「kind」'));
      const none = await send(CALL, { kind: 'client' }, []);
      assert.deepEqual([none.status, none.body], [400, [{ error: MESSAGES.uploadMissing }]]);
      const elsewhere = await send(CALL, {}, [{ field: 'other', bytes: randomBytes(10), name: 'a.csv' }]);
      assert.deepEqual([elsewhere.status, elsewhere.body], [400, [{ error: MESSAGES.uploadMissing }]]);
      const exe = await send(CALL, {}, [{ bytes: randomBytes(10), name: 'setup.exe', type: 'application/x-msdownload' }]);
      assert.deepEqual([exe.status, exe.body], [400, [{ error: 'ファイルの種類が正しくありません（.csv・.txt のファイルを選択してください）。' }]]);
      const two = await send(CALL, {}, [{ bytes: randomBytes(10), name: 'a.csv' }, { bytes: randomBytes(10), name: 'b.csv' }]);
      assert.deepEqual([two.status, two.body], [400, [{ error: MESSAGES.uploadOneFile }]]);
      const late = new FormData();
      late.append('authKey', h.adminKey);
      late.append('file', new Blob(['a,b\r\n'], { type: 'text/csv' }), 'a.csv');
      late.append('kind', 'client');
      const after = (await h.request(`${h.config.dbApiPrefix}/${CALL}`, { method: 'POST', body: late })) as Answer<unknown[]>;
      assert.deepEqual([after.status, after.body], [400, [{ error: MESSAGES.uploadFieldsFirst }]]);
      const broken = await h.request(`${h.config.dbApiPrefix}/${CALL}`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        body: `--xyz\r\nContent-Disposition: form-data; name="authKey"\r\n\r\n${h.adminKey}\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nbroken off`,
      });
      assert.deepEqual([broken.status, broken.body], [400, [{ error: MESSAGES.uploadBadForm }]]);
      const noBoundary = await h.request(`${h.config.dbApiPrefix}/${CALL}`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'authKey=x' });
      assert.deepEqual([noBoundary.status, noBoundary.body], [400, [{ error: MESSAGES.uploadBadForm }]]);
      const form = await h.post(CALL, { kind: 'client' });
      assert.deepEqual([form.status, form.body], [400, [{ error: MESSAGES.uploadMissing }]]);
      assert.equal(await auditCount(), count);
    });

    it('refuses a multipart body to a call that takes no file (415), and still answers the next call', async () => {
      const res = await send('client_lst', { n: '5' }, [{ bytes: randomBytes(200_000), name: 'a.csv' }]);
      assert.equal(res.status, 415, res.text);
      assert.deepEqual(res.body, [{ error: MESSAGES.uploadNotAccepted }]);
      const unknown = await send('no_such_call', {}, [{ bytes: randomBytes(10), name: 'a.csv' }]);
      assert.equal(unknown.status, 404);
      const list = await h.post('client_lst', { n: 5 });
      assert.equal(list.status, 200, list.text);
    });
  });
}
