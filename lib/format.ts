/**
 * The one money, date and time formatting for the UI. The UI shows Japan time.
 */

import { addDays, formatInJapan, inJapan, isDay, japanTimestamp, weekdayOf } from './day';

export { addDays, addYears, jstDayStartIso, todayJst } from './day';

const yen = new Intl.NumberFormat('ja-JP');

/** @example formatMoney(1234) // '1,234円' */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? `${yen.format(n)}円` : '';
}

/** Japan date of an instant: YYYY-MM-DD. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return formatInJapan(value, 'YYYY-MM-DD');
}

/** Japan time of an instant: H:mm. */
export const formatTime = (value: Date | string): string => formatInJapan(value, 'H:mm');

/** Japan date and time of a timestamp: YYYY-MM-DD H:mm. */
export const formatDateTime = (value: string | null | undefined): string => (value ? formatInJapan(value, 'YYYY-MM-DD H:mm') : '');

/**
 * Japan date and time of a timestamp to the second, as files carry it (CSV).
 * @example formatTimestamp('2026-01-01T00:00:00.000Z') // '2026-01-01 09:00:00'
 */
export const formatTimestamp = (value: string | null | undefined): string => (value ? japanTimestamp(value) : '');

const WEEKDAYS_JA = ['日', '月', '火', '水', '木', '金', '土'] as const;

/**
 * A Japan date written out for letters and mails; '' for anything that is not a date.
 * @example formatDateJa('2026-04-01') // '2026年4月1日（水）'
 */
export function formatDateJa(value: string | null | undefined): string {
  const day = formatDate(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return '';
  return `${Number(m[1])}年${Number(m[2])}月${Number(m[3])}日（${WEEKDAYS_JA[weekdayOf(day)]}）`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The header clock's three parts, in Japan time. */
export function clockParts(date: Date): { time: string; date: string; weekday: string } {
  const at = inJapan(date);
  return { time: at.format('HH:mm:ss'), date: at.format('YYYY-MM-DD'), weekday: WEEKDAYS[at.day()] };
}

/** The day after `day`. */
export const nextDay = (day: string): string => addDays(day, 1);

/**
 * The day a typed text means (YYYY-MM-DD), '' for an empty text, undefined for a text that is no day:
 * 2026-11-25, 2026/11/25, 2026年11月25日, 20261125; without a year (11/25, 1125) the year of `today`.
 * Full-width digits and separators count as half-width.
 * @example parseDay('１１２５', '2026-11-20') // '2026-11-25'
 */
export function parseDay(text: string, today: string): string | undefined {
  const typed = text.normalize('NFKC').trim().replace(/[年月.]/g, '/').replace(/日$/, '');
  if (typed === '') return '';
  const full = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(typed) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(typed);
  const short = full ? null : /^(\d{1,2})[-/](\d{1,2})$/.exec(typed) ?? /^(\d{2})(\d{2})$/.exec(typed);
  const [y, m, d] = full ? full.slice(1) : short ? [today.slice(0, 4), ...short.slice(1)] : [];
  if (y === undefined) return undefined;
  const day = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  return isDay(day) ? day : undefined;
}

/**
 * A month as people write it, the one month label of every screen, file and message (a closing's 締め年月, the rental
 * month, the sales report's months): `YYYYMM` or `YYYY-MM`.
 * @example monthLabel('202505') // '2025年5月'
 * @example monthLabel('2026-11') // '2026年11月'
 */
export const monthLabel = (ym: string): string => {
  const digits = ym.replace('-', '');
  return `${digits.slice(0, 4)}年${Number(digits.slice(4, 6))}月`;
};
