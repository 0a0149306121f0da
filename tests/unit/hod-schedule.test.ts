import { describe, expect, it } from 'vitest';
import { addDays } from '@/lib/format';
import {
  closedReason, deliveriesDue, EXCEPTION_KIND, HOLIDAY_RULE, isDay, type ScheduleException, type ScheduleInput,
} from '@/lib/hod/schedule';
import { hodPauseResource, PAUSE_NEEDS_END } from '@/lib/resources/hod-pause';

const base: ScheduleInput = {
  cl_id: 7, haiso_flag: 1, haiso_type: '1', haiso_wks: 1, haiso_dow: '3', haiso_day: null, haiso_week: '',
  haiso_num: 2, haiso_holiday: '', next_shipping_date: '2026-04-01',
};
const schedule = (extra: Partial<ScheduleInput>): ScheduleInput => ({ ...base, ...extra });
const pause = (from: string, to: string, reason = ''): ScheduleException => ({ kind: EXCEPTION_KIND.pause, from_date: from, to_date: to, reason });
const skipOn = (day: string, reason = ''): ScheduleException => ({ kind: EXCEPTION_KIND.skip, from_date: day, to_date: day, reason });
const originals = (s: ScheduleInput, from: string, to: string, ex: ScheduleException[] = []): string[] =>
  deliveriesDue(s, ex, from, to).deliveries.map((d) => d.original_date);

describe('closed days', () => {
  it('knows Sundays and Japanese public holidays, and business days', () => {
    expect(closedReason('2026-05-04')).toBe('みどりの日');
    expect(closedReason('2026-05-06')).toContain('振替休日');
    expect(closedReason('2026-06-07')).toBe('日曜日');
    expect(closedReason('2027-01-01')).toBe('元日');
    expect(closedReason('2026-05-07')).toBeUndefined();
    expect(closedReason('2026-05-02')).toBeUndefined();
  });
  it('accepts only real calendar days', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-2-1')).toBe(false);
  });
});

describe('週ごと (type 1)', () => {
  it('delivers every week on the weekday and moves 昭和の日 to the next business day', () => {
    const { deliveries, next_shipping_date } = deliveriesDue(base, [], '2026-04-01', '2026-04-30');
    expect(deliveries.map((d) => [d.original_date, d.date, d.quantity, d.status])).toEqual([
      ['2026-04-01', '2026-04-01', 2, 'deliver'],
      ['2026-04-08', '2026-04-08', 2, 'deliver'],
      ['2026-04-15', '2026-04-15', 2, 'deliver'],
      ['2026-04-22', '2026-04-22', 2, 'deliver'],
      ['2026-04-29', '2026-04-30', 2, 'deliver'],
    ]);
    expect(deliveries[4].note).toContain('昭和の日のため翌営業日');
    expect(deliveries[0].note).toBe('');
    expect(next_shipping_date).toBe('2026-05-06');
  });
  it('counts days right across years, leap days and centuries (against lib/format addDays)', () => {
    for (const anchor of ['1999-12-29', '2024-02-27', '2099-12-30']) {
      const s = schedule({ haiso_dow: '', next_shipping_date: anchor, haiso_holiday: HOLIDAY_RULE.skip });
      const expected = Array.from({ length: 260 }, (_, i) => addDays(anchor, 7 * i));
      expect(originals(s, anchor, addDays(anchor, 7 * 259))).toEqual(expected);
    }
  });
  it('delivers every n weeks from the anchor, aligning an anchor that is not on the weekday', () => {
    const s = schedule({ haiso_wks: 2, haiso_dow: '1', next_shipping_date: '2026-04-25' });
    expect(originals(s, '2026-04-01', '2026-05-31')).toEqual(['2026-04-27', '2026-05-11', '2026-05-25']);
    expect(deliveriesDue(s, [], '2026-04-01', '2026-05-31').next_shipping_date).toBe('2026-06-08');
  });
});

