/**
 * The state of a generic list as plain serialisable data, and the pure functions around it:
 * query building, sort toggling, paging, filter editing, saved-search round trips.
 * `useListController` holds the state; these functions hold the rules, so they test without React.
 */
import { filterProblemMessage, normalizeFilters, type FilterDef } from '../filters';
import { LIMITS, MESSAGES, type FilterValue, type SavedSearch } from '../protocol';
import type { FieldDef, Option, ResourceDef } from '../resources/types';

export type SortOrder = 'asc' | 'desc';

export interface ListSort {
  col: string;
  odr: SortOrder;
}

/**
 * Filter values as the user typed them: a date range or number range is `[from, to]`,
 * an `in` filter is the list of ticked values, a month or an equality is one string.
 * Empty values are never kept, so `{}` means "no filter".
 */
export type RawFilters = Record<string, string | string[]>;

export interface ListState {
  page: number;
  perPage: number;
  sort: ListSort;
  keyword: string;
  filters: RawFilters;
  tabIndex: number;
}

/** Page sizes offered by the 「表示件数」 select. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** Parameters of a `{r}_lst` call (`postData` is encoded as JSON by the fetcher). */
export interface ListCallParams {
  n: number;
  p: number;
  col: string;
  odr: SortOrder;
  kw: string;
  postData: Record<string, FilterValue>;
  [extra: string]: string | number | Record<string, FilterValue>;
}

/** Parameters of a `{r}_cnt` call. */
export interface CountCallParams {
  kw: string;
  postData: Record<string, FilterValue>;
  [extra: string]: string | number | Record<string, FilterValue>;
}

export type BuiltQuery =
  | { ok: true; list: ListCallParams; count: CountCallParams }
  | { ok: false; message: string };

/**
 * The state a list opens with when nothing is stored.
 * @example initialListState(clientResource) // { page: 1, perPage: 10, sort: { col: 'cl_id', odr: 'desc' }, … }
 */
export function initialListState(def: ResourceDef): ListState {
  return {
    page: 1,
    perPage: LIMITS.defaultPageSize,
    sort: { ...def.list.defaultSort },
    keyword: '',
    filters: {},
    tabIndex: 0,
  };
}

const isNonEmpty = (v: unknown): boolean => (Array.isArray(v) ? v.some((x) => x !== '' && x != null) : v !== '' && v != null);

/** Drops empty values and names the resource does not declare. */
export function cleanFilters(def: ResourceDef, raw: unknown): RawFilters {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: RawFilters = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!filterOf(def, name) || !isNonEmpty(value)) continue;
    if (Array.isArray(value)) out[name] = value.map((x) => (x == null ? '' : String(x)));
    else if (typeof value === 'string' || typeof value === 'number') out[name] = String(value);
  }
  return out;
}

/** Whether a sort is allowed by the resource's whitelist. */
export const isSortable = (def: ResourceDef, col: string): boolean => def.list.sortable.includes(col);

/**
 * The sort after a click on a column header: the same column flips asc ↔ desc, another
 * sortable column starts ascending, a column outside the whitelist changes nothing.
 * @example toggleSort(def, { col: 'cl_id', odr: 'desc' }, 'cl_id') // { col: 'cl_id', odr: 'asc' }
 */
export function toggleSort(def: ResourceDef, sort: ListSort, col: string): ListSort {
  if (!isSortable(def, col)) return sort;
  if (sort.col === col) return { col, odr: sort.odr === 'asc' ? 'desc' : 'asc' };
  return { col, odr: 'asc' };
}

/** Number of pages for a total (at least 1, so "1 / 1" shows for an empty list). */
export function pageCountOf(total: number, perPage: number): number {
  if (!Number.isFinite(total) || total <= 0 || perPage <= 0) return 1;
  return Math.ceil(total / perPage);
}

/**
 * Page numbers to show as buttons: the first, the last and a window around the current page;
 * `null` marks a gap (drawn as …).
 * @example pageWindow(7, 20) // [1, null, 5, 6, 7, 8, 9, null, 20]
 */
