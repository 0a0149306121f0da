/**
 * List filters (spec §5): the rules that turn what a user typed into the `postData` a list
 * call carries. The client applies them before sending; the server applies the same function
 * again, so a direct API caller gets the same meaning.
 */
import { isDay } from './day';
import { addDays, todayJst } from './format';
import { LIMITS, MESSAGES, NAMED_MESSAGES, type FilterValue } from './protocol';
import { searchKey } from './text';

export const EPOCH_DAY = '1970-01-01';
/** The open end of a date window: later than any real date. */
export const LAST_DAY = '9999-12-31';

/**
 * How a filter is matched. `dateRange` on a timestamp column compares Japan days. `relativeDate`
 * picks one of the declared `windows` of days around today (期限切れ, 30日以内 …) and is sent as
 * the date range it means on the day it is applied. `tel` finds a phone number typed any way (hyphens,
 * widths) among the declared phone `columns`, digit by digit.
 */
export type FilterKind = 'dateRange' | 'in' | 'numberRange' | 'month' | 'equals' | 'relativeDate' | 'tel';

/** A named window of a `relativeDate` filter: day offsets from today (Japan), open where absent. */
export interface DayWindow {
  value: string;
  text: string;
  /** First day, as days after today (negative: before); absent = no lower bound. */
  from?: number;
  /** Last day, as days after today; absent = no upper bound. */
  to?: number;
}

export interface FilterDef {
  name: string;
  label: string;
  kind: FilterKind;
  /** Column the filter reads; defaults to the prefixed name, or the bare name for created/modified. */
  column?: string;
  /** For `in`: the allowed values with labels. */
  options?: readonly { value: string; text: string }[];
  /** For `relativeDate`: the windows offered. */
  windows?: readonly DayWindow[];
  /**
   * For `tel`: the phone fields compared, the resource's own (`ship_tel`) or those of the record a `ref`
   * field names (`cl_id.tel_1`: the customer's 電話番号1).
   */
  columns?: readonly string[];
  /**
   * Accepted but not drawn in the filter panel unless set: every `ref` field and master-backed select
   * filters its list this way, so a link (a refusal naming the records that use a value) opens the list
   * of exactly those records (lib/list/list-state `listFilters`).
   */
  implied?: boolean;
  /**
   * Matched on another table's rows (`{on} IN (SELECT {key} FROM {table} WHERE {column} …)`): a slip's lines
   * holding an item (`{ table: 'sales_detail', key: 'sld_sl_id', column: 'sld_it_id' }`, `on` the record's id),
   * the team of its staff (`{ table: 'user', key: 'user_id', column: 'user_team', on: 'sl_usr_id' }`).
   */
  through?: { table: string; key: string; column: string; on?: string };
  /** The resource whose record ids the filter takes where no field of the list says it (drawn as a record picker, checked as ids). */
  ref?: string;
}


const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.every((x) => x === '' || x === null || x === undefined));

/**
 * Applies the spec's date-range rules to one `[from, to]` pair.
 * Returns undefined when the range does not apply.
 * @example dateRange('created', ['', ''], '2026-11-22') // ['1970-01-01', '2026-11-22']
 * @example dateRange('modified', ['2026-01-01', ''], '2026-11-22') // ['2026-01-01', '2026-11-22']
 */
export function dateRange(name: string, value: readonly (string | number)[] | undefined, today: string): [string, string] | undefined {
  const from = String(value?.[0] ?? '').trim();
  const to = String(value?.[1] ?? '').trim();
  if (!from && !to) return name === 'created' ? [EPOCH_DAY, today] : undefined;
  return [from || EPOCH_DAY, to || today];
}

/**
 * The date range a `relativeDate` value means today: a window's name becomes its days; a range
 * already sent as `[from, to]` (the client normalises before sending) is kept when valid.
 * @example relativeRange(def, 'soon', '2026-11-22') // ['2026-11-22', '2026-12-22'] for { from: 0, to: 30 }
 */
export function relativeRange(def: FilterDef, value: unknown, today: string): [string, string] | undefined {
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && isDay(v)) && value[0] <= value[1]) {
    return [value[0], value[1]];
  }
  const window = typeof value === 'string' ? def.windows?.find((w) => w.value === value) : undefined;
  if (!window) return undefined;
  return [window.from === undefined ? EPOCH_DAY : addDays(today, window.from), window.to === undefined ? LAST_DAY : addDays(today, window.to)];
}

