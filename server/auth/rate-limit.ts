/**
 * Graded login limits. Failed logins make their subject wait; nothing is ever locked for good.
 *
 * Counters live in `login_attempt` (several server processes on one PostgreSQL share them), one per
 * - pair    `pair:{address} {email}`  — this account from this address,
 * - account `account:{email}`         — this account from anywhere,
 * - address `address:{address}`       — any account from this address (one office behind one proxy
 *   is one address: give TRUST_PROXY so the proxy's X-Forwarded-For names the client).
 * A counter holds failures and the time of the last attempt it counted (`modified`); it forgets
 * them after LIMITS.loginWindowMinutes without an attempt. With `f` failures it makes its subject
 * wait `delaySeconds(f, free)` after that last attempt: nothing while f is below its free failures
 * (LIMITS.loginFreeFailures: pair 3, account 5, address 20 — an office's colleagues' typos add up
 * slowly), then 1 s, 2 s, 4 s … doubling up to LIMITS.loginMaxDelaySeconds.
 *
 * Which counters delay an attempt: an address that logged in to the account before (a `known:`
 * row, kept LIMITS.loginKnownDays after its last success) answers only to its pair counter — guesses
 * at the account from elsewhere and failures of other accounts from the same office never slow a
 * user down where they usually log in. An address new to the account answers to all three (the
 * account counter stops guessing spread over many addresses, the address counter guessing spread
 * over many accounts). The admin is treated like everyone.
 *
 * A delayed attempt is refused (429, the seconds to wait) before its password is checked, so it
 * learns nothing and counts nothing. An attempt let through is counted on all three counters
 * *before* the password is checked (atomic upserts), so parallel attempts cannot all slip through
 * one gap: when a delaying counter's count shows that another attempt took the gap first, this one
 * is refused too (and stays counted). A success takes its count back from the account and address
 * counters, clears the pair counter and remembers the pair as known.
 */
import { sql, type Kysely } from 'kysely';
import { LIMITS } from '../../lib/protocol';
import type { Database } from '../db/schema';
import { clockNow } from '../http/clock';

export interface LoginSubject {
  email: string;
  address: string;
}

export type CounterKind = keyof typeof LIMITS.loginFreeFailures;

/** A counter as stored: its failures and the time of the last attempt it counted (ms). */
export interface Counter {
  failures: number;
  last: number;
}

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const KINDS: readonly CounterKind[] = ['pair', 'account', 'address'];

const counterKey = (kind: CounterKind, { email, address }: LoginSubject): string =>
  kind === 'pair' ? `pair:${address} ${email}` : kind === 'account' ? `account:${email}` : `address:${address}`;
const knownKey = ({ email, address }: LoginSubject): string => `known:${address} ${email}`;

/**
 * Seconds a counter with `failures` failures delays its subject after its last attempt (pure).
 * @example delaySeconds(3, 3) // 1 — then 2, 4, 8 … up to LIMITS.loginMaxDelaySeconds
 */
export function delaySeconds(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(LIMITS.loginMaxDelaySeconds, LIMITS.loginFirstDelaySeconds * 2 ** (failures - free));
}

/** The failures a counter still holds at `now` (0 when missing or forgotten). */
const liveFailures = (counter: Counter | undefined, now: number): number =>
  counter && now - counter.last < LIMITS.loginWindowMinutes * MINUTE_MS ? counter.failures : 0;

/**
 * Milliseconds until a counter lets its subject try again (0: now; pure).
 * @example waitMs({ failures: 4, last: 0 }, 'pair', 500) // 1500
 */
export function waitMs(counter: Counter | undefined, kind: CounterKind, now: number): number {
  const failures = liveFailures(counter, now);
  return counter ? Math.max(0, counter.last + delaySeconds(failures, LIMITS.loginFreeFailures[kind]) * 1000 - now) : 0;
}

/** Whole seconds to tell the user (at least 1). */
const toSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** An attempt let through: what `loginSucceeded` needs to take its count back. */
export interface LoginAttempt {
  ok: true;
  subject: LoginSubject;
  at: string;
  /** `modified` of each counter before this attempt counted itself (undefined: there was no live row). */
  before: Record<CounterKind, string | undefined>;
}

/** An attempt refused: the seconds to wait. */
export interface LoginDelay {
  ok: false;
  waitSeconds: number;
}

