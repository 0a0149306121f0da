/**
 * The regular-delivery (定期配送, HOD) schedule engine: which deliveries a customer's schedule makes
 * due in a date range, and where the schedule's anchor (`next_shipping_date`) stands afterwards.
 * Pure and deterministic: no I/O, no clock; every date is a Japan day `YYYY-MM-DD`.
 *
 * - The schedule yields *scheduled dates* (予定日), starting at the anchor: 週ごと (type 1) every
 *   `haiso_wks` weeks on `haiso_dow`; 毎月（日付指定） (type 2) on day `haiso_day` of each month (a day
 *   past the month's end is its last day: 31 in a 30-day month is the 30th); 毎月（曜日指定） (type 3)
 *   on the `haiso_week`-th `haiso_dow` of each month (5 = the last one).
 * - A range holds the deliveries whose scheduled date lies in it, so consecutive ranges neither miss
 *   nor repeat one, and the new anchor is the first scheduled date after the range.
 * - A scheduled date on a Sunday or a Japanese public holiday goes to the next business day, the previous
 *   one, or is skipped (`haiso_holiday`: 1 / 2 / 3, default the next business day).
 * - A scheduled or moved date inside one of the customer's pause periods (休止期間) or equal to a one-off
 *   skip (スキップ) is skipped.
 */
import holidayJp from '@holiday-jp/holiday_jp';
import { addDays } from '../format';
import { EXCEPTION_KIND, HOLIDAY_RULE, type HolidayRule } from './kinds';

export { EXCEPTION_KIND, HOLIDAY_RULE, type HolidayRule } from './kinds';

/** A customer's schedule, as the client columns hold it (unprefixed field names; numbers or text). */
export interface ScheduleInput {
  cl_id: number;
  haiso_flag: number | string | null;
  haiso_type: number | string | null;
  haiso_wks: number | string | null;
  haiso_dow: number | string | null;
  haiso_day: number | string | null;
  haiso_week?: number | string | null;
  haiso_num: number | string | null;
  haiso_holiday?: number | string | null;
  next_shipping_date: string | null;
}

/** A pause period (kind 1, from..to inclusive) or a one-off skip (kind 2, to = from). */
export interface ScheduleException {
  kind: number | string;
  from_date: string;
  to_date: string | null;
  reason?: string | null;
}

export type DeliveryStatus = 'deliver' | 'skip';

/** One scheduled delivery of a range. */
export interface DueDelivery {
  cl_id: number;
  /** The day it is delivered ('' when skipped). */
  date: string;
  /** The day the schedule names (予定日). */
  original_date: string;
  /** Bottles (`haiso_num`); 0 when skipped. */
  quantity: number;
  status: DeliveryStatus;
  /** Why it moved or is skipped, in Japanese ('' when delivered as scheduled). */
  note: string;
}

export interface ScheduleResult {
  deliveries: DueDelivery[];
  /** The anchor after the range: the first scheduled date after `to` (unchanged for a schedule that is off or incomplete). */
  next_shipping_date: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOLIDAYS = holidayJp.holidays as unknown as Readonly<Record<string, { name: string } | undefined>>;
const WEEKDAYS_JA = ['日', '月', '火', '水', '木', '金', '土'];
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A safety bound: no schedule makes more deliveries than days in a range. */
const MAX_RANGE_DAYS = 366 * 5;

const parse = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const weekdayOf = (day: string): number => new Date(parse(day)).getUTCDay();
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const ymd = (y: number, m: number, d: number): string => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
const lastDayOf = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Whether a text is a real calendar date YYYY-MM-DD. */
export function isDay(text: unknown): text is string {
  if (typeof text !== 'string' || !DATE_RE.test(text)) return false;
  const t = parse(text);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === text;
}

/** The public holiday's name on a day, or undefined. */
export const holidayName = (day: string): string | undefined => HOLIDAYS[day]?.name;

/** Why a day is not a business day (Sunday or a public holiday), or undefined on a business day. */
export function closedReason(day: string): string | undefined {
  const holiday = holidayName(day);
  if (holiday) return holiday;
  return weekdayOf(day) === 0 ? '日曜日' : undefined;
}

const int = (value: number | string | null | undefined): number | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
};

/** The n-th (1–4) or last (5) `dow` of a month. */
function nthWeekday(y: number, m: number, dow: number, week: number): string {
  const firstDow = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
  const first = 1 + ((dow - firstDow + 7) % 7);
  const last = lastDayOf(y, m);
  let day = first + 7 * (Math.min(week, 5) - 1);
  while (day > last) day -= 7;
  return ymd(y, m, day);
}

/** The monthly date of a month for type 2 (day, clamped to the month's end) or type 3 (n-th weekday). */
type MonthlyRule = (y: number, m: number) => string;

/**
 * The scheduled dates from the anchor on, lazily (the first one is the first matching date on or after the anchor).
 * Answers undefined when the schedule is incomplete (no anchor, unknown type).
 */
