import { describe, expect, it } from 'vitest';
import { LIMITS } from '@/lib/protocol';
import { delaySeconds, waitMs } from '@/server/auth/rate-limit';

const WINDOW_MS = LIMITS.loginWindowMinutes * 60 * 1000;

describe('graded login delays (server/auth/rate-limit.ts)', () => {
  it('lets the free failures through, then doubles from 1 s up to the cap', () => {
    const free = LIMITS.loginFreeFailures.pair;
    expect(Array.from({ length: free }, (_, i) => delaySeconds(i, free))).toEqual(Array(free).fill(0));
    expect([free, free + 1, free + 2, free + 3, free + 4].map((f) => delaySeconds(f, free))).toEqual([1, 2, 4, 8, 16]);
    expect(delaySeconds(free + 50, free)).toBe(LIMITS.loginMaxDelaySeconds);
    expect(delaySeconds(100_000, free)).toBe(LIMITS.loginMaxDelaySeconds);
  });

  it('grades an address more slowly than an account or a pair', () => {
    const { pair, account, address } = LIMITS.loginFreeFailures;
    expect(pair).toBeLessThanOrEqual(account);
    expect(address).toBeGreaterThan(account);
    expect(delaySeconds(account, address)).toBe(0);
  });

  it('counts the wait from the last attempt, and forgets a counter left alone for the window', () => {
    const counter = { failures: LIMITS.loginFreeFailures.pair + 2, last: 1_000_000 };
    expect(waitMs(counter, 'pair', counter.last)).toBe(4000);
    expect(waitMs(counter, 'pair', counter.last + 2500)).toBe(1500);
    expect(waitMs(counter, 'pair', counter.last + 4000)).toBe(0);
    expect(waitMs({ failures: 1000, last: 0 }, 'pair', WINDOW_MS)).toBe(0);
    expect(waitMs({ failures: 1000, last: 0 }, 'pair', 1000)).toBe(LIMITS.loginMaxDelaySeconds * 1000 - 1000);
    expect(LIMITS.loginMaxDelaySeconds * 1000).toBeLessThan(WINDOW_MS);
    expect(waitMs(undefined, 'address', 0)).toBe(0);
    expect(waitMs({ failures: LIMITS.loginFreeFailures.pair, last: 0 }, 'address', 0)).toBe(0);
  });
});
