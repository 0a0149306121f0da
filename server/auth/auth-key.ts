/**
 * Auth keys: 32 random bytes (base64url) handed to the client; the database keeps only the
 * sha256 of the key with an expiry, extended while the key is used (sliding expiry).
 */
import { createHash, randomBytes } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import { effectiveAreas } from '../../lib/permissions';
import type { SessionUser } from '../calls/call-table';
import type { Database } from '../db/schema';
import { clockNow } from '../http/clock';
import type { CachedSession, SessionCache } from './session-cache';

const HOUR_MS = 60 * 60 * 1000;
/** Extend the expiry at most this often per key, so a busy key does not write on every call. */
const EXTEND_STEP_MS = 5 * 60 * 1000;

/** sha256 (hex) of an auth key: what the database stores. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * Creates a key for a user and stores its hash; returns the key itself.
 * @example const key = await issueAuthKey(db, 1, 12)
 */
export async function issueAuthKey(db: Kysely<Database>, userId: number, ttlHours: number, now: Date = clockNow()): Promise<string> {
  const key = randomBytes(32).toString('base64url');
  await db
    .insertInto('auth_key')
    .values({
      ak_hash: hashKey(key),
      ak_user_id: userId,
      ak_expires: new Date(now.getTime() + ttlHours * HOUR_MS).toISOString(),
      created: now.toISOString(),
    })
    .execute();
  await db.deleteFrom('auth_key').where('ak_expires', '<', now.toISOString()).execute();
  return key;
}

/** The session query's row: the user, the role's areas (JSON text; null when no live role has the user's label), the key's expiry. */
type SessionRow = CachedSession;

/** The session lookup compiled once per database: it runs on every call, and building and compiling it costs more than running it. */
const sessionQueries = new WeakMap<Kysely<Database>, { run(keyHash: string, nowIso: string): Promise<SessionRow | undefined> }>();

function sessionQuery(db: Kysely<Database>) {
  let query = sessionQueries.get(db);
  if (query) return query;
  const HASH = '\u0000hash', NOW = '\u0000now';
  const compiled = db
    .selectFrom('auth_key')
    .innerJoin('user', 'user.user_id', 'auth_key.ak_user_id')
    .leftJoin('role', (join) => join.onRef('role.role_name', '=', 'user.user_role').on('role.deleted', '=', 0))
    .select(['user.user_id', 'user.user_email', 'user.user_name', 'user.user_role', 'role.role_areas', 'auth_key.ak_expires'])
    .where('auth_key.ak_hash', '=', HASH)
    .where('auth_key.ak_expires', '>', NOW)
    .where('user.deleted', '=', 0)
    .where('user.user_active', '=', 1)
    .compile();
  const slots = compiled.parameters.map((p) => (p === HASH ? 0 : p === NOW ? 1 : -1));
  if (!slots.includes(0) || !slots.includes(1)) throw new Error('session query: parameters not found');
  query = {
    async run(keyHash, nowIso) {
      const values = [keyHash, nowIso];
      const parameters = compiled.parameters.map((p, i) => (slots[i] >= 0 ? values[slots[i]] : p));
      const { rows } = await db.executeQuery<SessionRow>(CompiledQuery.raw(compiled.sql, parameters));
      return rows[0];
    },
  };
  sessionQueries.set(db, query);
  return query;
}

/**
 * The active user an unexpired key belongs to, with their role's areas as the database holds them
 * now (one query), or undefined. Extends the key's expiry (through `db`; the lookup reads through `reader`,
 * AppDatabase's connection that a running transaction does not hold up). With a `cache` (PostgreSQL,
 * ./session-cache.ts) a session this process looked up before is answered without the query until a change
 * to it is announced.
 * @example const user = await findSession(db, key, 12)
 */
export async function findSession(db: Kysely<Database>, key: string, ttlHours: number, now: Date = clockNow(), reader: Kysely<Database> = db, cache?: SessionCache): Promise<SessionUser | undefined> {
  if (!key || key.length > 200) return undefined;
  const keyHash = hashKey(key);
  const nowIso = now.toISOString();
  let row = await cache?.get(keyHash);
  if (!row || row.ak_expires <= nowIso) {
    const mark = cache?.mark() ?? -1;
    row = await sessionQuery(reader).run(keyHash, nowIso);
    if (!row) return undefined;
    cache?.keep(keyHash, row, mark);
  }
  const expires = now.getTime() + ttlHours * HOUR_MS;
  if (expires - Date.parse(row.ak_expires) > EXTEND_STEP_MS) {
    await db.updateTable('auth_key').set({ ak_expires: new Date(expires).toISOString() }).where('ak_hash', '=', keyHash).execute();
  }
  return {
    user_id: row.user_id, user_email: row.user_email, user_name: row.user_name, user_role: row.user_role,
    areas: effectiveAreas(row.user_role, row.role_areas), keyHash,
  };
}

/** Deletes a key (logout). */
export async function deleteAuthKey(db: Kysely<Database>, keyHash: string): Promise<void> {
  await db.deleteFrom('auth_key').where('ak_hash', '=', keyHash).execute();
}

/** Ends every session of a user (deleted, deactivated, new password) but the one whose key hash is `keep`. */
export async function deleteUserKeys(db: Kysely<Database>, userId: number, keep?: string): Promise<void> {
  let query = db.deleteFrom('auth_key').where('ak_user_id', '=', userId);
  if (keep !== undefined) query = query.where('ak_hash', '<>', keep);
  await query.execute();
}
