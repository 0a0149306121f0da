/**
 * The sales report's shared rules (lib/sales/report.ts): the year-before period, the months of a period, the change
 * from the year before, the sales-list filters a row links to, and the aging list's day edges.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '@/lib/format';
import { agingEdges, drillFilters, monthsOf, yearBefore, yoyChange } from '@/lib/sales/report';

describe('the sales report\'s periods', () => {
  it('compares with the same days a year before, a month\'s last day staying its last day (February in a leap year)', () => {
    expect(yearBefore({ from: '2026-04-01', to: '2026-05-31' })).toEqual({ from: '2025-04-01', to: '2025-05-31' });
    expect(yearBefore({ from: '2025-02-01', to: '2025-02-28' })).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(yearBefore({ from: '2024-02-29', to: '2024-02-29' })).toEqual({ from: '2023-02-28', to: '2023-02-28' });
    expect(yearBefore({ from: '2026-01-10', to: '2026-01-20' })).toEqual({ from: '2025-01-10', to: '2025-01-20' });
  });

  it('lists the months a period touches, across a year\'s end', () => {
    expect(monthsOf('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsOf('2026-05-01', '2026-05-31')).toEqual(['2026-05']);
  });

  it('answers the change from the year before as a difference and a percentage (none without a year before)', () => {
    expect(yoyChange(1200, 1000)).toEqual({ diff: 200, percent: 120 });
    expect(yoyChange(-227, 1000)).toEqual({ diff: -1227, percent: -22.7 });
    expect(yoyChange(500, 0)).toEqual({ diff: 500, percent: null });
  });
});

describe('the slips behind a row (drill-down filters of the sales list)', () => {
  const report = { from: '2026-04-10', to: '2026-05-20', filters: {} };
  it('narrows the period to a month\'s row within it, and names the row\'s customer, staff, item, team or bucket', () => {
    expect(drillFilters({ ...report, group: 'month' }, '2026-04')).toEqual({ date: ['2026-04-10', '2026-04-30'] });
    expect(drillFilters({ ...report, group: 'month' }, '2026-05')).toEqual({ date: ['2026-05-01', '2026-05-20'] });
    expect(drillFilters({ ...report, group: 'client' }, '12')).toEqual({ date: ['2026-04-10', '2026-05-20'], cl_id: '12' });
    expect(drillFilters({ ...report, group: 'staff' }, '3')).toEqual({ date: ['2026-04-10', '2026-05-20'], usr_id: ['3'] });
    expect(drillFilters({ ...report, group: 'item' }, '7')).toEqual({ date: ['2026-04-10', '2026-05-20'], it_id: '7' });
    expect(drillFilters({ ...report, group: 'team' }, '東京')).toEqual({ date: ['2026-04-10', '2026-05-20'], team: '東京' });
    expect(drillFilters({ ...report, group: 'rate' }, '8')).toEqual({ date: ['2026-04-10', '2026-05-20'], rate: ['8'] });
  });

  it('keeps the report\'s own filters; a row without a key (no item, staff or team) has no link; the total has the period', () => {
    const filtered = { ...report, group: 'month' as const, filters: { cl_id: 5, usr_id: 3, it_id: 7 } };
    expect(drillFilters(filtered, 'total')).toEqual({ date: ['2026-04-10', '2026-05-20'], cl_id: '5', usr_id: ['3'], it_id: '7' });
    expect(drillFilters({ ...report, group: 'item' }, '')).toBeUndefined();
  });
});

describe('the aging list\'s day edges', () => {
  it('puts 30 days past due in 1–30, 31 in 31–60, 60/61 and 90/91 likewise', () => {
    const edge = agingEdges('2026-06-30');
    const bucketOf = (days: number) => {
      const due = addDays('2026-06-30', -days);
      return due >= edge.current ? 'current' : due >= edge.d30 ? 'd30' : due >= edge.d60 ? 'd60' : due >= edge.d90 ? 'd90' : 'over90';
    };
    expect([-5, 0, 1, 30, 31, 60, 61, 90, 91].map(bucketOf)).toEqual(['current', 'current', 'd30', 'd30', 'd60', 'd60', 'd90', 'd90', 'over90']);
  });
});
