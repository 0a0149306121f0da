/**
 * The one money, date and time formatting for the UI. The UI shows Japan time.
 */

const yen = new Intl.NumberFormat('ja-JP');

/** @example formatMoney(1234) // '1,234円' */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? `${yen.format(n)}円` : '';
}

const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

function jstParts(date: Date) {
  const d = new Date(date.getTime() + JST_OFFSET_MS);
  return {
    y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(),
    h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), dow: d.getUTCDay(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Japan date of an instant: YYYY-MM-DD. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const p = jstParts(date);
  return `${p.y}-${pad(p.m)}-${pad(p.d)}`;
}

/** Japan time of an instant: H:mm. */
export function formatTime(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const p = jstParts(date);
  return `${p.h}:${pad(p.mi)}`;
}

/** Japan date and time of a timestamp: YYYY-MM-DD H:mm. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDate(date)} ${formatTime(date)}`;
}

/**
 * Japan date and time of a timestamp to the second, as files carry it (CSV).
 * @example formatTimestamp('2026-01-01T00:00:00.000Z') // '2026-01-01 09:00:00'
 */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return '';
  // The Japan time written as an ISO string (YYYY-MM-DDTHH:mm:ss.sssZ): one native call per cell of an export's
  // 登録日時・更新日時 (two million for a million rows).
  const iso = new Date(time + JST_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

const WEEKDAYS_JA = ['日', '月', '火', '水', '木', '金', '土'] as const;

/**
 * A Japan date written out for letters and mails; '' for anything that is not a date.
 * @example formatDateJa('2026-04-01') // '2026年4月1日（水）'
 */
export function formatDateJa(value: string | null | undefined): string {
  const day = formatDate(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return '';
  const dow = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay();
  return `${Number(m[1])}年${Number(m[2])}月${Number(m[3])}日（${WEEKDAYS_JA[dow]}）`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The header clock's three parts, in Japan time. */
export function clockParts(date: Date): { time: string; date: string; weekday: string } {
  const p = jstParts(date);
  return { time: `${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`, date: formatDate(date), weekday: WEEKDAYS[p.dow] };
}

/** Today in Japan: YYYY-MM-DD. */
export const todayJst = (now: Date = new Date()): string => formatDate(now);

/** The UTC instant at which a Japan date starts, as ISO text. */
export function jstDayStartIso(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00+09:00`)).toISOString();
}

/**
 * The date `days` days after `day` (before it when negative), both YYYY-MM-DD.
 * @example addDays('2026-02-27', 2) // '2026-03-01'
 */
export function addDays(day: string, days: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + days * 24 * 60 * 60 * 1000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The Japan date one day after `day`. */
export const nextDay = (day: string): string => addDays(day, 1);

/**
 * The same day `years` years later; 29 February becomes 28 February in a common year.
 * @example addYears('2024-02-29', 1) // '2025-02-28'
 */
export function addYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const year = y + years;
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

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
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day ? day : undefined;
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
