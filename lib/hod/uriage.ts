/** 配送売上 (`hod_uriage`): delivery sales of a period grouped by team, staff or customer. */

/** The groupings the screen offers. */
export const URIAGE_GROUPS = [
  { value: 'team', text: 'チーム別' },
  { value: 'staff', text: '担当者別' },
  { value: 'customer', text: '顧客別' },
] as const;

export type UriageGroup = (typeof URIAGE_GROUPS)[number]['value'];

export const isUriageGroup = (value: string): value is UriageGroup => URIAGE_GROUPS.some((g) => g.value === value);

/** One row of the answer: a group (or the grand total, key `total`) with its sums. */
export interface UriageRow {
  key: string;
  label: string;
  /** Orders counted (delivery date in the period, status 出荷済 or 処理済). */
  orders: number;
  /** Sum of the orders' totals: net, tax, tax-inclusive (uriage_total). */
  net: number;
  tax: number;
  total: number;
  /** From the delivery rounds of the period. */
  delivered: number;
  collected: number;
  cash: number;
}

/** `hod_uriage`'s answer (one element). */
export interface Uriage {
  from: string;
  to: string;
  group: UriageGroup;
  rows: UriageRow[];
  total: UriageRow;
}

/** The order statuses that count as delivery sales. */
export const URIAGE_STATUSES = ['shipped', 'processed'] as const;