/** Result of normalising filters: the clean object or the name of the first bad filter. */
export type FilterProblem = 'unknown' | 'range' | 'value' | 'tooMany';

export type NormalizeResult =
  | { ok: true; filters: Record<string, FilterValue> }
  | { ok: false; problem: FilterProblem; name: string };

/**
 * The message of a filter that cannot be applied, naming it (client and server say the same).
 * @example filterProblemMessage(defs, 'value', 'record_id') // '絞り込み条件「レコードID」の値が正しくありません。'
 */
export function filterProblemMessage(defs: readonly FilterDef[], problem: FilterProblem, name: string): string {
  const def = defs.find((f) => f.name === name);
  const label = def?.label ?? name;
  if (problem === 'unknown') return MESSAGES.badFilter;
  if (problem === 'range' || (problem === 'value' && def?.kind === 'dateRange')) return `「${label}」の範囲が正しくありません。開始日は終了日以前の正しい日付（YYYY-MM-DD）で指定してください。`;
  if (problem === 'tooMany') return NAMED_MESSAGES.tooManyFilterValues(label);
  return NAMED_MESSAGES.badFilterValue(label);
}

/**
 * Normalises a raw filter object against a resource's filter declarations: drops empty values,
 * applies the date-range rules, turns a `relativeDate` window into its dates, removes the hyphen of
 * `sime_ym`, keeps `in` and `numberRange` arrays as arrays. Unknown names are refused (filters are whitelisted).
 */
export function normalizeFilters(
  raw: Record<string, unknown>,
  defs: readonly FilterDef[],
  today: string = todayJst(),
): NormalizeResult {
  const out: Record<string, FilterValue> = {};
  for (const [name, value] of Object.entries(raw)) {
    const def = defs.find((d) => d.name === name);
    if (!def) return { ok: false, problem: 'unknown', name };
    if (def.kind === 'dateRange') {
      if (value !== undefined && value !== null && value !== '' && !Array.isArray(value)) return { ok: false, problem: 'value', name };
      const range = dateRange(name, value as (string | number)[] | undefined, today);
      if (!range) continue;
      if (!isDay(range[0]) || !isDay(range[1])) return { ok: false, problem: 'range', name };
      // A start after the end the user typed is a mistake; after the defaulted end (today) it is a range that finds nothing.
      const endGiven = Array.isArray(value) && String(value[1] ?? '').trim() !== '';
      if (range[0] > range[1] && endGiven) return { ok: false, problem: 'range', name };
      out[name] = range;
      continue;
    }
    if (isEmpty(value)) continue;
    if (def.kind === 'relativeDate') {
      const range = relativeRange(def, value, today);
      if (!range) return { ok: false, problem: 'value', name };
      out[name] = range;
    } else if (def.kind === 'tel') {
      const digits = typeof value === 'string' || typeof value === 'number' ? searchKey(String(value)) : '';
      if (!/^\d{1,20}$/.test(digits)) return { ok: false, problem: 'value', name };
      out[name] = digits;
    } else if (def.kind === 'month') {
      const ym = String(value).replace(/-/g, '');
      if (!/^\d{6}$/.test(ym)) return { ok: false, problem: 'value', name };
      out[name] = ym;
    } else if (def.kind === 'in') {
      const list = (Array.isArray(value) ? value : [value]).filter((v) => v !== '' && v !== null && v !== undefined);
      if (list.length > LIMITS.maxFilterValues) return { ok: false, problem: 'tooMany', name };
      if (!list.every((v) => typeof v === 'string' || typeof v === 'number')) return { ok: false, problem: 'value', name };
      if (def.options && !list.every((v) => def.options!.some((o) => o.value === String(v)))) return { ok: false, problem: 'value', name };
      out[name] = list.map(String);
    } else if (def.kind === 'numberRange') {
      if (!Array.isArray(value) || value.length > 2 || !value.every((v) => v === null || typeof v === 'string' || typeof v === 'number')) return { ok: false, problem: 'value', name };
      const pair = [value[0], value[1]].map((v) => (v === '' || v === null || v === undefined ? '' : Number(v)));
      if (pair.some((v) => v !== '' && !Number.isFinite(v))) return { ok: false, problem: 'value', name };
      out[name] = pair;
    } else {
      if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, problem: 'value', name };
      out[name] = value;
    }
  }
  return { ok: true, filters: out };
}
