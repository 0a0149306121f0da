/**
 * The server's one clock (server/http/clock): a pinned clock is every "now" of the server, the Japan today follows
 * it, and stamps stay strictly increasing even when the clock stands still.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clockNow, japanToday, nextStamp, nowIso, nowMs, pinClock } from '@/server/http/clock';

describe('the one clock', () => {
  afterEach(() => pinClock(undefined));

  it('pinned, it is the now of every reading, and the Japan today is its UTC+9 day', () => {
    pinClock('2026-11-25T15:30:00.000Z');
    expect(nowIso()).toBe('2026-11-25T15:30:00.000Z');
    expect(clockNow().getTime()).toBe(nowMs());
    expect(japanToday()).toBe('2026-11-26');
    pinClock(undefined);
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(1000);
  });

  it('stamps increase on a standing clock and pass `after`', () => {
    pinClock('2030-01-01T00:00:00.000Z');
    const a = nextStamp();
    const b = nextStamp();
    expect(b > a).toBe(true);
    expect(nextStamp('2031-01-01T00:00:00.000Z')).toBe('2031-01-01T00:00:00.001Z');
  });
});
