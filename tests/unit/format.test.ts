/** Dates and times as the screens and files write them (lib/format.ts): Japan time. */
import { describe, expect, it } from 'vitest';
import { formatDate, formatTimestamp } from '@/lib/format';

describe('formatTimestamp', () => {
  it('writes a stored timestamp in Japan time to the second', () => {
    expect(formatTimestamp('2026-01-01T00:00:00.000Z')).toBe('2026-01-01 09:00:00');
    expect(formatTimestamp('2026-03-31T14:59:59.999Z')).toBe('2026-03-31 23:59:59');
  });
  it('moves to the next Japan day at 15:00 UTC, across a month and a year', () => {
    expect(formatTimestamp('2026-02-28T15:00:00.000Z')).toBe('2026-03-01 00:00:00');
    expect(formatTimestamp('2025-12-31T15:00:01.000Z')).toBe('2026-01-01 00:00:01');
    expect(formatDate('2025-12-31T15:00:01.000Z')).toBe('2026-01-01');
  });
  it('writes nothing for an empty or unreadable value', () => {
    for (const value of ['', null, undefined, 'not a time']) expect(formatTimestamp(value)).toBe('');
  });
});
