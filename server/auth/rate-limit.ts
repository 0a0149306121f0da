/**
 * Failed-login counters per account and per address, kept in the database so that several
 * server processes on one PostgreSQL share them. A counter counts failures inside a window of
 * LIMITS.loginWindowMinutes that starts at the first failure.
 */
import { sql, type Kysely } from 'kysely';
import { LIMITS } from '../../lib/protocol';
import type { Database } from '../db/schema';

export interface LoginSubject {
  email: string;
  address: string;
}

const accountKey = (email: string): string => `account:${email}`;
const addressKey = (address: string): string => `address:${address}`;

const windowStart = (now: Date): string => new Date(now.getTime() - LIMITS.loginWindowMinutes * 60 * 1000).toISOString();

/**
 * Whether the account or the address has used up its failures in the current window.
 * @example await isLocked(db, { email: 'a@example.jp', address: '127.0.0.1' }) // false
 */
export async function isLocked(db: Kysely<Database>, subject: LoginSubject, now: Date = new Date()): Promise<boolean> {
  const rows = await db
    .selectFrom('login_attempt')
    .select(['la_key', 'la_failures'])
    .where('la_key', 'in', [accountKey(subject.email), addressKey(subject.address)])
    .where('la_window_start', '>=', windowStart(now))
    .execute();
  return rows.some((row) =>
    row.la_key.startsWith('account:')
      ? row.la_failures >= LIMITS.loginMaxFailuresPerAccount
      : row.la_failures >= LIMITS.loginMaxFailuresPerAddress,
  );
}

/** Counts one failure for the account and for the address (atomic upsert, safe across processes). */
export async function recordFailure(db: Kysely<Database>, subject: LoginSubject, now: Date = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  const expired = sql<boolean>`login_attempt.la_window_start < ${windowStart(now)}`;
  for (const key of [accountKey(subject.email), addressKey(subject.address)]) {
    await db
      .insertInto('login_attempt')
      .values({ la_key: key, la_failures: 1, la_window_start: nowIso, modified: nowIso })
      .onConflict((oc) =>
        oc.column('la_key').doUpdateSet({
          la_failures: sql<number>`CASE WHEN ${expired} THEN 1 ELSE login_attempt.la_failures + 1 END`,
          la_window_start: sql<string>`CASE WHEN ${expired} THEN ${nowIso} ELSE login_attempt.la_window_start END`,
          modified: nowIso,
        }),
      )
      .execute();
  }
}

/** A successful login clears the account's counter (the address keeps its count). */
export async function clearAccount(db: Kysely<Database>, email: string, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('login_attempt').where('la_key', '=', accountKey(email)).execute();
  await db.deleteFrom('login_attempt').where('la_window_start', '<', windowStart(now)).execute();
}
