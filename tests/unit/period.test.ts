import { describe, expect, it } from 'vitest';
import { COMING_PRESETS, FILTER_PRESETS, HOD_PERIOD, PAST_PRESETS, PERIOD_PRESETS, periodDays, periodProblem, presetPeriod } from '@/lib/period';
import { HOD_MAX_DAYS, MESSAGES } from '@/lib/protocol';

describe('period presets (Japan days, weeks Monday to Sunday)', () => {
  // 2026-11-25 is a Wednesday.
  const today = '2026-11-25';
  it.each([
    ['today', '2026-11-25', '2026-11-25'],
    ['yesterday', '2026-11-24', '2026-11-24'],
    ['tomorrow', '2026-11-26', '2026-11-26'],
    ['thisWeek', '2026-11-23', '2026-11-29'],
    ['lastWeek', '2026-11-16', '2026-11-22'],
    ['nextWeek', '2026-11-30', '2026-12-06'],
    ['thisMonth', '2026-11-01', '2026-11-30'],
    ['lastMonth', '2026-10-01', '2026-10-31'],
    ['nextMonth', '2026-12-01', '2026-12-31'],
  ] as const)('%s', (name, from, to) => {
    expect(presetPeriod(name, today)).toEqual({ from, to });
  });

  it('a Sunday belongs to the week that began the Monday before', () => {
    expect(presetPeriod('thisWeek', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(presetPeriod('thisWeek', '2026-11-30')).toEqual({ from: '2026-11-30', to: '2026-12-06' });
  });

  it('months cross years and know February', () => {
    expect(presetPeriod('lastMonth', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetPeriod('nextMonth', '2026-12-31')).toEqual({ from: '2027-01-01', to: '2027-01-31' });
    expect(presetPeriod('nextMonth', '2028-01-31')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(presetPeriod('thisMonth', '2027-02-10')).toEqual({ from: '2027-02-01', to: '2027-02-28' });
  });

  it('every offered preset has a Japanese label and fits the regular-delivery limit', () => {
    for (const name of new Set([...PAST_PRESETS, ...COMING_PRESETS, ...FILTER_PRESETS])) {
      expect(PERIOD_PRESETS[name].label).toMatch(/^[今昨明先来][日週月]$/);
      for (const day of ['2026-01-31', '2026-02-28', '2026-12-31']) expect(periodProblem(presetPeriod(name, day), HOD_PERIOD)).toBeUndefined();
    }
  });
});

describe('periodProblem: the rules of every period', () => {
  it('counts both ends', () => {
    expect(periodDays({ from: '2026-11-01', to: '2026-11-01' })).toBe(1);
    expect(periodDays({ from: '2026-03-01', to: '2026-03-31' })).toBe(31);
  });

  it('a list filter may leave either end open, but not put the end before the start', () => {
    expect(periodProblem({ from: '', to: '' })).toBeUndefined();
    expect(periodProblem({ from: '2026-11-01', to: '' })).toBeUndefined();
    expect(periodProblem({ from: '', to: '2026-11-01' })).toBeUndefined();
    expect(periodProblem({ from: '2026-11-10', to: '2026-11-10' })).toBeUndefined();
    expect(periodProblem({ from: '2026-11-10', to: '2026-11-09' })).toEqual({ field: 'to', message: MESSAGES.hodToBeforeFrom });
    expect(periodProblem({ from: '2026-11-31', to: '' })).toEqual({ field: 'from', message: MESSAGES.hodBadFrom });
  });

  it('the regular-delivery screens need both days and at most 93 of them, each problem named as the server names it', () => {
    expect(periodProblem({ from: '', to: '2026-11-01' }, HOD_PERIOD)).toEqual({ field: 'from', message: MESSAGES.hodBadFrom });
    expect(periodProblem({ from: '2026-13-01', to: '2026-11-01' }, HOD_PERIOD)).toEqual({ field: 'from', message: MESSAGES.hodBadFrom });
    expect(periodProblem({ from: '2026-11-01', to: '' }, HOD_PERIOD)).toEqual({ field: 'to', message: MESSAGES.hodBadTo });
    expect(periodProblem({ from: '2026-11-01', to: '2026-02-30' }, HOD_PERIOD)).toEqual({ field: 'to', message: MESSAGES.hodBadTo });
    expect(periodProblem({ from: '2026-11-10', to: '2026-11-01' }, HOD_PERIOD)).toEqual({ field: 'to', message: MESSAGES.hodToBeforeFrom });
    expect(periodProblem({ from: '2026-01-01', to: '2026-04-03' }, HOD_PERIOD)).toBeUndefined();
    expect(periodDays({ from: '2026-01-01', to: '2026-04-03' })).toBe(HOD_MAX_DAYS);
    expect(periodProblem({ from: '2026-01-01', to: '2026-04-04' }, HOD_PERIOD)).toEqual({ field: 'to', message: MESSAGES.hodRangeTooLong });
    expect(MESSAGES.hodRangeTooLong).toBe('期間は 93 日以内で指定してください。');
  });
});
