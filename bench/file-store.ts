/**
 * Benchmark: files in the database (server/files) through the real server (one process, WEB_CONCURRENCY=1, so its RSS is
 * that of the process doing the work), on SQLite and — with TEST_DATABASE_URL or BENCH_DATABASE_URL — PostgreSQL:
 * - upload: a 50 MB file (just under the import limit) sent to `import_preview` — streamed into the store chunk by
 *   chunk as it arrives; its header names no column of the kind, so the preview refuses it at its first record and
 *   removes it: the time is that of storing 50 MB (and removing it);
 * - download: a 40 MB stored file (random bytes, stored as a batch job's ZIP) answered by `billing_pdf_batch_file`,
 *   streamed from the store chunk by chunk as the client reads.
 * Prints the seconds and MB/s of each and the server's RSS before and at its peak (sampled every 50 ms), each done twice:
 * the first grows the RSS by what a first big file brings (SQLite's page cache of up to 64 MiB, buffers not yet
 * collected), the second shows whether memory grows with the files.
 * Goal: memory flat — the second file of a size grows the RSS by little, whatever its size.
 *
 * Run: `node --import tsx bench/file-store.ts` (BENCH_DIALECTS=sqlite|postgres for one; PostgreSQL with TEST_DATABASE_URL;
 * BENCH_UPLOAD_MB, BENCH_DOWNLOAD_MB for other sizes).
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createUser } from '../server/auth/users';
import { migrateToLatest } from '../server/db/migrate';
import { storeStream } from '../server/files';
import { openJobDatabase } from '../server/jobs/job-db';
import { ADMIN, benchDialects, freshTarget, login, rssMb, startServer } from './list-bench';

process.env.TZ ||= 'Asia/Tokyo';

const MiB = 1024 * 1024;
/** BENCH_UPLOAD_MB / BENCH_DOWNLOAD_MB change the sizes (a smaller file growing the RSS as much says the growth is not the file). */
const UPLOAD_BYTES = Math.min(50 * MiB - 4096, Number(process.env.BENCH_UPLOAD_MB ?? 50) * MiB);
const DOWNLOAD_BYTES = Number(process.env.BENCH_DOWNLOAD_MB ?? 40) * MiB;

async function measured<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; seconds: number; before: number; peak: number }> {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  try {
    const value = await work();
    return { value, seconds: (performance.now() - started) / 1000, before, peak: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

const line = (dialect: string, what: string, bytes: number, m: { seconds: number; before: number; peak: number }): string =>
  `${dialect} ${what}: ${m.seconds.toFixed(2)} s, ${(bytes / MiB / m.seconds).toFixed(1)} MB/s; server RSS ${m.before.toFixed(0)} → peak ${m.peak.toFixed(0)} MB (+${(m.peak - m.before).toFixed(0)} MB)`;

// A CSV whose header names no column of 顧客取込: stored whole, then refused at its first record.
const upload = Buffer.alloc(UPLOAD_BYTES, 'x,y,z\r\n');
upload.write('列A,列B,列C\r\n', 'utf8');
const download = randomBytes(DOWNLOAD_BYTES);
const downloadSha = createHash('sha256').update(download).digest('hex');

for (const dialect of benchDialects()) {
  const target = await freshTarget(dialect);
  await migrateToLatest(target.database.db, dialect);
  const admin = await createUser(target.database.db, { ...ADMIN, name: 'ベンチ', role: '管理' });
  // The 40 MB file, as a finished batch job's ZIP (the job recorded where jobs are kept: on SQLite the file beside the database).
  const jobs = await openJobDatabase({ dialect, databaseUrl: target.env.DATABASE_URL ?? '', sqliteFile: join(target.env.DATA_DIR ?? '', 'app.db') });
  const now = new Date().toISOString();
  const job = await jobs.db.insertInto('job').values({
    job_kind: 'billing_pdf_batch', job_scope: '20:202605', job_params: '{}', job_usr_id: admin, job_usr_name: 'ベンチ', job_state: 'done', job_started: now,
    job_finished: now, job_host: 'bench', job_pid: process.pid, created: now, modified: now, deleted: 0,
    job_result: JSON.stringify({ sime_gp: '20', sime_ym: '202605', invoices: 0, pages: 0, reissued: 0, pdf_bytes: 0, zip_bytes: DOWNLOAD_BYTES, pdf_name: 'bench.pdf', zip_name: 'bench.zip' }),
  }).returning('job_id').executeTakeFirstOrThrow();
  await jobs.close();
  await storeStream(target.database.db, Readable.from([download]), { kind: 'billing-zip', name: 'bench.zip', jobId: job.job_id, keepMs: 60 * 60 * 1000 });
  await target.database.close();
  const server = await startServer({ ...target.env, WEB_CONCURRENCY: '1' });
  try {
    const authKey = await login(server.url);
    const send = async (bytes: Buffer) => {
      const form = new FormData();
      form.append('authKey', authKey);
      form.append('kind', 'client');
      form.append('file', new Blob([bytes as BlobPart], { type: 'text/csv' }), 'large.csv');
      const res = await fetch(`${server.url}/api/db/import_preview`, { method: 'POST', body: form });
      const body = (await res.json()) as { error?: string }[];
      if (res.status !== 400) throw new Error(`import_preview answered ${res.status}: ${JSON.stringify(body)}`);
      return body[0].error;
    };
    // A first small upload loads the import's code (csv-parse, iconv, the kinds), so the growth measured is the file's.
    await send(upload.subarray(0, MiB));
    const sent = await measured(server.pid, () => send(upload));
    console.log(line(dialect, `upload ${(UPLOAD_BYTES / MiB).toFixed(0)} MB (import_preview after a 1 MB one: stored, then refused 「${(sent.value ?? '').slice(0, 14)}…」)`, UPLOAD_BYTES, sent));
    // Again: memory that grows with the files would grow again; what was the page cache and garbage not yet collected does not.
    const again = await measured(server.pid, () => send(upload));
    console.log(line(dialect, `upload ${(UPLOAD_BYTES / MiB).toFixed(0)} MB again`, UPLOAD_BYTES, again));
    const fetchZip = async (): Promise<number> => {
      const res = await fetch(`${server.url}/api/db/billing_pdf_batch_file`, { method: 'POST', body: new URLSearchParams({ authKey, job_id: String(job.job_id), format: 'zip' }) });
      if (!res.ok || !res.body) throw new Error(`billing_pdf_batch_file answered ${res.status}: ${await res.text()}`);
      const hash = createHash('sha256');
      let bytes = 0;
      const reader = res.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        hash.update(next.value);
        bytes += next.value.byteLength;
      }
      if (bytes !== DOWNLOAD_BYTES || hash.digest('hex') !== downloadSha) throw new Error(`the download answered ${bytes} bytes, not the file stored`);
      return bytes;
    };
    const got = await measured(server.pid, fetchZip);
    console.log(line(dialect, `download ${(DOWNLOAD_BYTES / MiB).toFixed(0)} MB stored file (billing_pdf_batch_file)`, got.value, got));
    const twice = await measured(server.pid, fetchZip);
    console.log(line(dialect, `download ${(DOWNLOAD_BYTES / MiB).toFixed(0)} MB again`, twice.value, twice));
  } finally {
    await server.stop();
    await target.cleanup();
  }
}
console.log('goal: memory flat (a second file of the size grows the RSS by little)');
