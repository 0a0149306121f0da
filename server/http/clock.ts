/**
 * The server's one clock: every "now" of the server (timestamps, the Japan "today", file ages, job times) is read
 * here, so a test can pin it (`pinClock`). Timestamps are ISO-8601 UTC text with milliseconds. `modified` must change
 * on every write, even twice in the same millisecond, because it is the edit-conflict token.
 */
import { japanDay } from '../../lib/day';

let pinned: number | undefined;

/**
 * Stops the clock at an instant (a test's fixed "now"); `undefined` lets it run again. Stamps stay increasing.
 * @example pinClock('2026-11-25T01:00:00.000Z') // japanToday() === '2026-11-25'
 */
export function pinClock(at: Date | string | number | undefined): void {
  pinned = at === undefined ? undefined : new Date(at).getTime();
}

/** Now, in epoch milliseconds. */
export const nowMs = (): number => pinned ?? Date.now();

/** Now, as a Date. */
export const clockNow = (): Date => new Date(nowMs());

/** Now, as ISO text (a time that need not be a conflict token: a job's start, a file's creation). */
export const nowIso = (): string => clockNow().toISOString();

/** Today in Japan (YYYY-MM-DD), of the one clock. */
export const japanToday = (): string => japanDay(nowMs());

let last = 0;

/**
 * A new timestamp later than every one this process issued and later than `after`.
 * @example nextStamp('2026-01-01T00:00:00.000Z') // e.g. '2026-11-22T03:04:05.678Z'
 */
export function nextStamp(after?: string | null): string {
  let t = nowMs();
  const floor = after ? Date.parse(after) : Number.NaN;
  if (!Number.isNaN(floor) && t <= floor) t = floor + 1;
  if (t <= last) t = last + 1;
  last = t;
  return new Date(t).toISOString();
}
