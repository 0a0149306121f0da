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
import { daysInMonth, isDay } from '../day';
import { EXCEPTION_KIND, HOLIDAY_RULE, type HolidayRule } from './kinds';

export { EXCEPTION_KIND, HOLIDAY_RULE, type HolidayRule } from './kinds';
export { isDay } from '../day';

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

/*
 * Days are handled as integers (days since 1970-01-01, the civil-calendar arithmetic of H. Hinnant's
 * `days_from_civil`) and turned into text only in the answer: 20,000 customers a month stay in milliseconds.
 */
const WEEKDAYS_JA = ['日', '月', '火', '水', '木', '金', '土'];
/** A safety bound: no schedule makes more deliveries than days in a range. */
const MAX_RANGE_DAYS = 366 * 5;

/** Days since 1970-01-01 of a civil date. */
function dayNumber(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The civil date [y, m, d] of a day number. */
function civil(n: number): [number, number, number] {
  const z = n + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const ymd = (y: number, m: number, d: number): string => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
const textOf = (n: number): string => ymd(...civil(n));
const numberOf = (day: string): number => dayNumber(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10)));
/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
const weekdayOfNumber = (n: number): number => (((n + 4) % 7) + 7) % 7;

/** Japanese public holidays by day number (built once from @holiday-jp/holiday_jp). */
const HOLIDAYS: ReadonlyMap<number, string> = new Map(
  Object.entries(holidayJp.holidays as unknown as Readonly<Record<string, { name: string }>>).map(([day, h]) => [numberOf(day), h.name]),
);

const closedOn = (n: number): string | undefined => HOLIDAYS.get(n) ?? (weekdayOfNumber(n) === 0 ? '日曜日' : undefined);

/**
 * The name of the Japanese public holiday on a day (振替休日 included), or undefined: the one holiday table, read by the
 * delivery schedule and by the bank days of closing (lib/closing/period.ts).
 * @example publicHolidayOf('2026-01-01') // '元日'
 */
export const publicHolidayOf = (day: string): string | undefined => HOLIDAYS.get(numberOf(day));

/** Why a day is not a business day (a public holiday's name, or 日曜日), or undefined on a business day. */
export const closedReason = (day: string): string | undefined => closedOn(numberOf(day));

const int = (value: number | string | null | undefined): number | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
};

/** The n-th (1–4) or last (5) `dow` of a month, as a day number. */
function nthWeekday(y: number, m: number, dow: number, week: number): number {
  const first = dayNumber(y, m, 1);
  const firstDay = 1 + ((dow - weekdayOfNumber(first) + 7) % 7);
  let day = firstDay + 7 * (Math.min(week, 5) - 1);
  while (day > daysInMonth(y, m)) day -= 7;
  return first + day - 1;
}

/** The scheduled day of a month for a monthly type: 2 (a day, clamped to the month's end) or 3 (n-th weekday). */
type MonthlyRule = (y: number, m: number) => number;

/**
 * The scheduled days from the anchor on, lazily (the first one is the first matching day on or after the anchor).
 * Answers undefined when the schedule is incomplete (no anchor, unknown type).
 */
function scheduledDays(s: ScheduleInput): (() => number) | undefined {
  const anchorText = s.next_shipping_date ?? '';
  if (!isDay(anchorText)) return undefined;
  const anchor = numberOf(anchorText);
  const type = int(s.haiso_type);
  if (type === 1) {
    const step = 7 * Math.max(1, int(s.haiso_wks) ?? 1);
    const dow = int(s.haiso_dow) ?? weekdayOfNumber(anchor);
    let next = anchor + ((((dow - weekdayOfNumber(anchor)) % 7) + 7) % 7);
    return () => {
      const current = next;
      next += step;
      return current;
    };
  }
  const [ay, am, ad] = civil(anchor);
  let rule: MonthlyRule;
  if (type === 2) {
    const day = Math.min(31, Math.max(1, int(s.haiso_day) ?? ad));
    rule = (y, m) => dayNumber(y, m, Math.min(day, daysInMonth(y, m)));
  } else if (type === 3) {
    const dow = int(s.haiso_dow) ?? weekdayOfNumber(anchor);
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
function shift(day: number, step: 1 | -1): number {
  let moved = day + step;
  while (closedOn(moved) !== undefined) moved += step;
  return moved;
}

const holidayRuleOf = (s: ScheduleInput): HolidayRule => {
  const rule = String(s.haiso_holiday ?? '');
  return rule === HOLIDAY_RULE.previous || rule === HOLIDAY_RULE.skip ? rule : HOLIDAY_RULE.next;
};

interface Span { from: number; to: number; note: string }

/** Exceptions as day spans (a skip covers its one day; a pause without an end covers every day from its start). */
const spansOf = (exceptions: readonly ScheduleException[]): Span[] =>
  exceptions.filter((e) => isDay(e.from_date)).map((e) => {
    const skip = String(e.kind) === EXCEPTION_KIND.skip;
    const what = skip ? 'スキップ' : '休止期間';
    const from = numberOf(e.from_date);
    return { from, to: skip ? from : isDay(e.to_date) ? numberOf(e.to_date) : Number.MAX_SAFE_INTEGER, note: e.reason ? `${what}（${e.reason}）` : what };
  });

const spanOn = (spans: readonly Span[], day: number): Span | undefined => spans.find((e) => e.from <= day && day <= e.to);

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
  const first = numberOf(from);
  const last = numberOf(to);
  if (last - first > MAX_RANGE_DAYS) throw new RangeError('range too long');
  const nextDay = scheduledDays(s);
  if (!nextDay) return unchanged;
  const rule = holidayRuleOf(s);
  const quantity = Math.max(0, int(s.haiso_num) ?? 0);
  const spans = spansOf(exceptions);
  const deliveries: DueDelivery[] = [];
  let scheduled = nextDay();
  while (scheduled < first) scheduled = nextDay();
  for (; scheduled <= last; scheduled = nextDay()) {
    const original = textOf(scheduled);
    const skip = (note: string): void => {
      deliveries.push({ cl_id: s.cl_id, date: '', original_date: original, quantity: 0, status: 'skip', note });
    };
    const paused = spanOn(spans, scheduled);
    if (paused) { skip(paused.note); continue; }
    const closed = closedOn(scheduled);
    if (closed === undefined) {
      deliveries.push({ cl_id: s.cl_id, date: original, original_date: original, quantity, status: 'deliver', note: '' });
      continue;
    }
    if (rule === HOLIDAY_RULE.skip) { skip(`${closed}のためスキップ`); continue; }
    const moved = shift(scheduled, rule === HOLIDAY_RULE.next ? 1 : -1);
    const pausedMoved = spanOn(spans, moved);
    if (pausedMoved) { skip(pausedMoved.note); continue; }
    const direction = rule === HOLIDAY_RULE.next ? '翌営業日' : '前営業日';
    const [, mm, dd] = civil(moved);
    deliveries.push({
      cl_id: s.cl_id, date: textOf(moved), original_date: original, quantity, status: 'deliver',
      note: `${closed}のため${direction}（${mm}/${dd}（${WEEKDAYS_JA[weekdayOfNumber(moved)]}））へ`,
    });
  }
  return { deliveries, next_shipping_date: textOf(scheduled) };
}
