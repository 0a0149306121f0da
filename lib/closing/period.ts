/**
 * 締め (closing) by closing-day group and month (domain §1, issue 13): which days a closing covers and when its
 * invoices are due. Pure: no I/O, no clock; days are Japan days `YYYY-MM-DD`, months `YYYYMM` (the spec sends
 * `sime_ym` without its hyphen).
 *
 * - A group (`sime_gp`) is a closing day: 5, 10, 15, 20, 25 or 31 (= 末, the month's last day).
 * - The closing date of a month is min(締日, the month's last day); the period runs from the group's previous
 *   closing date + 1 to the closing date (20日締め 202505 → 2025-04-21..2025-05-20, 末 202402 → 2024-02-01..2024-02-29,
 *   5日締め 202501 → 2024-12-06..2025-01-05).
 * - 入金予定日: the closing month + `collect_cycle` (0 当月, 1 翌月, 2 翌々月) on `collect_day` (31 or past the month's
 *   end = its last day), moved to the next bank business day past Saturdays, Sundays, public holidays (the one holiday
 *   table, lib/hod/schedule.ts) and 12/31–1/3.
 */
import { addDays, monthOf, monthOfDay, shiftMonth, weekdayOf } from '../day';
import { monthLabel } from '../format';
import { publicHolidayOf } from '../hod/schedule';
import { MESSAGES } from '../protocol';
import { CLOSING_DAY } from '../resources/options';
import { rentalMonth } from '../sales/rental';
import { cellText } from '../resources/checks';

/** The closing-day groups (`sime_gp`), as the customer's 締日 offers them. */
export const CLOSING_GROUPS: readonly string[] = CLOSING_DAY.map((o) => o.value);

/** One closing of a group: its month, closing date and the days it covers. */
export interface ClosingPeriod {
  sime_gp: string;
  sime_ym: string;
  closing_date: string;
  /** The day after the group's previous closing date. */
  from: string;
  /** = closing_date. */
  to: string;
}

export { shiftMonth } from '../day';

/**
 * The closing date of a group's month: min(締日, the month's last day).
 * @example closingDateOf('31', '202402') // '2024-02-29'
 */
export function closingDateOf(gp: string, ym: string): string {
  const last = monthOf(ym)?.days ?? 28;
  return `${ym.slice(0, 4)}-${ym.slice(4, 6)}-${String(Math.min(Number(gp), last)).padStart(2, '0')}`;
}

/**
 * The days a group's closing of a month covers.
 * @example closingPeriod('5', '202501') // { sime_gp: '5', sime_ym: '202501', closing_date: '2025-01-05', from: '2024-12-06', to: '2025-01-05' }
 */
export function closingPeriod(gp: string, ym: string): ClosingPeriod {
  const to = closingDateOf(gp, ym);
  return { sime_gp: gp, sime_ym: ym, closing_date: to, from: addDays(closingDateOf(gp, shiftMonth(ym, -1)), 1), to };
}

/**
 * The month of a group whose period holds a day.
 * @example closingMonthOf('20', '2025-05-21') // '202506'
 */
export function closingMonthOf(gp: string, day: string): string {
  const ym = monthOfDay(day);
  return day <= closingDateOf(gp, ym) ? ym : shiftMonth(ym, 1);
}

/**
 * The group's name.
 * @example closingGroupLabel('31') // '末日締め'
 */
export const closingGroupLabel = (gp: string): string => CLOSING_DAY.find((o) => o.value === gp)?.text ?? `${gp}日締め`;

/** 「2025年5月 20日締め」, 「2024年2月 末日締め」. */
export function closingLabel(gp: string, ym: string): string {
  return `${monthLabel(ym)} ${closingGroupLabel(gp)}`;
}

/**
 * A closing named by its closing date, as the late-entry notice says it.
 * @example closingDayLabel('2026-11-20') // '11月20日締め'
 */
export const closingDayLabel = (date: string): string => `${Number(date.slice(5, 7))}月${Number(date.slice(8, 10))}日締め`;


/** What is wrong with a closing's parameters: the field and the message naming it. */
export interface ClosingParamProblem {
  field: 'sime_gp' | 'sime_ym';
  message: string;
}

/**
 * The closing the parameters name, or the first problem (the group, then the month). `sime_ym` is YYYYMM without a
 * hyphen (2000–2099).
 * @example closingOf('20', '202505') // { ok: true, period: { closing_date: '2025-05-20', from: '2025-04-21', … } }
 * @example closingOf('20', '2025-05') // { ok: false, problem: { field: 'sime_ym', message: '締め年月は YYYYMM…' } }
 */
