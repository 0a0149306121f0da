/**
 * 月次サーバーレンタル (issue 12 "Monthly server rental"): the month a run bills (`ym` YYYYMM), the part of it an
 * agreement or a server is charged for, and the pro-rata fee — shared by the preview, the job (server/sales/rental.ts)
 * and the screen (/sales/rental).
 */
import { monthOf } from '../day';
import { divideRounded, type Rounding } from '../money/rounding';
import { periodDays, type Period } from '../period';

/** A month of the rental run: its first and last day and how many days it has. */
export interface RentalMonth extends Period {
  ym: string;
  days: number;
}

/**
 * The month `ym` a rental run or a closing may name (YYYYMM, 2000–2099: the range the screens and calls accept) or
 * undefined when it is not one; the month itself, any year, is lib/day's `monthOf`.
 * @example rentalMonth('202602') // { ym: '202602', from: '2026-02-01', to: '2026-02-28', days: 28 }
 */
export function rentalMonth(ym: string): RentalMonth | undefined {
  const month = monthOf(ym);
  return month && month.ym >= '200001' && month.ym <= '209912' ? month : undefined;
}


/**
 * The days of the month a charge runs: from the later of the month's start and `start`, to the earlier of its end
 * and `end` ('' = open); undefined when none of the month is left.
 * @example chargedPeriod(rentalMonth('202605')!, '2026-05-10', '') // { from: '2026-05-10', to: '2026-05-31', days: 22 }
 */
export function chargedPeriod(month: RentalMonth, start: string, end: string): (Period & { days: number }) | undefined {
  const from = start > month.from ? start : month.from;
  const to = end && end < month.to ? end : month.to;
  if (from > to) return undefined;
  // The whole month (most charges): its days are known, no date arithmetic per charge.
  return { from, to, days: from === month.from && to === month.to ? month.days : periodDays({ from, to }) };
}

/**
 * A monthly fee for `days` of a month of `monthDays`, rounded once with the customer's 金額端数 (`kin_kiri`).
 * @example prorate(3000, 22, 31, '0') // 2129 (切捨て)
 */
export const prorate = (fee: number, days: number, monthDays: number, kinKiri: Rounding): number =>
  days >= monthDays ? fee : divideRounded(fee * days, monthDays, kinKiri);

/** One charge of the month as `rental_preview` answers it (amounts tax-exclusive, as the fees are entered). */
export interface RentalPreviewRow {
  ag_id: number;
  agreement_no: string;
  cl_id: number;
  cl_label: string;
  /** The server's serial number, '' for the agreement's own fee. */
  server: string;
  from: string;
  to: string;
  days: number;
  month_days: number;
  fee: number;
  amount: number;
  /** The agreement's slip of the month exists already (a run creates it no more). */
  existed: boolean;
}

/** `rental_preview`'s answer (one element): the month's counts and one page of its charges (customer, agreement order). */
export interface RentalPreview {
  ym: string;
  from: string;
  to: string;
  /** Agreements with a charge in the month, those whose slip the run would create, those already billed. */
  agreements: number;
  slips: number;
  existed: number;
  /** The tax-exclusive sum of the charges the run would bill. */
  amount: number;
  /** Charges in all (the rows' count) and the page. */
  total: number;
  rows: RentalPreviewRow[];
}

/** `rental_generate`'s result: what the run did. */
export interface RentalGenerateResult {
  ym: string;
  created: number;
  existed: number;
  amount: number;
  slips: number[];
}