export function pageWindow(page: number, pageCount: number, radius = 2): (number | null)[] {
  const out: (number | null)[] = [];
  for (let n = 1; n <= pageCount; n += 1) {
    if (n === 1 || n === pageCount || Math.abs(n - page) <= radius) out.push(n);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

/** The field a filter reads (for its options): same name, or the filter's column minus the prefix. */
export function fieldOfFilter(def: ResourceDef, filter: FilterDef): FieldDef | undefined {
  const column = filter.column ?? filter.name;
  return def.fields.find((f) => f.name === filter.name || `${def.prefix}${f.name}` === column);
}

/** Fixed options of an `in` filter (the filter's own, else its field's); a master table is read by the screen. */
export function filterOptions(def: ResourceDef, filter: FilterDef): readonly Option[] | undefined {
  return filter.options ?? fieldOfFilter(def, filter)?.options;
}

const resolved = new WeakMap<ResourceDef, readonly FilterDef[]>();

/**
 * The filters a list takes beyond those it declares (`implied`): each `ref` field (equality on the id)
 * and each master-backed select (its ticked codes), unless a declared filter already reads that field.
 */
function impliedFilters(def: ResourceDef, declared: readonly FilterDef[]): FilterDef[] {
  const taken = new Set(declared.flatMap((f) => [f.name, fieldOfFilter(def, f)?.name]));
  return def.fields
    .filter((f) => !taken.has(f.name) && (f.type === 'ref' || (f.type === 'select' && f.master)))
    .map((f): FilterDef => ({ name: f.name, label: f.label, kind: f.type === 'ref' ? 'equals' : 'in', implied: true }));
}

/**
 * A resource's filters: the declared ones, each `in` filter's allowed values filled from its field's fixed
 * options (so the client and the server refuse the same unknown values), then the implied ones.
 * @example listFilters(contactResource).find((f) => f.name === 'status')?.options // 未対応, 対応中, 完了
 * @example listFilters(clientResource).find((f) => f.name === 'pm_id') // { kind: 'in', label: '支払方法', implied: true }
 */
export function listFilters(def: ResourceDef): readonly FilterDef[] {
  let filters = resolved.get(def);
  if (!filters) {
    const declared = def.list.filters.map((f) => (f.kind === 'in' && !f.options && fieldOfFilter(def, f)?.options ? { ...f, options: fieldOfFilter(def, f)?.options } : f));
    filters = [...declared, ...impliedFilters(def, declared)];
    resolved.set(def, filters);
  }
  return filters;
}

/** The filter of a list by its name (declared or implied). */
export const filterOf = (def: ResourceDef, name: string): FilterDef | undefined => listFilters(def).find((f) => f.name === name);

/** The filters a list link carries (`listLink`), cleaned against the resource; undefined without any. */
export function linkedFilters(def: ResourceDef, query: URLSearchParams): RawFilters | undefined {
  const text = query.get('filter');
  if (!text) return undefined;
  const filters = cleanFilters(def, parseFilterJson(text));
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** Returns the filters with one value replaced; an empty value removes the filter. */
export function withFilter(filters: RawFilters, name: string, value: string | string[] | undefined): RawFilters {
  const next = { ...filters };
  if (value === undefined || !isNonEmpty(value)) delete next[name];
  else next[name] = value;
  return next;
}

/**
 * The list and count call parameters of a state, with the spec §5 filter rules applied.
 * A filter that cannot be sent (a start after the end, a bad date) gives a Japanese message instead.
 * `fixed` adds call parameters, `fixedFilters` filters the user cannot change (they win over the state's).
 * @example buildListQuery(def, { ...state, keyword: 'ｱｸｱ' }).list // { n: 10, p: 1, col: 'cl_id', odr: 'desc', kw: 'ｱｸｱ', postData: {} }
 */
export function buildListQuery(
  def: ResourceDef,
  state: ListState,
  options: { today?: string; fixed?: Record<string, string | number>; fixedFilters?: RawFilters } = {},
): BuiltQuery {
  const kw = state.keyword.trim();
  if (kw.length > LIMITS.maxKeyword) return { ok: false, message: MESSAGES.badKeyword };
  const normalized = normalizeFilters({ ...state.filters, ...options.fixedFilters }, listFilters(def), options.today);
  if (!normalized.ok) return { ok: false, message: filterProblemMessage(listFilters(def), normalized.problem, normalized.name) };
  const sort = isSortable(def, state.sort.col) ? state.sort : def.list.defaultSort;
  const fixed = options.fixed ?? {};
  return {
    ok: true,
    list: { ...fixed, n: state.perPage, p: state.page, col: sort.col, odr: sort.odr, kw, postData: normalized.filters },
    count: { ...fixed, kw, postData: normalized.filters },
  };
}

/** What a saved search stores of a state (`search_save` parameters without id, name and table). */
export interface SavedSearchPayload {
  srch_kw: string;
  srch_col: string;
  srch_odr: SortOrder;
  postData: string;
}

/**
 * The saved-search parameters of a state: keyword, sort and the raw filters as JSON text.
 * @example stateToSavedSearch({ …, keyword: '水', filters: { status: ['1'] } }).postData // '{"status":["1"]}'
 */
export function stateToSavedSearch(state: ListState): SavedSearchPayload {
  return { srch_kw: state.keyword, srch_col: state.sort.col, srch_odr: state.sort.odr, postData: JSON.stringify(state.filters) };
}

function parseFilterJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/**
 * The state a saved search opens: its keyword, sort (when still whitelisted) and filters, on page 1.
 * Page size and tab stay as they are.
 */
export function applySavedSearchToState(def: ResourceDef, state: ListState, saved: Partial<SavedSearch>): ListState {
  const col = typeof saved.srch_col === 'string' && isSortable(def, saved.srch_col) ? saved.srch_col : def.list.defaultSort.col;
  const odr: SortOrder = saved.srch_odr === 'asc' || saved.srch_odr === 'desc' ? saved.srch_odr : def.list.defaultSort.odr;
  return {
    ...state,
    page: 1,
    keyword: typeof saved.srch_kw === 'string' ? saved.srch_kw : '',
    sort: { col, odr },
    filters: cleanFilters(def, parseFilterJson(saved.postData)),
  };
}

const positiveInt = (v: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= max ? v : fallback;

/** Stored pieces of a list state, as read from local storage (anything may be garbage). */
export interface StoredListState {
  keyword?: unknown;
  perPage?: unknown;
  page?: unknown;
  tabIndex?: unknown;
  conditions?: unknown;
}

/** Rebuilds a state from stored pieces, keeping only values that make sense for the resource. */
export function restoreListState(def: ResourceDef, stored: StoredListState): ListState {
  const base = initialListState(def);
  const cond = (stored.conditions && typeof stored.conditions === 'object' ? stored.conditions : {}) as { sort?: Partial<ListSort>; filters?: unknown };
  const sort =
    cond.sort && typeof cond.sort.col === 'string' && isSortable(def, cond.sort.col) && (cond.sort.odr === 'asc' || cond.sort.odr === 'desc')
      ? { col: cond.sort.col, odr: cond.sort.odr }
      : base.sort;
  return {
    page: positiveInt(stored.page, 1),
    perPage: positiveInt(stored.perPage, base.perPage, LIMITS.maxPageSize),
    sort,
    keyword: typeof stored.keyword === 'string' ? stored.keyword.slice(0, LIMITS.maxKeyword) : '',
    filters: cleanFilters(def, cond.filters),
    tabIndex: typeof stored.tabIndex === 'number' && Number.isInteger(stored.tabIndex) && stored.tabIndex >= 0 ? stored.tabIndex : 0,
  };
}

/** Whether a `{r}_cnt` answer is the cap of a longer list (`[10000, { more: true }]`, LIMITS.countCap): 「10,000件以上」. */
export function countMoreOf(answer: readonly unknown[] | undefined): boolean {
  const second = answer?.[1];
  return typeof second === 'object' && second !== null && (second as { more?: unknown }).more === true;
}

/**
 * The pages of a list whose total may be the cap (`more`): past the cap's last page while a page is full, one more.
 * @example openPageCount(10000, true, 20, 500, 20) // 501
 */
export function openPageCount(total: number, more: boolean, perPage: number, page: number, rowsOnPage: number): number {
  const counted = pageCountOf(total, perPage);
  return more ? Math.max(counted, rowsOnPage >= perPage ? page + 1 : page) : counted;
}

/** Reads the count out of a `{r}_cnt` answer: `[n]`, `[{ count: n }]` or `[{ total: n }]`. */
export function countOf(answer: readonly unknown[] | undefined): number | undefined {
  const first = answer?.[0];
  if (typeof first === 'number') return first;
  if (typeof first === 'string' && /^\d+$/.test(first)) return Number(first);
  if (first && typeof first === 'object') {
    for (const key of ['count', 'total', 'cnt']) {
      const v = (first as Record<string, unknown>)[key];
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
    }
  }
  return undefined;
}