function scheduledDates(s: ScheduleInput): (() => string) | undefined {
  const anchor = s.next_shipping_date ?? '';
  if (!isDay(anchor)) return undefined;
  const type = int(s.haiso_type);
  if (type === 1) {
    const weeks = Math.max(1, int(s.haiso_wks) ?? 1);
    const dow = int(s.haiso_dow) ?? weekdayOf(anchor);
    let next = addDays(anchor, (((dow - weekdayOf(anchor)) % 7) + 7) % 7);
    return () => {
      const current = next;
      next = addDays(next, 7 * weeks);
      return current;
    };
  }
  let rule: MonthlyRule;
  const [ay, am, ad] = anchor.split('-').map(Number);
  if (type === 2) {
    const day = Math.min(31, Math.max(1, int(s.haiso_day) ?? ad));
    rule = (y, m) => ymd(y, m, Math.min(day, lastDayOf(y, m)));
  } else if (type === 3) {
    const dow = int(s.haiso_dow) ?? weekdayOf(anchor);
    const week = Math.min(5, Math.max(1, int(s.haiso_week) ?? Math.ceil(ad / 7)));
    rule = (y, m) => nthWeekday(y, m, dow, week);
  } else {
    return undefined;
  }
  let y = ay;
  let m = am;
  if (rule(y, m) < anchor) [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  return () => {
    const current = rule(y, m);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
    return current;
  };
}

/** The business day a closed day moves to (next or previous), walking past Sundays and holidays. */
function shift(day: string, step: 1 | -1): string {
  let moved = addDays(day, step);
  while (closedReason(moved)) moved = addDays(moved, step);
  return moved;
}

const holidayRuleOf = (s: ScheduleInput): HolidayRule => {
  const rule = String(s.haiso_holiday ?? '');
  return rule === HOLIDAY_RULE.previous || rule === HOLIDAY_RULE.skip ? rule : HOLIDAY_RULE.next;
};

/** The exception covering a day, if any (a skip covers its one day; an open-ended pause covers from on). */
function exceptionOn(exceptions: readonly ScheduleException[], day: string): ScheduleException | undefined {
  return exceptions.find((e) => {
    const to = String(e.kind) === EXCEPTION_KIND.skip ? e.from_date : e.to_date || '9999-12-31';
    return e.from_date <= day && day <= to;
  });
}

const exceptionNote = (e: ScheduleException): string => {
  const what = String(e.kind) === EXCEPTION_KIND.skip ? 'スキップ' : '休止期間';
  return e.reason ? `${what}（${e.reason}）` : what;
};

/** Whether a schedule takes part in regular delivery (`haiso_flag` = 1 and a cycle type). */
export const isScheduled = (s: Pick<ScheduleInput, 'haiso_flag' | 'haiso_type'>): boolean =>
  int(s.haiso_flag) === 1 && [1, 2, 3].includes(int(s.haiso_type) ?? 0);

/**
 * The deliveries a schedule makes due from `from` to `to` (inclusive, by scheduled date) and the anchor after them.
 * @example deliveriesDue({ cl_id: 1, haiso_flag: 1, haiso_type: 2, haiso_day: 31, …, next_shipping_date: '2026-04-01' }, [], '2026-04-01', '2026-04-30')
 *   // { deliveries: [{ date: '2026-04-30', original_date: '2026-04-30', … }], next_shipping_date: '2026-05-31' }
 */
export function deliveriesDue(s: ScheduleInput, exceptions: readonly ScheduleException[], from: string, to: string): ScheduleResult {
  const unchanged: ScheduleResult = { deliveries: [], next_shipping_date: s.next_shipping_date };
  if (!isScheduled(s) || !isDay(from) || !isDay(to) || to < from) return unchanged;
  if ((parse(to) - parse(from)) / DAY_MS > MAX_RANGE_DAYS) throw new RangeError('range too long');
  const nextDate = scheduledDates(s);
  if (!nextDate) return unchanged;
  const rule = holidayRuleOf(s);
  const quantity = Math.max(0, int(s.haiso_num) ?? 0);
  const deliveries: DueDelivery[] = [];
  let scheduled = nextDate();
  while (scheduled < from) scheduled = nextDate();
  for (; scheduled <= to; scheduled = nextDate()) {
    const skip = (note: string): void => {
      deliveries.push({ cl_id: s.cl_id, date: '', original_date: scheduled, quantity: 0, status: 'skip', note });
    };
    const paused = exceptionOn(exceptions, scheduled);
    if (paused) { skip(exceptionNote(paused)); continue; }
    const closed = closedReason(scheduled);
    if (!closed) {
      deliveries.push({ cl_id: s.cl_id, date: scheduled, original_date: scheduled, quantity, status: 'deliver', note: '' });
      continue;
    }
    if (rule === HOLIDAY_RULE.skip) { skip(`${closed}のためスキップ`); continue; }
    const date = shift(scheduled, rule === HOLIDAY_RULE.next ? 1 : -1);
    const pausedMoved = exceptionOn(exceptions, date);
    if (pausedMoved) { skip(exceptionNote(pausedMoved)); continue; }
    const direction = rule === HOLIDAY_RULE.next ? '翌営業日' : '前営業日';
    const [, mm, dd] = date.split('-');
    deliveries.push({
      cl_id: s.cl_id, date, original_date: scheduled, quantity, status: 'deliver',
      note: `${closed}のため${direction}（${Number(mm)}/${Number(dd)}（${WEEKDAYS_JA[weekdayOf(date)]}））へ`,
    });
  }
  return { deliveries, next_shipping_date: scheduled };
}
