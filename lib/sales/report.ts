/**
 * 売上レポート (issue 13, /salesreport): what the report and the aging list answer, the period rules, the year-before
 * period a report compares with, and where each row of the report leads (the slips behind it on /sales/list) —
 * shared by the calls (server/sales/report.ts, server/sales/aging.ts) and the screen.
 */
import { addDays, addMonths, addYears, monthEnd } from '../day';
import type { RawFilters } from '../list/list-state';
import type { PeriodRules } from '../period';

/** The groupings the report offers. */
export const REPORT_GROUPS = [
  { value: 'month', text: '月別' },
  { value: 'client', text: '顧客別' },
  { value: 'item', text: '商品別' },
  { value: 'staff', text: '担当者別' },
  { value: 'team', text: 'チーム別' },
  { value: 'rate', text: '税率別' },
] as const;

export type ReportGroup = (typeof REPORT_GROUPS)[number]['value'];

export const isReportGroup = (value: string): value is ReportGroup => REPORT_GROUPS.some((g) => g.value === value);

/** The header of a report's first column: 「月」「顧客」… */
export const groupHeading = (group: ReportGroup): string => REPORT_GROUPS.find((g) => g.value === group)!.text.replace(/別$/, '');

/** A report's period: both days, at most a year (a leap year's 366 days). */
export const SALES_REPORT_PERIOD: PeriodRules = { required: true, maxDays: 366 };

/** The report's own filters beside the period: one customer, staff member or item. */
export interface ReportFilters {
  cl_id?: number;
  usr_id?: number;
  it_id?: number;
}

/** The figures of a row. */
export interface ReportFigures {
  /** 税抜. */
  net: number;
  /** 消費税. */
  tax: number;
  /** 税込 = net + tax. */
  total: number;
  /** Σ quantities of the lines naming an item (送料・レンタル・保証金 lines name none). */
  quantity: number;
}

/** One row: a month, customer, item, staff member, team or tax bucket (or the total, key `total`). */
export interface SalesReportRow extends ReportFigures {
  /**
   * What the row is: `2026-05` (month), a customer's, item's or user's id, a team's name, a bucket key (`10`, `8`,
   * `exempt`, `outside`); '' for the lines without one (no item, no staff, no team); `total`.
   */
  key: string;
  label: string;
  /** The same key's figures in the same period a year before. */
  prev: ReportFigures;
}

/** A series of the chart: one stack of the bars, its 税抜 per month. */
export interface ChartSeries {
  key: string;
  label: string;
  values: number[];
}

/** `salesreport`'s answer (one element). */
export interface SalesReport {
  from: string;
  to: string;
  /** The period a year before (`yearBefore`). */
  prev_from: string;
  prev_to: string;
  group: ReportGroup;
  filters: ReportFilters;
  /** The page of rows asked for (`n`, `p`), in the report's order. */
  rows: SalesReportRow[];
  /** How many rows there are in all. */
  row_count: number;
  total: SalesReportRow;
  /** Bars by month (税抜), stacked by tax bucket or by the group's largest rows (the rest as 「その他」; none for `month`). */
  chart: { months: string[]; rates: ChartSeries[]; groups: ChartSeries[] };
}

/** How many groups the chart stacks; the rest are one 「その他」. */
export const CHART_GROUPS = 8;

/**
 * The same period a year before: each day a year back, a month's last day staying its month's last day (so February
 * compares with all of February).
 * @example yearBefore({ from: '2025-03-01', to: '2026-02-28' }) // { from: '2024-03-01', to: '2025-02-28' }
 * @example yearBefore({ from: '2025-02-01', to: '2025-02-28' }) // { from: '2024-02-01', to: '2024-02-29' }
 */
export function yearBefore({ from, to }: { from: string; to: string }): { from: string; to: string } {
  const back = addYears(to, -1);
  return { from: addYears(from, -1), to: addDays(to, 1).endsWith('-01') ? monthEnd(back) : back };
}

