/**
 * The file store (server/files) on both dialects, against the real database of a running app:
 * - a round trip: bytes in, the same bytes out, with their SHA-256 and size, in chunks of `CHUNK_BYTES`;
 * - a large file (24 MB) written as a stream with backpressure — never more than a few chunks ahead of the database —
 *   and read back chunk by chunk;
 * - a failed write keeps nothing; an incomplete file is never read until completed; a job's files removed with it;
 * - expiry: an expired file is not read, `removeExpiredFiles` and the next write of any file remove it (chunks too), and
 *   an import whose upload expired is refused as expired;
 * - files an older server left under DATA_DIR (`imports/`, `billing-pdf/`) moved into the store (`moveDiskFiles`),
 *   their runs committed and their errors answered from it, the folders gone — and the same through the real server's
 *   start (server/main.ts), a server process started on the data of a stopped one.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { ImportPreview } from '../../lib/imports/kinds';
import type { ImportCommitResult } from '../../lib/imports/runs';
import { openDatabase } from '../../server/db/connect';
import type { Database } from '../../server/db/schema';
import { moveDiskFiles } from '../../server/disk-files';
import {
  CHUNK_BYTES, FileGone, FileWriter, completeFiles, fileBytes, fileChunks, jobFile, removeExpiredFiles, removeFiles, removeJobFiles, storeStream, storedFile,
} from '../../server/files';
import { nowMs, pinClock } from '../../server/http/clock';
import { type Answer, dialects, downloadFile, jobEnded, useHarness } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

const DAY = 24 * 60 * 60 * 1000;
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** `n` bytes given `piece` bytes at a time (as a request body arrives). */
function* pieces(bytes: Buffer, piece = 64 * 1024): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
}

const chunkRows = async (db: Kysely<Database>, id: number): Promise<number[]> =>
  (await db.selectFrom('file_chunk').select('fc_data').where('fc_sf_id', '=', id).orderBy('fc_seq').execute()).map((r) => r.fc_data.length);

