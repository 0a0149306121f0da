/**
 * Closing periods and due dates (lib/closing/period): the closing date is min(締日, the month's last day), a group's
 * periods follow one another without a gap or an overlap (a property over ten years of months and random days), the
 * parameters are refused naming the field, and 入金予定日 moves past Saturdays, Sundays, public holidays and 12/31–1/3.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bankDayFrom, CLOSING_GROUPS, closingDateOf, closingLabel, closingMonthOf, closingOf, closingPeriod, dueDateOf, isBankHoliday, paymentTermsProblem, shiftMonth,
} from '@/lib/closing/period';
import { addDays } from '@/lib/format';
import { MESSAGES } from '@/lib/protocol';

describe('closing periods', () => {
  it('runs from the previous closing date + 1 to the closing date (the issue\'s examples)', () => {
    expect(closingPeriod('20', '202505')).toEqual({ sime_gp: '20', sime_ym: '202505', closing_date: '2025-05-20', from: '2025-04-21', to: '2025-05-20' });
    expect(closingPeriod('31', '202402')).toEqual({ sime_gp: '31', sime_ym: '202402', closing_date: '2024-02-29', from: '2024-02-01', to: '2024-02-29' });
    expect(closingPeriod('31', '202302')).toMatchObject({ from: '2023-02-01', to: '2023-02-28' });
    expect(closingPeriod('5', '202501')).toMatchObject({ from: '2024-12-06', to: '2025-01-05' });
    expect(closingPeriod('31', '202403')).toMatchObject({ from: '2024-03-01', to: '2024-03-31' });
    expect(closingPeriod('25', '202403')).toMatchObject({ from: '2024-02-26', to: '2024-03-25' });
  });

  it('the closing date is min(締日, the month\'s last day)', () => {
    expect(closingDateOf('31', '202404')).toBe('2024-04-30');
    expect(closingDateOf('31', '202502')).toBe('2025-02-28');
    expect(closingDateOf('10', '202502')).toBe('2025-02-10');
  });

  it('a group\'s periods cover every day once: each starts the day after the last ended, and every day finds its month', () => {
    for (const gp of CLOSING_GROUPS) {
      for (let ym = '201912'; ym < '203001'; ym = shiftMonth(ym, 1)) {
        const period = closingPeriod(gp, shiftMonth(ym, 1));
        expect(period.from).toBe(addDays(closingPeriod(gp, ym).to, 1));
        expect(period.to.slice(0, 7).replace('-', '')).toBe(period.sime_ym);
      }
    }
    fc.assert(fc.property(fc.constantFrom(...CLOSING_GROUPS), fc.integer({ min: 0, max: 3650 }), (gp, offset) => {
      const day = addDays('2020-01-01', offset);
      const period = closingPeriod(gp, closingMonthOf(gp, day));
      return period.from <= day && day <= period.to;
    }), { numRuns: 2000 });
  });

  it('names the month and group: 「2025年5月 20日締め」, 「2024年2月 末日締め」', () => {
    expect(closingLabel('20', '202505')).toBe('2025年5月 20日締め');
    expect(closingLabel('31', '202402')).toBe('2024年2月 末日締め');
  });

  it('takes sime_ym without its hyphen and refuses a bad group or month naming the field', () => {
    expect(closingOf('20', '202505')).toMatchObject({ ok: true, period: { closing_date: '2025-05-20' } });
    expect(closingOf(' 5 ', '202501')).toMatchObject({ ok: true, period: { sime_gp: '5' } });
    expect(closingOf('7', '202505')).toEqual({ ok: false, problem: { field: 'sime_gp', message: MESSAGES.closingBadGroup } });
    expect(closingOf('', '202505')).toMatchObject({ ok: false, problem: { field: 'sime_gp' } });
    for (const bad of ['2025-05', '20255', '202513', '202500', '199912', '', '２０２５０５']) {
      expect(closingOf('20', bad)).toEqual({ ok: false, problem: { field: 'sime_ym', message: MESSAGES.closingBadMonth } });
    }
  });
});

describe('入金予定日', () => {
  it('knows the bank holidays: Saturday, Sunday, public holidays, 12/31–1/3', () => {
    expect(['2025-05-31', '2025-06-01', '2025-05-05', '2024-12-31', '2025-01-02', '2025-01-03', '2025-02-11'].map(isBankHoliday)).toEqual([true, true, true, true, true, true, true]);
    expect(['2025-06-02', '2025-01-06', '2024-12-30', '2025-02-12'].map(isBankHoliday)).toEqual([false, false, false, false]);
    expect(bankDayFrom('2024-12-31')).toBe('2025-01-06');
    expect(bankDayFrom('2025-05-03')).toBe('2025-05-07');
    expect(bankDayFrom('2025-06-02')).toBe('2025-06-02');
  });

  it('is collect_cycle months after the closing month, on collect_day (31 or past the end = the last day), on a bank day', () => {
    expect(dueDateOf(closingPeriod('5', '202505'), '0', 25)).toBe('2025-05-26'); // 5/25 is a Sunday
    expect(dueDateOf(closingPeriod('5', '202505'), '1', 31)).toBe('2025-06-30');
    expect(dueDateOf(closingPeriod('5', '202505'), '2', 10)).toBe('2025-07-10');
    expect(dueDateOf(closingPeriod('5', '202412'), '1', 30)).toBe('2025-01-30');
    expect(dueDateOf(closingPeriod('5', '202501'), '1', 30)).toBe('2025-02-28'); // past February's end
    expect(dueDateOf(closingPeriod('5', '202411'), '1', 31)).toBe('2025-01-06'); // 12/31 and the new year's holidays, then a weekend
    expect(dueDateOf(closingPeriod('5', '202501'), '1', 11)).toBe('2025-02-12'); // 建国記念の日
    expect(dueDateOf(closingPeriod('5', '202505'), '', '')).toBe('2025-06-30'); // nothing set: 翌月末
  });

  it('is always a bank day in the month collect_cycle names, or just after it', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 300 }), fc.constantFrom('0', '1', '2', ''), fc.integer({ min: 0, max: 40 }), (m, cycle, day) => {
      const ym = shiftMonth('202001', m);
      const due = dueDateOf(closingPeriod('5', ym), cycle, day);
      const month = shiftMonth(ym, cycle === '' ? 1 : Number(cycle));
      return !isBankHoliday(due) && due.slice(0, 7).replace('-', '') >= month && due <= addDays(`${closingDateOf('31', month)}`, 10);
    }), { numRuns: 2000 });
  });

  it('never precedes the closing date: 当月 on a day before the 締日 is due on the closing date (or the bank day after)', () => {
    expect(dueDateOf(closingPeriod('20', '202505'), '0', 10)).toBe('2025-05-20');
    expect(dueDateOf(closingPeriod('31', '202505'), '0', 30)).toBe('2025-06-02'); // 5/31 is a Saturday
    fc.assert(fc.property(fc.integer({ min: 0, max: 300 }), fc.constantFrom(...CLOSING_GROUPS), fc.constantFrom('0', '1', '2', ''), fc.integer({ min: 0, max: 40 }), (m, gp, cycle, day) => {
      const period = closingPeriod(gp, shiftMonth('202001', m));
      return dueDateOf(period, cycle, day) >= period.closing_date;
    }), { numRuns: 2000 });
  });
});

describe('payment terms that cannot happen', () => {
  it('refuses 当月 on a day before the 締日, naming both; 翌月 or a day on or after the 締日 is fine', () => {
    expect(paymentTermsProblem('20', '0', 10)).toBe('入金予定（当月10日）が締日（20日締め）より前です。締め日より前には請求できないため、回収日を締日以降にするか、回収月を翌月以降にしてください。');
    expect(paymentTermsProblem('31', '0', 30)).toMatch(/^入金予定（当月30日）が締日（末日締め）より前です/);
    for (const [gp, cycle, day] of [['20', '0', 20], ['20', '0', 25], ['20', '0', ''], ['31', '0', 31], ['20', '1', 10], ['20', '', 10], ['', '0', 10], ['5', '0', 5]] as const) {
      expect(paymentTermsProblem(gp, cycle, day), `${gp} ${cycle} ${day}`).toBeUndefined();
    }
  });
});
