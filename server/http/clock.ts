/**
 * Timestamps: ISO-8601 UTC text with milliseconds. `modified` must change on every write, even
 * twice in the same millisecond, because it is the edit-conflict token.
 */

let last = 0;

/**
 * A new timestamp later than every one this process issued and later than `after`.
 * @example nextStamp('2026-01-01T00:00:00.000Z') // e.g. '2026-11-22T03:04:05.678Z'
 */
export function nextStamp(after?: string | null): string {
  let t = Date.now();
  const floor = after ? Date.parse(after) : Number.NaN;
  if (!Number.isNaN(floor) && t <= floor) t = floor + 1;
  if (t <= last) t = last + 1;
  last = t;
  return new Date(t).toISOString();
}