/** A multipart `import_preview` of a customer CSV (UTF-8). */
async function preview(base: { url: string; prefix: string; key: string }, csv: string, name = '顧客.csv'): Promise<Answer<ImportPreview[]>> {
  const form = new FormData();
  form.append('authKey', base.key);
  form.append('kind', 'client');
  form.append('file', new Blob([Buffer.from(csv, 'utf8')], { type: 'text/csv' }), name);
  const res = await fetch(`${base.url}${base.prefix}/import_preview`, { method: 'POST', body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as ImportPreview[] };
}

for (const dialect of dialects()) {
  describe(`file store (${dialect})`, () => {
    const h = useHarness(dialect);
    after(() => pinClock(undefined));
    const db = (): Kysely<Database> => h.database.db;
    const base = (): { url: string; prefix: string; key: string } => ({ url: h.url, prefix: h.config.dbApiPrefix, key: h.adminKey });

    it('stores bytes and reads them back with their SHA-256 and size, in chunks of CHUNK_BYTES', async () => {
      const bytes = randomBytes(2 * CHUNK_BYTES + 12_345);
      const file = await storeStream(db(), Readable.from(pieces(bytes)), { kind: 'test', name: 'データ.bin', userId: h.fixtures.users.admin.id, keepMs: DAY });
      assert.equal(file.size, bytes.length);
      assert.equal(file.sha256, sha256(bytes));
      const row = await storedFile(db(), file.id);
      assert.ok(row, 'complete and readable');
      assert.deepEqual([row.sf_kind, row.sf_name, Number(row.sf_size), row.sf_sha256, row.sf_usr_id, row.sf_job_id], ['test', 'データ.bin', bytes.length, sha256(bytes), h.fixtures.users.admin.id, null]);
      assert.equal(Date.parse(row.expires) - Date.parse(row.created), DAY);
      assert.deepEqual(await chunkRows(db(), file.id), [CHUNK_BYTES, CHUNK_BYTES, 12_345]);
      const read: number[] = [];
      const back: Buffer[] = [];
      for await (const chunk of fileChunks(db(), file.id)) {
        read.push(chunk.length);
        back.push(chunk);
      }
      assert.deepEqual(read, [CHUNK_BYTES, CHUNK_BYTES, 12_345], 'read one chunk at a time');
      assert.ok(Buffer.concat(back).equals(bytes));
      // An empty file is a file too.
      const empty = await storeStream(db(), Readable.from([]), { kind: 'test', name: 'empty', keepMs: DAY });
      assert.deepEqual([empty.size, empty.sha256], [0, sha256(Buffer.alloc(0))]);
      assert.equal((await fileBytes(db(), empty.id)).length, 0);
      await removeFiles(db(), [file.id, empty.id]);
      assert.equal(await storedFile(db(), file.id), undefined);
      assert.deepEqual(await chunkRows(db(), file.id), [], 'its chunks went with it');
    });

    it('writes a 24 MB file as a stream, never more than a few chunks ahead of the database, and reads it back chunk by chunk', async () => {
      const size = 24 * 1024 * 1024;
      const hash = createHash('sha256');
      const writer = new FileWriter(db(), { kind: 'test', name: 'large.bin', keepMs: DAY });
      let produced = 0;
      let furthestAhead = 0;
      async function* source(): AsyncGenerator<Buffer> {
        for (let seq = 0; produced < size; seq += 1) {
          const piece = Buffer.alloc(Math.min(64 * 1024, size - produced), seq % 251);
          hash.update(piece);
          produced += piece.length;
          if (writer.id !== undefined) {
            const rows = (await db().selectFrom('file_chunk').select((eb) => eb.fn.countAll<number>().as('n')).where('fc_sf_id', '=', writer.id).executeTakeFirstOrThrow()).n;
            furthestAhead = Math.max(furthestAhead, produced - Number(rows) * CHUNK_BYTES);
          }
          yield piece;
        }
      }
      const file = await writer.pipeFrom(Readable.from(source(), { objectMode: false }));
      assert.equal(file.size, size);
      assert.equal(file.sha256, hash.digest('hex'));
      assert.ok(furthestAhead <= 3 * CHUNK_BYTES, `the source is held back by the inserts (at most ${furthestAhead} bytes ahead)`);
      const rows = await chunkRows(db(), file.id);
      assert.equal(rows.length, size / CHUNK_BYTES);
      assert.ok(rows.every((n) => n === CHUNK_BYTES));
      const back = createHash('sha256');
      let chunks = 0;
      for await (const chunk of fileChunks(db(), file.id)) {
        assert.ok(chunk.length <= CHUNK_BYTES);
        back.update(chunk);
        chunks += 1;
      }
      assert.equal(back.digest('hex'), file.sha256);
      assert.equal(chunks, size / CHUNK_BYTES);
      await removeFiles(db(), [file.id]);
    });

    it('keeps nothing of a failed write, never reads an incomplete file, and removes a job’s files with it', async () => {
      const before = await db().selectFrom('stored_file').select('sf_id').execute();
      async function* broken(): AsyncGenerator<Buffer> {
        yield randomBytes(CHUNK_BYTES + 10);
        throw new Error('the body broke off');
      }
      await assert.rejects(storeStream(db(), Readable.from(broken(), { objectMode: false }), { kind: 'test', name: 'broken', keepMs: DAY }), /broke off/);
      assert.deepEqual(await db().selectFrom('stored_file').select('sf_id').execute(), before, 'no file row left');

      const pending = new FileWriter(db(), { kind: 'test', name: 'later.pdf', jobId: 9001, keepMs: DAY, deferComplete: true });
      const written = await pending.pipeFrom(Readable.from([Buffer.from('%PDF-1.7 …')]));
      assert.equal(await storedFile(db(), written.id), undefined, 'incomplete: not readable');
      assert.equal(await jobFile(db(), 9001, 'test'), undefined);
      await assert.rejects(fileBytes(db(), written.id), FileGone);
      await completeFiles(db(), [written.id]);
      assert.equal((await fileBytes(db(), written.id)).toString(), '%PDF-1.7 …');
      assert.equal((await jobFile(db(), 9001, 'test'))?.sf_id, written.id);

      const other = await storeStream(db(), Readable.from([Buffer.from('zip')]), { kind: 'test', name: 'other', jobId: 9002, keepMs: DAY });
      await storeStream(db(), Readable.from([randomBytes(CHUNK_BYTES + 1)]), { kind: 'test-2', name: 'second', jobId: 9001, keepMs: DAY });
      assert.equal(await removeJobFiles(db(), 9001), 2);
      assert.equal(await jobFile(db(), 9001, 'test'), undefined);
      assert.ok(await storedFile(db(), other.id), 'another job’s file stays');
      await removeJobFiles(db(), 9002);
    });

    it('moves the files an older server left under DATA_DIR into the store, and removes them there', async () => {
      const importsDir = join(h.config.dataDir, 'imports');
      const batchDir = join(h.config.dataDir, 'billing-pdf');
      // Two runs as an older server left them: the file on disk, named by imp_path, and no stored file.
      const clean = await preview(base(), '顧客コード,会社名,電話番号1\r\nMOV1,移行商事,03-6666-0001\r\n');
      const errored = await preview(base(), '顧客コード,会社名,電話番号1\r\nMOV2,,03-6666-0002\r\nMOV3,移行物産,03-6666-0003\r\n');
      assert.equal(errored.body[0].errors?.length, 1, errored.text);
      mkdirSync(importsDir, { recursive: true });
      const legacy = new Map<number, { bytes: Buffer; errors?: Buffer }>();
      for (const [name, run] of [['a1b2.dat', clean.body[0]], ['c3d4.dat', errored.body[0]]] as const) {
        const row = await db().selectFrom('import_run').select(['imp_file_id', 'imp_errors_file_id']).where('imp_id', '=', run.import_id).executeTakeFirstOrThrow();
        const bytes = await fileBytes(db(), row.imp_file_id!);
        const errors = row.imp_errors_file_id === null ? undefined : await fileBytes(db(), row.imp_errors_file_id);
        writeFileSync(join(importsDir, name), bytes);
        if (errors) writeFileSync(join(importsDir, `${name}.errors`), errors);
        legacy.set(run.import_id, { bytes, errors });
        await removeFiles(db(), [row.imp_file_id!, ...(row.imp_errors_file_id === null ? [] : [row.imp_errors_file_id])]);
        await db().updateTable('import_run').set({ imp_path: name, imp_file_id: null, imp_errors_file_id: null }).where('imp_id', '=', run.import_id).execute();
      }
      writeFileSync(join(importsDir, 'orphan.dat'), 'a file no run names');
      // A batch's files, the part of one that never ended, and a batch of two days ago.
      mkdirSync(batchDir, { recursive: true });
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(CHUNK_BYTES)]);
      const zip = randomBytes(3000);
      writeFileSync(join(batchDir, 'job-4242.pdf'), pdf);
      writeFileSync(join(batchDir, 'job-4242.zip'), zip);
      writeFileSync(join(batchDir, 'job-4243.pdf.part'), 'unfinished');
      writeFileSync(join(batchDir, 'job-4244.pdf'), 'old');
      const twoDaysAgo = new Date(Date.now() - 2 * DAY);
      utimesSync(join(batchDir, 'job-4244.pdf'), twoDaysAgo, twoDaysAgo);

      assert.equal(await moveDiskFiles(db(), h.config.dataDir), 5, 'two uploads, one errors file, a PDF and a ZIP');
      assert.ok(!existsSync(importsDir) && !existsSync(batchDir), 'the folders are gone');

      for (const [importId, files] of legacy) {
        const row = await db().selectFrom('import_run').select(['imp_file_id', 'imp_errors_file_id', 'imp_sha256', 'imp_size', 'imp_file_name']).where('imp_id', '=', importId).executeTakeFirstOrThrow();
        const stored = await storedFile(db(), row.imp_file_id);
        assert.ok(stored);
        assert.deepEqual([stored.sf_sha256, Number(stored.sf_size), stored.sf_name, stored.sf_kind], [row.imp_sha256, row.imp_size, row.imp_file_name, 'import']);
        assert.ok((await fileBytes(db(), stored.sf_id)).equals(files.bytes));
        if (files.errors) assert.ok((await fileBytes(db(), row.imp_errors_file_id!)).equals(files.errors));
        else assert.equal(row.imp_errors_file_id, null);
      }
      // The moved clean run commits; the moved errored run answers its errors.
      const started = await h.post<{ job_id: number }>('import_commit', { import_id: clean.body[0].import_id });
      assert.equal(started.status, 200, started.text);
      const job = await jobEnded<ImportCommitResult>(h, started.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.equal(job.result?.inserts, 1);
      const csv = await downloadFile(h, 'import_errors_csv', { import_id: errored.body[0].import_id });
      assert.equal(csv.status, 200, csv.bytes.toString());
      assert.match(csv.bytes.toString('utf8'), /MOV2/);
      assert.doesNotMatch(csv.bytes.toString('utf8'), /MOV3/);

      const movedPdf = await jobFile(db(), 4242, 'billing-pdf');
      const movedZip = await jobFile(db(), 4242, 'billing-zip');
      assert.ok(movedPdf && movedZip);
      assert.ok((await fileBytes(db(), movedPdf.sf_id)).equals(pdf));
      assert.ok((await fileBytes(db(), movedZip.sf_id)).equals(zip));
      assert.equal(await jobFile(db(), 4244, 'billing-pdf'), undefined, 'an expired batch is not moved');
      assert.equal(await jobFile(db(), 4243, 'billing-pdf'), undefined);
      // Nothing is stored twice when the folders appear again (a start that stopped half-way).
      assert.equal(await moveDiskFiles(db(), h.config.dataDir), 0);
      mkdirSync(batchDir);
      writeFileSync(join(batchDir, 'job-4242.pdf'), pdf);
      assert.equal(await moveDiskFiles(db(), h.config.dataDir), 0);
      assert.ok(!existsSync(batchDir));
      await removeJobFiles(db(), 4242);
    });

    // Last of the suite: a day later the admin's session of the harness has expired.
    it('does not read an expired file; removeExpiredFiles and the next write of any server remove it; an expired import is refused', async () => {
      const start = nowMs();
      try {
        const kept = await storeStream(db(), Readable.from([randomBytes(CHUNK_BYTES + 5)]), { kind: 'test', name: 'a day', keepMs: DAY });
        const short = await storeStream(db(), Readable.from([randomBytes(100)]), { kind: 'test', name: 'an hour', keepMs: 60 * 60 * 1000 });
        const run = await preview(base(), '顧客コード,会社名,電話番号1\r\nEXP1,期限商事,03-5555-0001\r\n');
        assert.equal(run.status, 200, run.text);
        const upload = await db().selectFrom('import_run').select('imp_file_id').where('imp_id', '=', run.body[0].import_id).executeTakeFirstOrThrow();

        pinClock(start + 2 * 60 * 60 * 1000);
        assert.equal(await storedFile(db(), short.id), undefined, 'expired: not read before it is removed');
        await assert.rejects(fileBytes(db(), short.id), FileGone);
        assert.equal(await removeExpiredFiles(db()), 1);
        assert.ok(await storedFile(db(), kept.id));

        pinClock(start + DAY + 60 * 1000);
        // A day later the morning's session has expired too: log in again.
        const key = await h.keyOf(h.fixtures.users.admin.email, h.fixtures.users.admin.password);
        // The upload expired: its preview cannot be committed (whatever has not yet removed it).
        const commit = await h.post('import_commit', { import_id: run.body[0].import_id }, key);
        assert.equal(commit.status, 409, commit.text);
        assert.equal((commit.body[0] as { error: string }).error, '確認から時間が経ったため、この取込のファイルは削除されました。もう一度ファイルを選んで確認してください。');
        // The next file written — here another upload — removes every expired file, chunks and all.
        const next = await preview({ ...base(), key }, '顧客コード,会社名,電話番号1\r\nEXP2,次回商事,03-5555-0002\r\n');
        assert.equal(next.status, 200, next.text);
        for (const id of [kept.id, upload.imp_file_id!]) {
          assert.equal(await db().selectFrom('stored_file').select('sf_id').where('sf_id', '=', id).executeTakeFirst(), undefined, `file ${id} removed`);
          assert.deepEqual(await chunkRows(db(), id), []);
        }
      } finally {
        pinClock(undefined);
      }
    });
  });

  describe(`file store: the move at a server's start (${dialect})`, () => {
    const admin = { email: 'files-admin@example.jp', password: 'files-admin-pw-2026' };
    let first: ServerProcess | undefined;
    let second: ServerProcess | undefined;
    after(async () => {
      await second?.close();
      await first?.close();
    });

    it('moves an older server’s import file into the store when the server starts, and the preview then commits', async () => {
      first = await startServerProcess(dialect, admin, 1);
      const login = await first.post('/api/login/', { userEmail: admin.email, userPassword: admin.password });
      assert.equal(login.status, 200, login.text);
      const key = String(login.body[0].auth_key);
      const run = await preview({ url: first.url, prefix: '/api/db', key }, '顧客コード,会社名,電話番号1\r\nSTART1,起動時商事,03-7777-0001\r\n');
      assert.equal(run.status, 200, run.text);
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first!.child.once('exit', resolve));

      // What an older server left: the upload on disk, named by the run.
      const database = openDatabase({ dialect, databaseUrl: first.databaseUrl, sqliteFile: join(first.dataDir, 'app.db') });
      try {
        const row = await database.db.selectFrom('import_run').select('imp_file_id').where('imp_id', '=', run.body[0].import_id).executeTakeFirstOrThrow();
        mkdirSync(join(first.dataDir, 'imports'));
        writeFileSync(join(first.dataDir, 'imports', 'old-upload.dat'), await fileBytes(database.db, row.imp_file_id!));
        await removeFiles(database.db, [row.imp_file_id!]);
        await database.db.updateTable('import_run').set({ imp_path: 'old-upload.dat', imp_file_id: null }).where('imp_id', '=', run.body[0].import_id).execute();
      } finally {
        await database.close();
      }

      second = await startServerProcess(dialect, admin, 1, { on: first });
      assert.ok(!existsSync(join(second.dataDir, 'imports')), 'moved at start');
      const commit = await second.post('/api/db/import_commit', { authKey: key, import_id: String(run.body[0].import_id) });
      assert.equal(commit.status, 200, commit.text);
      const jobId = String(commit.body[0].job_id);
      let state = 'running';
      for (const deadline = Date.now() + 60_000; state === 'running';) {
        assert.ok(Date.now() < deadline, 'the commit ends');
        const job = await second.post('/api/db/job_dtl', { authKey: key, id: jobId });
        state = String(job.body[0].state);
        if (state === 'running') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(state, 'done');
      const found = await second.post('/api/db/client_lst', { authKey: key, kw: '起動時商事' });
      assert.equal(found.body.length, 1, found.text);
    });
  });
}
