/**
 * Periods of days (from..to, YYYY-MM-DD) as every screen that asks for one takes them: the presets a user picks
 * (今日, 今週, 先月 …, weeks Monday to Sunday, in Japan days) and the one rule set (`periodProblem`) that the
 * date-range picker shows, the screens check before asking and the server's period calls answer with.
 */
import { addDays, addMonths, daysBetween, isDay, monthEnd, monthStart, weekdayOf } from './day';
import { HOD_MAX_DAYS, MESSAGES } from './protocol';

/** A period of days; '' where a bound is not given (a list filter may leave one open). */
export interface Period {
  from: string;
  to: string;
}

/** What a screen requires of its period. */
export interface PeriodRules {
  /** Both days must be given (a report's period); else either may be left empty (a list filter). */
  required?: boolean;
  /** The most days the period may span, both ends counted. */
  maxDays?: number;
}

/** The periods of the regular-delivery screens and calls (/orders/hod, /hod/list, /hod/uriage). */
export const HOD_PERIOD: PeriodRules = { required: true, maxDays: HOD_MAX_DAYS };

/** Which bound is wrong, and the message saying so. */
export interface PeriodProblem {
  field: 'from' | 'to';
  message: string;
}

/**
 * Days from `from` to `to`, both counted.
 * @example periodDays({ from: '2026-11-01', to: '2026-11-30' }) // 30
 */
export function periodDays({ from, to }: Period): number {
  return daysBetween(from, to) + 1;
}

/**
 * What is wrong with a period under the rules, first problem only (the start, then the end, then their order,
 * then the length), or undefined when it may be used.
 * @example periodProblem({ from: '2026-11-10', to: '2026-11-01' }) // { field: 'to', message: '終了日は開始日以降の日付を入力してください。' }
 */
export function periodProblem(period: Period, rules: PeriodRules = {}): PeriodProblem | undefined {
  const from = period.from.trim();
  const to = period.to.trim();
  if ((rules.required && !from) || (from && !isDay(from))) return { field: 'from', message: MESSAGES.hodBadFrom };
  if ((rules.required && !to) || (to && !isDay(to))) return { field: 'to', message: MESSAGES.hodBadTo };
  if (from && to && to < from) return { field: 'to', message: MESSAGES.hodToBeforeFrom };
  if (from && to && rules.maxDays !== undefined && periodDays({ from, to }) > rules.maxDays) {
    return { field: 'to', message: MESSAGES.periodTooLong(rules.maxDays) };
  }
  return undefined;
}

export type PeriodPresetName = 'today' | 'yesterday' | 'tomorrow' | 'thisWeek' | 'lastWeek' | 'nextWeek' | 'thisMonth' | 'lastMonth' | 'nextMonth';

/** Monday of the week holding `day`. */
function mondayOf(day: string): string {
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}

/** The month `months` months from the one holding `day`: its first and last day. */
function monthOf(day: string, months: number): Period {
  const first = addMonths(monthStart(day), months);
  return { from: first, to: monthEnd(first) };
}

const week = (today: string, weeks: number): Period => {
  const from = addDays(mondayOf(today), 7 * weeks);
  return { from, to: addDays(from, 6) };
};
const day = (today: string, days: number): Period => ({ from: addDays(today, days), to: addDays(today, days) });

/** Every preset: its label and the period it means on a day. */
export const PERIOD_PRESETS: Readonly<Record<PeriodPresetName, { label: string; period: (today: string) => Period }>> = {
  today: { label: '今日', period: (today) => day(today, 0) },
  yesterday: { label: '昨日', period: (today) => day(today, -1) },
  tomorrow: { label: '明日', period: (today) => day(today, 1) },
  thisWeek: { label: '今週', period: (today) => week(today, 0) },
  lastWeek: { label: '先週', period: (today) => week(today, -1) },
  nextWeek: { label: '来週', period: (today) => week(today, 1) },
  thisMonth: { label: '今月', period: (today) => monthOf(today, 0) },
  lastMonth: { label: '先月', period: (today) => monthOf(today, -1) },
  nextMonth: { label: '来月', period: (today) => monthOf(today, 1) },
};

/**
 * The period a preset means on `today` (a Japan day).
 * @example presetPeriod('thisWeek', '2026-11-25') // { from: '2026-11-23', to: '2026-11-29' } (Monday to Sunday)
 */
export const presetPeriod = (name: PeriodPresetName, today: string): Period => PERIOD_PRESETS[name].period(today);

/** Presets for a period looking back (sales, reports). */
export const PAST_PRESETS: readonly PeriodPresetName[] = ['today', 'yesterday', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth'];
/** Presets for a period looking ahead (deliveries to make). */
export const COMING_PRESETS: readonly PeriodPresetName[] = ['today', 'tomorrow', 'thisWeek', 'nextWeek', 'thisMonth', 'nextMonth'];
/** Presets of a list filter, whose dates may lie either way. */
export const FILTER_PRESETS: readonly PeriodPresetName[] = ['today', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'nextMonth'];