/**
 * The months a period touches, as YYYY-MM.
 * @example monthsOf('2025-11-15', '2026-01-10') // ['2025-11', '2025-12', '2026-01']
 */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from.slice(0, 7); month <= to.slice(0, 7);) {
    months.push(month);
    month = addMonths(`${month}-01`, 1).slice(0, 7);
  }
  return months;
}

/**
 * The change from a year before: the difference and the percentage of the year before's figure (null without one).
 * @example yoyChange(1200, 1000) // { diff: 200, percent: 120 }
 */
export function yoyChange(now: number, prev: number): { diff: number; percent: number | null } {
  return { diff: now - prev, percent: prev === 0 ? null : Math.round((now / prev) * 1000) / 10 };
}

/**
 * The sales-list filters that list the slips behind a row: the period (a month's row: that month within it), the
 * report's own filters and the row's key. Undefined for a row no filter can name (the lines without an item, staff or
 * team); the total keeps the period and the report's filters.
 * @example drillFilters({ from: '2026-04-01', to: '2026-06-30', group: 'staff', filters: {} }, '3') // { date: ['2026-04-01', '2026-06-30'], usr_id: ['3'] }
 */
export function drillFilters(report: Pick<SalesReport, 'from' | 'to' | 'group' | 'filters'>, key: string): RawFilters | undefined {
  const { from, to, group, filters } = report;
  const out: RawFilters = { date: [from, to] };
  if (filters.cl_id) out.cl_id = String(filters.cl_id);
  if (filters.usr_id) out.usr_id = [String(filters.usr_id)];
  if (filters.it_id) out.it_id = String(filters.it_id);
  if (key === 'total') return out;
  if (key === '') return undefined;
  switch (group) {
    case 'month':
      out.date = [`${key}-01` > from ? `${key}-01` : from, monthEnd(`${key}-01`) < to ? monthEnd(`${key}-01`) : to];
      break;
    case 'client':
      out.cl_id = key;
      break;
    case 'item':
      out.it_id = key;
      break;
    case 'staff':
      out.usr_id = [key];
      break;
    case 'team':
      out.team = key;
      break;
    case 'rate':
      out.rate = [key];
      break;
  }
  return out;
}

/**
 * The aging buckets of an open invoice by days past its due date, the unbilled slips (and opening balances not yet
 * invoiced), and the payments not allocated (前受・未消込, negative): together what the customer owes, its 売掛残高.
 */
export const AGING_COLUMNS = [
  { key: 'unbilled', label: '未請求' },
  { key: 'current', label: '未到来' },
  { key: 'd30', label: '1〜30日' },
  { key: 'd60', label: '31〜60日' },
  { key: 'd90', label: '61〜90日' },
  { key: 'over90', label: '91日以上' },
  { key: 'unallocated', label: '前受・未消込' },
  { key: 'total', label: '合計' },
] as const;

export type AgingColumn = (typeof AGING_COLUMNS)[number]['key'];

/** One billing customer's receivables by age (or the total row, `cl_id` 0). */
export type AgingFigures = Record<AgingColumn, number>;

export interface AgingRow extends AgingFigures {
  cl_id: number;
  name: string;
}

/** The columns the aging list sorts by. */
export const AGING_SORTS = ['name', ...AGING_COLUMNS.map((c) => c.key)] as const;
export type AgingSort = (typeof AGING_SORTS)[number];

/** `aging_lst`'s answer (one element). */
export interface AgingList {
  as_of: string;
  rows: AgingRow[];
  /** How many billing customers owe something. */
  row_count: number;
  total: AgingFigures;
  col: AgingSort;
  odr: 'asc' | 'desc';
}

/**
 * The first overdue day of each bucket as of a day: an invoice due on or after `current` is not overdue yet; due on or
 * after `d30` is 1–30 days overdue, `d60` 31–60, `d90` 61–90, before `d90` 91 days or more.
 * @example agingEdges('2026-05-31') // { current: '2026-05-31', d30: '2026-05-01', d60: '2026-04-01', d90: '2026-03-02' }
 */
export function agingEdges(asOf: string): { current: string; d30: string; d60: string; d90: string } {
  return { current: asOf, d30: addDays(asOf, -30), d60: addDays(asOf, -60), d90: addDays(asOf, -90) };
}
