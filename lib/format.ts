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

/** The Japan date one day after `day`. */
export function nextDay(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000;
  return new Date(t).toISOString().slice(0, 10);
}