export function closingOf(gp: unknown, ym: unknown): { ok: true; period: ClosingPeriod } | { ok: false; problem: ClosingParamProblem } {
  const group = typeof gp === 'string' ? gp.trim() : typeof gp === 'number' ? String(gp) : '';
  if (!CLOSING_GROUPS.includes(group)) return { ok: false, problem: { field: 'sime_gp', message: MESSAGES.closingBadGroup } };
  const month = rentalMonth(typeof ym === 'string' ? ym : typeof ym === 'number' ? String(ym) : '');
  if (!month) return { ok: false, problem: { field: 'sime_ym', message: MESSAGES.closingBadMonth } };
  return { ok: true, period: closingPeriod(group, month.ym) };
}

/**
 * Whether banks are closed on a day: Saturdays, Sundays, public holidays and the year-end holidays 12/31–1/3.
 * @example isBankHoliday('2025-01-03') // true
 */
export function isBankHoliday(day: string): boolean {
  const md = day.slice(5);
  return weekdayOf(day) === 0 || weekdayOf(day) === 6 || md === '12-31' || md <= '01-03' || publicHolidayOf(day) !== undefined;
}

/**
 * The day itself when banks are open, else the next day they are.
 * @example bankDayFrom('2024-12-31') // '2025-01-06' (1/4–1/5 a weekend)
 */
export function bankDayFrom(day: string): string {
  let at = day;
  while (isBankHoliday(at)) at = addDays(at, 1);
  return at;
}

/** 回収月 as stored ('0' 当月, '1' 翌月, '2' 翌々月; anything else = 翌月). */
const cycleOf = (collectCycle: unknown): number => (['0', '1', '2'].includes(cellText(collectCycle ?? '')) ? Number(collectCycle) : 1);

/** 回収日 as a day of the month (1–30), or 31 = 末 (31, empty or anything else). */
const collectDayOf = (collectDay: unknown): number => {
  const wanted = Number(collectDay);
  return Number.isInteger(wanted) && wanted >= 1 && wanted < 31 ? wanted : 31;
};

/**
 * 入金予定日 of a closing's invoice: `collect_cycle` months after its month ('' = 翌月) on `collect_day` (31, past the
 * month's end or empty = its last day), never before the closing date (a 当月 day before it is the closing date), on a
 * bank business day.
 * @example dueDateOf(closingPeriod('31', '202505'), '1', 31) // '2025-06-30'
 * @example dueDateOf(closingPeriod('31', '202411'), '1', 31) // '2025-01-06' (12/31 → past the year-end holidays and the weekend)
 * @example dueDateOf(closingPeriod('20', '202505'), '0', 10) // '2025-05-20' (当月10日 would precede the closing date)
 */
export function dueDateOf(period: Pick<ClosingPeriod, 'sime_ym' | 'closing_date'>, collectCycle: unknown, collectDay: unknown): string {
  const month = monthOf(shiftMonth(period.sime_ym, cycleOf(collectCycle)))!;
  const day = `${month.from.slice(0, 8)}${String(Math.min(collectDayOf(collectDay), month.days)).padStart(2, '0')}`;
  return bankDayFrom(day < period.closing_date ? period.closing_date : day);
}

/**
 * Why a customer's 入金予定 cannot happen, or undefined: 当月 on a day before its 締日 (20日締め, 当月10日) would be due
 * before the closing date that bills it. Months with fewer days than the 締日 are not counted against it (末日締め,
 * 当月30日 is due on 30 April's closing date but before 31 May's: refused). The one rule the client save refuses by
 * and the view `client_payment_terms` of migration 0061 lists (its SQL says the same).
 * @example paymentTermsProblem('20', '0', 10) // '入金予定（当月10日）が締日（20日締め）より前です。…'
 * @example paymentTermsProblem('20', '1', 10) // undefined
 */
export function paymentTermsProblem(gp: unknown, collectCycle: unknown, collectDay: unknown): string | undefined {
  const group = cellText(gp ?? '');
  if (!CLOSING_GROUPS.includes(group) || cycleOf(collectCycle) !== 0) return undefined;
  const day = collectDayOf(collectDay);
  if (day >= Number(group)) return undefined;
  return `入金予定（当月${day}日）が締日（${closingGroupLabel(group)}）より前です。締め日より前には請求できないため、回収日を締日以降にするか、回収月を翌月以降にしてください。`;
}
