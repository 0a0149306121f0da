/**
 * Benchmark: 顧客取込 of 100,000 customers (BENCH_ROWS) from one cp932 CSV — `import_preview` (upload, the dry run of
 * every row through the one write path, rolled back) then `import_commit` (the job writing them all in one transaction) —
 * against the real server (one process, WEB_CONCURRENCY=1, so its RSS is that of the process doing the work). Prints the
 * seconds of each and the server's RSS before and at its peak (sampled every 50 ms).
 * Goal: each under 60 s, memory flat (the file is streamed and read a chunk of 1,000 rows at a time).
 *
 * Run: `node --import tsx bench/import-clients.ts` (BENCH_ROWS, BENCH_DIALECTS; PostgreSQL with TEST_DATABASE_URL).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { createUser } from '../server/auth/users';
import { migrateToLatest } from '../server/db/migrate';
import { seedMasters } from '../server/seed/seed';
import { ADMIN, benchDialects, freshTarget, login, seconds, startServer } from './list-bench';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PREFS = ['東京都', '神奈川県', '大阪府', '愛知県', '福岡県', '北海道'];

/** Resident memory of a process in MB (`VmRSS`), from /proc. */
const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The customer file: a header and ROWS customers, cp932, CR LF. */
function customerFile(): Buffer {
  const lines = ['顧客コード,会社名,会社名カナ,氏名,電話番号1,メールアドレス,郵便番号,都道府県,市区町村,番地,状態,定期配送,配送本数,開始売掛残高,開始売掛残高の基準日,備考1'];
  for (let i = 1; i <= ROWS; i++) {
    const n = String(i).padStart(6, '0');
    lines.push([
      `B${n}`, `株式会社ベンチ${n}`, `カブシキガイシャベンチ`, `取込 ${n}`, `03-${n.slice(0, 2)}00-${n.slice(2)}`, `c${n}@example.jp`, `100-${n.slice(2)}`,
      PREFS[i % PREFS.length], '千代田区', `丸の内${i % 9 + 1}-${i % 7 + 1}`, '契約中', i % 3 === 0 ? '1' : '0', i % 3 === 0 ? '2' : '', i % 10 === 0 ? '5000' : '',
      i % 10 === 0 ? '2026-03-31' : '', i % 5 === 0 ? '"備考, カンマ入り"' : '',
    ].join(','));
  }
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp932');
}

async function measured<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; took: string; before: number; peak: number }> {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = Date.now();
  try {
    const value = await work();
    return { value, took: seconds(started), before, peak: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

const file = customerFile();
console.log(`file: ${ROWS.toLocaleString()} customers, ${(file.byteLength / 1024 / 1024).toFixed(1)} MB cp932`);
for (const dialect of benchDialects()) {
  const target = await freshTarget(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'hod-import-bench-'));
  await migrateToLatest(target.database.db, dialect);
  await createUser(target.database.db, { ...ADMIN, name: 'ベンチ', role: '管理' });
  await seedMasters(target.database.db);
  await target.database.close();
  const server = await startServer({ DATA_DIR: dataDir, ...target.env, WEB_CONCURRENCY: '1' });
  try {
    const authKey = await login(server.url);
    const preview = await measured(server.pid, async () => {
      const form = new FormData();
      form.append('authKey', authKey);
      form.append('kind', 'client');
      form.append('file', new Blob([file as BlobPart], { type: 'text/csv' }), 'customers.csv');
      const res = await fetch(`${server.url}/api/db/import_preview`, { method: 'POST', body: form });
      const body = (await res.json()) as { import_id: number; rows: number; inserts: number; errors: unknown[]; error?: string }[];
      if (!res.ok) throw new Error(`import_preview answered ${res.status}: ${JSON.stringify(body)}`);
      return body[0];
    });
    const p = preview.value;
    if (p.errors.length) throw new Error(`the preview found errors: ${JSON.stringify(p.errors.slice(0, 3))}`);
    console.log(`${dialect} import_preview: ${p.rows.toLocaleString()} rows (${p.inserts.toLocaleString()} inserts, ${p.errors.length} errors) in ${preview.took}; server RSS ${preview.before.toFixed(0)} → peak ${preview.peak.toFixed(0)} MB (+${(preview.peak - preview.before).toFixed(0)} MB)`);
    const commit = await measured(server.pid, async () => {
      const res = await fetch(`${server.url}/api/db/import_commit`, { method: 'POST', body: new URLSearchParams({ authKey, import_id: String(p.import_id) }) });
      const [started] = (await res.json()) as { job_id: number }[];
      if (!res.ok) throw new Error(`import_commit answered ${res.status}`);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const dtl = await fetch(`${server.url}/api/db/job_dtl`, { method: 'POST', body: new URLSearchParams({ authKey, id: String(started.job_id) }) });
        const [job] = (await dtl.json()) as { state: string; error: string; result: { inserts: number } | null }[];
        if (job.state !== 'running') {
          if (job.state !== 'done') throw new Error(`the commit ${job.state}: ${job.error}`);
          return job.result;
        }
      }
    });
    console.log(`${dialect} import_commit: ${commit.value?.inserts.toLocaleString()} customers written in ${commit.took}; server RSS ${commit.before.toFixed(0)} → peak ${commit.peak.toFixed(0)} MB (+${(commit.peak - commit.before).toFixed(0)} MB)`);
  } finally {
    await server.stop();
    await target.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log('goal: preview and commit each under 60 s, memory flat');
