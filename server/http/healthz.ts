/**
 * `GET /healthz` for a load balancer (not a call: no auth key, no form, answered by every server process): 200 when
 * the process answers, its database answers a cheap query within `HEALTH_TIMEOUT_MS` and every migration this code
 * knows has run there; 503 while the database is unreachable or slower than that, or a migration is missing — the
 * process keeps running and answers 200 again once the database is back. A database that holds migrations this code
 * does not know (a newer server migrated it during a rolling update) is still healthy, said as `ahead`. While the
 * process stops (SIGTERM) Fastify answers 503 to every new request, this one too, so the balancer stops sending.
 * The answer is a small JSON object without secrets: `{ status, database, migrations }`.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_MIGRATION_TABLE, sql } from 'kysely';
import type { AppDatabase } from '../db/connect';
import { MIGRATION_NAMES } from '../db/migrate';

/** How long the database may take to answer before the server calls itself unavailable. */
export const HEALTH_TIMEOUT_MS = 2_000;

export const HEALTH_PATH = '/healthz';

export interface Health {
  status: 'ok' | 'unavailable';
  database: 'up' | 'down';
  /** `behind`: a migration this code needs has not run; `ahead`: the database has migrations this code does not know. */
  migrations: 'current' | 'behind' | 'ahead' | 'unknown';
}

class TimedOut extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'TimedOut';
  }
}

/** The promise's answer, or a `TimedOut` rejection after `ms` (the promise's own later failure is then ignored). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimedOut(ms)), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The health of this process's database: reachable, and the migrations this code knows all run (one short read).
 * Reads through `reader`, so on SQLite a job's open transaction does not hold the answer up.
 * @example const health = await checkHealth(database); health.status // 'ok'
 */
export async function checkHealth(database: AppDatabase, timeoutMs = HEALTH_TIMEOUT_MS): Promise<{ health: Health; error?: unknown }> {
  let applied: Set<string>;
  try {
    const { rows } = await within(sql<{ name: string }>`SELECT name FROM ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(database.reader), timeoutMs);
    applied = new Set(rows.map((row) => row.name));
  } catch (error) {
    return { health: { status: 'unavailable', database: 'down', migrations: 'unknown' }, error };
  }
  if (MIGRATION_NAMES.some((name) => !applied.has(name))) return { health: { status: 'unavailable', database: 'up', migrations: 'behind' } };
  const known = new Set(MIGRATION_NAMES);
  const ahead = [...applied].some((name) => !known.has(name));
  return { health: { status: 'ok', database: 'up', migrations: ahead ? 'ahead' : 'current' } };
}

/**
 * Registers `GET /healthz` (and its HEAD).
 * @example healthRoute(app, database)
 */
export function healthRoute(app: FastifyInstance, database: AppDatabase): void {
  app.get(HEALTH_PATH, async (request, reply) => {
    const { health, error } = await checkHealth(database);
    if (health.status !== 'ok') request.log.warn(error === undefined ? { health } : { err: error, health }, 'health check failed');
    return reply.code(health.status === 'ok' ? 200 : 503).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(health);
  });
}