/** Counts one attempt on a counter (atomic upsert); answers the failures it now holds. */
async function count(db: Kysely<Database>, key: string, now: Date): Promise<number> {
  const at = now.toISOString();
  const forgotten = sql<boolean>`login_attempt.modified < ${new Date(now.getTime() - LIMITS.loginWindowMinutes * MINUTE_MS).toISOString()}`;
  const row = await db
    .insertInto('login_attempt')
    .values({ la_key: key, la_failures: 1, la_window_start: at, modified: at })
    .onConflict((oc) =>
      oc.column('la_key').doUpdateSet({
        la_failures: sql<number>`CASE WHEN ${forgotten} THEN 1 ELSE login_attempt.la_failures + 1 END`,
        la_window_start: sql<string>`CASE WHEN ${forgotten} THEN ${at} ELSE login_attempt.la_window_start END`,
        modified: at,
      }),
    )
    .returning('la_failures')
    .executeTakeFirstOrThrow();
  return row.la_failures;
}

/**
 * Starts a login attempt: refused with the seconds to wait, or let through and counted as a failure
 * until `loginSucceeded` says otherwise.
 * @example const attempt = await beginAttempt(db, { email: 'a@example.jp', address: '127.0.0.1' })
 */
export async function beginAttempt(db: Kysely<Database>, subject: LoginSubject, now: Date = clockNow()): Promise<LoginAttempt | LoginDelay> {
  const t = now.getTime();
  const keys = Object.fromEntries(KINDS.map((kind) => [kind, counterKey(kind, subject)])) as Record<CounterKind, string>;
  const rows = await db
    .selectFrom('login_attempt')
    .select(['la_key', 'la_failures', 'modified'])
    .where('la_key', 'in', [...Object.values(keys), knownKey(subject)])
    .execute();
  const stored = new Map(rows.map((row) => [row.la_key, { failures: row.la_failures, last: Date.parse(row.modified), modified: row.modified }]));
  const known = stored.get(knownKey(subject));
  const delaying: CounterKind[] = known && t - known.last < LIMITS.loginKnownDays * DAY_MS ? ['pair'] : [...KINDS];

  const wait = Math.max(...delaying.map((kind) => waitMs(stored.get(keys[kind]), kind, t)));
  if (wait > 0) return { ok: false, waitSeconds: toSeconds(wait) };

  const before = {} as Record<CounterKind, string | undefined>;
  let lostGap = 0;
  for (const kind of KINDS) {
    const counter = stored.get(keys[kind]);
    const had = liveFailures(counter, t);
    before[kind] = had > 0 ? counter?.modified : undefined;
    const failures = await count(db, keys[kind], now);
    // Past its free failures a counter lets one attempt through per gap: ours only if nobody counted in between.
    const free = LIMITS.loginFreeFailures[kind];
    if (delaying.includes(kind) && failures > free && failures !== had + 1) lostGap = Math.max(lostGap, delaySeconds(failures, free));
  }
  if (lostGap > 0) return { ok: false, waitSeconds: lostGap };
  return { ok: true, subject, at: now.toISOString(), before };
}

/**
 * A correct password: clears the pair's counter, takes the attempt's count back from the account and
 * address counters, remembers the pair as known and drops forgotten rows.
 */
export async function loginSucceeded(db: Kysely<Database>, attempt: LoginAttempt, now: Date = clockNow()): Promise<void> {
  const { subject, at, before } = attempt;
  const nowIso = now.toISOString();
  await db.deleteFrom('login_attempt').where('la_key', '=', counterKey('pair', subject)).execute();
  const forgotten = new Date(now.getTime() - LIMITS.loginWindowMinutes * MINUTE_MS).toISOString();
  for (const kind of ['account', 'address'] as const) {
    // Unless another attempt counted since, the counter's last attempt is again the one before ours.
    await db
      .updateTable('login_attempt')
      .set({
        la_failures: sql<number>`CASE WHEN la_failures > 0 THEN la_failures - 1 ELSE 0 END`,
        modified: sql<string>`CASE WHEN modified = ${at} THEN ${before[kind] ?? forgotten} ELSE modified END`,
      })
      .where('la_key', '=', counterKey(kind, subject))
      .execute();
  }
  await db
    .insertInto('login_attempt')
    .values({ la_key: knownKey(subject), la_failures: 0, la_window_start: nowIso, modified: nowIso })
    .onConflict((oc) => oc.column('la_key').doUpdateSet({ modified: nowIso }))
    .execute();
  await db
    .deleteFrom('login_attempt')
    .where((eb) =>
      eb.or([
        eb.and([eb('la_key', 'not like', 'known:%'), eb('modified', '<', forgotten)]),
        eb('modified', '<', new Date(now.getTime() - LIMITS.loginKnownDays * DAY_MS).toISOString()),
      ]),
    )
    .execute();
}