describe('2026 Golden Week', () => {
  const monday = schedule({ haiso_dow: '1', next_shipping_date: '2026-05-04' });
  it('moves みどりの日 past こどもの日 and the 振替休日 to Thursday 5/7 (next business day)', () => {
    const [d] = deliveriesDue(monday, [], '2026-05-04', '2026-05-04').deliveries;
    expect(d).toMatchObject({ original_date: '2026-05-04', date: '2026-05-07', status: 'deliver', quantity: 2 });
  });
  it('moves it to Saturday 5/2 with the previous-business-day rule', () => {
    const [d] = deliveriesDue({ ...monday, haiso_holiday: HOLIDAY_RULE.previous }, [], '2026-05-04', '2026-05-04').deliveries;
    expect(d).toMatchObject({ original_date: '2026-05-04', date: '2026-05-02', status: 'deliver' });
    expect(d.note).toContain('前営業日');
  });
  it('skips it with the skip rule', () => {
    const [d] = deliveriesDue({ ...monday, haiso_holiday: HOLIDAY_RULE.skip }, [], '2026-05-04', '2026-05-04').deliveries;
    expect(d).toMatchObject({ original_date: '2026-05-04', date: '', status: 'skip', quantity: 0 });
    expect(d.note).toContain('みどりの日');
  });
});

describe('year-end', () => {
  const first = schedule({ haiso_type: '2', haiso_day: 1, next_shipping_date: '2026-12-01' });
  it('moves 元日 2027 to the next business day across the year boundary', () => {
    const { deliveries, next_shipping_date } = deliveriesDue(first, [], '2026-12-01', '2027-01-31');
    expect(deliveries.map((d) => [d.original_date, d.date])).toEqual([['2026-12-01', '2026-12-01'], ['2027-01-01', '2027-01-02']]);
    expect(next_shipping_date).toBe('2027-02-01');
  });
  it('moves it back to 12/31 with the previous-business-day rule', () => {
    const { deliveries } = deliveriesDue({ ...first, haiso_holiday: HOLIDAY_RULE.previous }, [], '2027-01-01', '2027-01-01');
    expect(deliveries.map((d) => d.date)).toEqual(['2026-12-31']);
  });
});

describe('毎月 (types 2 and 3)', () => {
  it('clamps day 31 to the last day of shorter months (and 2/29 in a leap year)', () => {
    const s = schedule({ haiso_type: '2', haiso_day: 31, next_shipping_date: '2026-01-01' });
    expect(originals(s, '2026-01-01', '2026-06-30')).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
    expect(originals({ ...s, next_shipping_date: '2028-02-01' }, '2028-02-01', '2028-02-29')).toEqual(['2028-02-29']);
    const may = deliveriesDue(s, [], '2026-05-01', '2026-05-31').deliveries[0];
    expect(may).toMatchObject({ original_date: '2026-05-31', date: '2026-06-01' });
    expect(may.note).toContain('日曜日');
  });
  it('takes the n-th weekday of each month', () => {
    const secondTuesday = schedule({ haiso_type: '3', haiso_dow: '2', haiso_week: '2', next_shipping_date: '2026-01-01' });
    expect(originals(secondTuesday, '2026-01-01', '2026-06-30')).toEqual(['2026-01-13', '2026-02-10', '2026-03-10', '2026-04-14', '2026-05-12', '2026-06-09']);
  });
  it('takes the last weekday of each month for week 5', () => {
    const lastFriday = schedule({ haiso_type: '3', haiso_dow: '5', haiso_week: '5', next_shipping_date: '2026-01-01' });
    expect(originals(lastFriday, '2026-01-01', '2026-06-30')).toEqual(['2026-01-30', '2026-02-27', '2026-03-27', '2026-04-24', '2026-05-29', '2026-06-26']);
  });
  it('starts at the first monthly date on or after the anchor', () => {
    const s = schedule({ haiso_type: '2', haiso_day: 10, next_shipping_date: '2026-04-15' });
    expect(originals(s, '2026-04-01', '2026-06-30')).toEqual(['2026-05-10', '2026-06-10']);
  });
});

describe('pauses and skips', () => {
  it('skips deliveries inside a pause period and on a one-off skip, with the reason', () => {
    const { deliveries } = deliveriesDue(base, [pause('2026-04-10', '2026-04-20', '旅行'), skipOn('2026-04-22')], '2026-04-01', '2026-04-30');
    expect(deliveries.map((d) => [d.original_date, d.status, d.quantity])).toEqual([
      ['2026-04-01', 'deliver', 2], ['2026-04-08', 'deliver', 2], ['2026-04-15', 'skip', 0], ['2026-04-22', 'skip', 0], ['2026-04-29', 'deliver', 2],
    ]);
    expect(deliveries[2].note).toBe('休止期間（旅行）');
    expect(deliveries[3].note).toBe('スキップ');
  });
  it('skips a delivery moved off a holiday into a pause', () => {
    const [d] = deliveriesDue(base, [pause('2026-04-30', '2026-05-10')], '2026-04-29', '2026-04-29').deliveries;
    expect(d).toMatchObject({ original_date: '2026-04-29', status: 'skip' });
  });
  it('ignores exceptions of other days', () => {
    expect(deliveriesDue(base, [skipOn('2026-04-02'), pause('2026-05-01', '2026-05-31')], '2026-04-01', '2026-04-30').deliveries.every((d) => d.status === 'deliver')).toBe(true);
  });
});

