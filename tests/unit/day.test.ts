/**
 * lib/day: business dates on dayjs. Properties over 1990–2199: every function answers what the hand computations it
 * replaced answered (written out here with the native Date, as they were), and the Japan day of an instant is the
 * UTC+9 date.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays, addMonths, addYears, daysBetween, daysInMonth, formatInJapan, isDay, japanDay, japanTimestamp, jstDayStartIso, monthEnd, monthOf,
  monthOfDay, monthStart, shiftMonth, todayJst, weekdayOf,
} from '@/lib/day';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/* The replaced hand computations, as they were written. */
const oldLastDay = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const oldAddDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const oldAddYears = (day: string, years: number): string => {
  const [y, m, d] = day.split('-').map(Number);
  const year = y + years;
  return `${pad(year, 4)}-${pad(m)}-${pad(Math.min(d, oldLastDay(year, m)))}`;
};
const oldAddMonths = (day: string, months: number): string => {
  const [y, m, d] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = oldLastDay(first.getUTCFullYear(), first.getUTCMonth() + 1);
  return `${first.toISOString().slice(0, 8)}${pad(Math.min(d, last))}`;
};
const oldShiftMonth = (ym: string, months: number): string => {
  const index = Number(ym.slice(0, 4)) * 12 + Number(ym.slice(4, 6)) - 1 + months;
  return `${pad(Math.floor(index / 12), 4)}${pad((index % 12) + 1)}`;
};
const oldIsValidDay = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
};
const oldJapanDay = (t: number): string => new Date(t + 9 * 3_600_000).toISOString().slice(0, 10);

const year = fc.integer({ min: 1990, max: 2199 });
const month = fc.integer({ min: 1, max: 12 });
const dayArb = fc.tuple(year, month, fc.integer({ min: 1, max: 31 })).map(([y, m, d]) => `${y}-${pad(m)}-${pad(Math.min(d, oldLastDay(y, m)))}`);
const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2199, 11, 31) });

describe('lib/day', () => {
  it('month ends: daysInMonth, monthEnd and monthOf say what Date.UTC(y, m, 0) said, 1990–2199', () => {
    for (let y = 1990; y <= 2199; y++) {
      for (let m = 1; m <= 12; m++) {
        const last = oldLastDay(y, m);
        expect(daysInMonth(y, m)).toBe(last);
        expect(monthEnd(`${y}-${pad(m)}-15`)).toBe(`${y}-${pad(m)}-${pad(last)}`);
        expect(monthOf(`${y}${pad(m)}`)).toEqual({ ym: `${y}${pad(m)}`, from: `${y}-${pad(m)}-01`, to: `${y}-${pad(m)}-${pad(last)}`, days: last });
      }
    }
    expect(monthStart('2024-02-10')).toBe('2024-02-01');
    for (const bad of ['2025-05', '20255', '202513', '202500', '']) expect(monthOf(bad)).toBeUndefined();
    expect(monthOf('189912')?.to).toBe('1899-12-31');
  });

  it('adds days, months and years as the hand computations did (a month end stays within its month)', () => {
    fc.assert(fc.property(dayArb, fc.integer({ min: -800, max: 800 }), (day, n) => {
      expect(addDays(day, n)).toBe(oldAddDays(day, n));
      expect(daysBetween(day, addDays(day, n))).toBe(n);
    }), { numRuns: 2000 });
    fc.assert(fc.property(dayArb, fc.integer({ min: -120, max: 120 }), (day, n) => {
      expect(addMonths(day, n)).toBe(oldAddMonths(day, n));
    }), { numRuns: 2000 });
    fc.assert(fc.property(dayArb, fc.integer({ min: -5, max: 5 }), (day, n) => {
      expect(addYears(day, n)).toBe(oldAddYears(day, n));
    }), { numRuns: 2000 });
    fc.assert(fc.property(year, month, fc.integer({ min: -240, max: 240 }), (y, m, n) => {
      expect(shiftMonth(`${y}${pad(m)}`, n)).toBe(oldShiftMonth(`${y}${pad(m)}`, n));
    }), { numRuns: 2000 });
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
  });

  it('one day validator: isDay says what both earlier validators said', () => {
    fc.assert(fc.property(year, fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
      const text = `${y}-${pad(m)}-${pad(d)}`;
      expect(isDay(text)).toBe(oldIsValidDay(text));
    }), { numRuns: 3000 });
    for (const bad of ['2026-2-1', '2026/02/01', '20260201', '', ' 2026-02-01', '2026-02-29']) expect(isDay(bad)).toBe(false);
    expect(isDay(null)).toBe(false);
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('0099-02-28')).toBe(true);
  });

  it('weekdays and months of days', () => {
    fc.assert(fc.property(dayArb, (day) => {
      expect(weekdayOf(day)).toBe(new Date(`${day}T00:00:00Z`).getUTCDay());
    }), { numRuns: 1000 });
    expect(monthOfDay('2025-05-21')).toBe('202505');
  });

  it('Japan time of an instant: the UTC+9 day, rendering and the start of a Japan day', () => {
    fc.assert(fc.property(instant, (t) => {
      expect(japanDay(t)).toBe(oldJapanDay(t));
      expect(todayJst(new Date(t))).toBe(oldJapanDay(t));
      expect(formatInJapan(new Date(t).toISOString(), 'YYYY-MM-DD')).toBe(oldJapanDay(t));
      const iso = new Date(t + 9 * 3_600_000).toISOString();
      expect(japanTimestamp(new Date(t).toISOString())).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`);
    }), { numRuns: 1000 });
    fc.assert(fc.property(dayArb, (day) => {
      expect(jstDayStartIso(day)).toBe(new Date(Date.parse(`${day}T00:00:00+09:00`)).toISOString());
    }), { numRuns: 500 });
    expect(formatInJapan('2026-01-01T00:00:00.000Z', 'YYYY-MM-DD H:mm')).toBe('2026-01-01 9:00');
    expect(formatInJapan('no time', 'YYYY-MM-DD')).toBe('');
    expect(japanTimestamp('no time')).toBe('');
  });
});
