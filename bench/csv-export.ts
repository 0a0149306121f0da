/**
 * Benchmark: `order_csv` of every order — 1,000,000 by default on 100,000 customers (the data of
 * bench/order-list.ts) — streamed from the real server to a reader that only counts bytes and records.
 * Prints seconds, rows and MB, and the server process's RSS before and at its peak during the export
 * (one server process, WEB_CONCURRENCY=1, so the peak is that of the process doing the work).
 * Goal: under 20 s, RSS growth under 100 MB.
 *
 * Run: `node --import tsx bench/csv-export.ts` (BENCH_CLIENTS, BENCH_ORDERS, BENCH_DIALECTS; PostgreSQL with TEST_DATABASE_URL).
 */
import { createUser } from '../server/auth/users';
import { refreshStatistics } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { seedSyntheticClients, seedSyntheticOrders } from '../server/seed/seed';
import { ADMIN, benchDialects, cpuSeconds, freshTarget, login, rssMb, seconds, startServer } from './list-bench';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);

async function exportOnce(url: string, pid: number, params: Record<string, string>) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = Date.now();
  const cpuBefore = cpuSeconds(pid);
  const res = await fetch(`${url}/api/db/order_csv`, { method: 'POST', body: new URLSearchParams(params) });
  if (!res.ok || !res.body) throw new Error(`order_csv answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lineFeeds = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 0x0a) lineFeeds += 1;
  }
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { took: seconds(started), cpu: cpuSeconds(pid) - cpuBefore, rows: lineFeeds - 1, mb: bytes / 1024 / 1024, before, peak };
}

for (const dialect of benchDialects()) {
  const target = await freshTarget(dialect);
  const loading = Date.now();
  await migrateToLatest(target.database.db, dialect);
  await createUser(target.database.db, { ...ADMIN, name: 'ベンチ', role: '管理' });
  await seedSyntheticClients(target.database.db, CLIENTS);
  const first = await target.database.db.selectFrom('client').select((eb) => eb.fn.min<number>('cl_id').as('id')).executeTakeFirstOrThrow();
  await seedSyntheticOrders(target.database.db, Number(first.id), CLIENTS, ORDERS);
  await refreshStatistics(target.database, { full: true });
  await target.database.close();
  console.log(`${dialect}: ${CLIENTS.toLocaleString()} customers, ${ORDERS.toLocaleString()} orders loaded in ${seconds(loading)}`);
  const server = await startServer({ ...target.env, WEB_CONCURRENCY: '1' });
  try {
    const authKey = await login(server.url);
    for (const [name, params] of [
      ['list columns, cp932, newest first', { authKey }],
      ['every field, UTF-8, by 受注日', { authKey, cols: 'all', enc: 'utf8', col: 'od_date', odr: 'asc' }],
    ] as const) {
      const f = await exportOnce(server.url, server.pid, params);
      console.log(`${dialect} order_csv ${name}: ${f.rows.toLocaleString()} rows, ${f.mb.toFixed(0)} MB in ${f.took} (server CPU ${f.cpu.toFixed(1)} s); server RSS ${f.before.toFixed(0)} → peak ${f.peak.toFixed(0)} MB (+${(f.peak - f.before).toFixed(0)} MB)`);
    }
  } finally {
    await server.stop();
    await target.cleanup();
  }
}
console.log('goal: 1,000,000 orders in under 20 s, server RSS growth under 100 MB');