describe('ranges and the anchor', () => {
  const cases: ScheduleInput[] = [
    base,
    schedule({ haiso_wks: 3, haiso_dow: '0', haiso_holiday: HOLIDAY_RULE.previous }),
    schedule({ haiso_type: '2', haiso_day: 31 }),
    schedule({ haiso_type: '2', haiso_day: 4, haiso_holiday: HOLIDAY_RULE.skip }),
    schedule({ haiso_type: '3', haiso_dow: '1', haiso_week: '1' }),
  ];
  const exceptions = [pause('2026-08-10', '2026-08-20'), skipOn('2026-12-02')];

  it('gives the same deliveries for one range as for consecutive ranges with the anchor advanced', () => {
    for (const s of cases) {
      const whole = deliveriesDue(s, exceptions, '2026-04-01', '2027-03-31');
      const parts = [];
      let anchor = s.next_shipping_date;
      for (let from = '2026-04-01'; from <= '2027-03-31'; from = addDays(from, 30)) {
        const to = addDays(from, 29) > '2027-03-31' ? '2027-03-31' : addDays(from, 29);
        const part = deliveriesDue({ ...s, next_shipping_date: anchor }, exceptions, from, to);
        parts.push(...part.deliveries);
        anchor = part.next_shipping_date;
      }
      expect(parts).toEqual(whole.deliveries);
      expect(anchor).toBe(whole.next_shipping_date);
    }
  });
  it('answers the same for the same input (idempotent, nothing kept between calls)', () => {
    for (const s of cases) expect(deliveriesDue(s, exceptions, '2026-04-01', '2026-06-30')).toEqual(deliveriesDue(s, exceptions, '2026-04-01', '2026-06-30'));
  });
  it('advances next_shipping_date to the first scheduled date after the range', () => {
    for (const s of cases) {
      const { next_shipping_date } = deliveriesDue(s, exceptions, '2026-04-01', '2026-06-30');
      expect(next_shipping_date! > '2026-06-30').toBe(true);
      expect(originals({ ...s, next_shipping_date }, '2026-07-01', '2026-12-31')[0]).toBe(next_shipping_date);
    }
  });
  it('keeps the anchor of an anchor after the range and answers nothing', () => {
    expect(deliveriesDue(schedule({ next_shipping_date: '2026-09-02' }), [], '2026-04-01', '2026-04-30')).toEqual({ deliveries: [], next_shipping_date: '2026-09-02' });
  });
  it('answers nothing for a schedule that is off or incomplete', () => {
    expect(deliveriesDue(schedule({ haiso_flag: 0 }), [], '2026-04-01', '2026-04-30')).toEqual({ deliveries: [], next_shipping_date: '2026-04-01' });
    expect(deliveriesDue(schedule({ haiso_type: '0' }), [], '2026-04-01', '2026-04-30').deliveries).toEqual([]);
    expect(deliveriesDue(schedule({ next_shipping_date: null }), [], '2026-04-01', '2026-04-30')).toEqual({ deliveries: [], next_shipping_date: null });
  });
});

describe('休配・スキップ declaration check (form and server)', () => {
  it('names 終了日 for a pause without an end, an end before the start, and a skip longer than a day', () => {
    const check = hodPauseResource.check;
    expect(check({ kind: '1', from_date: '2026-06-10', to_date: '' })).toEqual({ to_date: PAUSE_NEEDS_END });
    expect(check({ kind: '1', from_date: '2026-06-10', to_date: '2026-06-01' })?.to_date).toMatch(/終了日は開始日以降/);
    expect(check({ kind: '2', from_date: '2026-06-10', to_date: '2026-06-11' })?.to_date).toMatch(/スキップの終了日は開始日と同じ日/);
    expect(check({ kind: '1', from_date: '2026-06-10', to_date: '2026-06-10' })).toBeUndefined();
    expect(check({ kind: '2', from_date: '2026-06-10', to_date: '' })).toBeUndefined();
  });
});
