/**
 * Headless list logic (react-admin's useListController idea): page, page size, sort, keyword,
 * filters and tab of one resource list, persisted per list, turned into `{r}_lst` / `{r}_cnt`
 * calls through SWR. Components only draw what this returns.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CallError } from '../api/fetcher';
import { LIMITS, MESSAGES, type SavedSearch } from '../../protocol';
import { resourceCall } from '../../protocol/calls';
import type { ResourceDef } from '../../resources/types';
import { readStored, writeStored } from '../state/storage';
import { listKey } from '../../storage-keys';
import {
  applySavedSearchToState,
  buildListQuery,
  countMoreOf,
  countOf,
  initialListState,
  openPageCount,
  restoreListState,
  stateToSavedSearch,
  toggleSort as nextSort,
  withFilter,
  type ListSort,
  type ListState,
  type RawFilters,
  type SavedSearchPayload,
} from '../../list/list-state';
import { useCall } from '../data/use-call';

export type Row = Record<string, unknown>;

export interface ListControllerOptions {
  /** Keep the state in local storage under the resource's list keys (default true). */
  persist?: boolean;
  /** Extra parameters every call carries (e.g. `{ cl_id: 12 }` for a customer's sub-list). */
  fixed?: Record<string, string | number>;
  /** Filters every call carries whatever the user chooses (e.g. `{ table: ['mt_bank'] }` for one master). */
  fixedFilters?: RawFilters;
  /** How a list that is not persisted starts (e.g. `{ perPage: 50 }`). */
  initial?: Partial<ListState>;
  /**
   * Filters a link opened the list with (`?filter=…`, see `filteredListPathOf`): the list shows exactly them
   * (keyword and other filters cleared, page 1), and keeps them like filters the user set.
   */
  linked?: RawFilters;
}

/** The state showing a link's filters. */
const showLinked = (state: ListState, linked: RawFilters | undefined): ListState => (linked ? { ...state, keyword: '', filters: linked, page: 1 } : state);

export interface ListController {
  def: ResourceDef;
  state: ListState;
  rows: Row[];
  /** The rows the filters select: exact, or `LIMITS.countCap` while `totalMore` (the list goes on past it). */
  total: number | undefined;
  /** The total is the cap of a longer list (「10,000件以上」) until `setExactTotal` gives the exact figure. */
  totalMore: boolean;
  /** The `{r}_cnt` parameters of the current list (what `count_exact` counts); undefined while a filter cannot be sent. */
  countQuery: Record<string, string | number | object> | undefined;
  /** Records the exact total of the list whose `{r}_cnt` parameters were `query` (what `count_exact` answered). */
  setExactTotal: (query: Record<string, string | number | object>, count: number) => void;
  /** The resource's money `totals` summed over every row the filters select (`{r}_sum`); undefined while unknown or when it has none. */
  sums: Record<string, number> | undefined;
  pageCount: number;
  /** True while the first answer for the current query is awaited. */
  isLoading: boolean;
  /** True while any call of the list is in flight (also when older rows are still shown). */
  isValidating: boolean;
  /** Japanese problem to show: a filter that cannot be sent, or the server's message. */
  error: string | undefined;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  toggleSort: (col: string) => void;
  setKeyword: (keyword: string) => void;
  setFilter: (name: string, value: string | string[] | undefined) => void;
  clearFilters: () => void;
  setTabIndex: (index: number) => void;
  applySavedSearch: (saved: Partial<SavedSearch>) => void;
  currentQueryForSave: () => SavedSearchPayload;
  refresh: () => void;
  /** What `{r}_csv` exports: the list's keyword, filters, sort and fixed parameters, every page (undefined while a filter cannot be sent). */
  exportQuery: Record<string, string | number | object> | undefined;
}

/** Local-storage key of the sort and filters (beside the spec's per-list keys, cleared with them at logout). */
export const conditionsKey = (storageKey: string): string => `${listKey(storageKey, 'search')}.conditions`;

/** Reads a list's persisted state. */
export function readListState(def: ResourceDef): ListState {
  return restoreListState(def, {
    keyword: readStored<unknown>(listKey(def.storageKey, 'search'), ''),
    perPage: readStored<unknown>(listKey(def.storageKey, 'perPage'), undefined),
    page: readStored<unknown>(listKey(def.storageKey, 'currentPage'), undefined),
    tabIndex: readStored<unknown>(listKey(def.storageKey, 'tabIndex'), undefined),
    conditions: readStored<unknown>(conditionsKey(def.storageKey), undefined),
  });
}

/** Writes a list's state under its keys: keyword, page size, page, tab index, and sort + filters. */
export function writeListState(def: ResourceDef, state: ListState): void {
  writeStored(listKey(def.storageKey, 'search'), state.keyword);
  writeStored(listKey(def.storageKey, 'perPage'), state.perPage);
  writeStored(listKey(def.storageKey, 'currentPage'), state.page);
  writeStored(listKey(def.storageKey, 'tabIndex'), state.tabIndex);
  writeStored(conditionsKey(def.storageKey), { sort: state.sort, filters: state.filters });
}

export { callFetcher } from '../data/use-call';

/** A Japanese message for a failed call. */
export function messageOf(error: unknown): string | undefined {
  if (!error) return undefined;
  if (error instanceof CallError) return error.message;
  return MESSAGES.internal;
}

/**
 * The list controller of a resource.
 * @example const list = useListController(clientResource); list.toggleSort('cl_co_name');
 */
export function useListController(def: ResourceDef, options: ListControllerOptions = {}): ListController {
  const persist = options.persist ?? true;
  const [state, setState] = useState<ListState>(() => showLinked(persist ? readListState(def) : { ...initialListState(def), ...options.initial }, options.linked));
  const fixedKey = JSON.stringify([options.fixed ?? {}, options.fixedFilters ?? {}]);

  // A link followed while the list is open (the first one is in the initial state).
  const linkedKey = JSON.stringify(options.linked ?? null);
  const appliedLink = useRef(linkedKey);
  useEffect(() => {
    if (linkedKey === appliedLink.current) return;
    appliedLink.current = linkedKey;
    const linked = JSON.parse(linkedKey) as RawFilters | null;
    if (linked) setState((s) => showLinked(s, linked));
  }, [linkedKey]);

  useEffect(() => {
    if (persist) writeListState(def, state);
  }, [def, persist, state]);

  const built = useMemo(() => {
    const [fixed, fixedFilters] = JSON.parse(fixedKey) as [Record<string, string | number>, RawFilters];
    return buildListQuery(def, state, { fixed, fixedFilters });
  }, [def, state, fixedKey]);

  const lst = useCall(resourceCall(def, 'lst'), built.ok ? built.list : null, {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const cnt = useCall(resourceCall(def, 'cnt'), built.ok ? built.count : null, {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });

  const summed = Boolean(def.list.totals?.length);
  const sum = useCall(resourceCall(def, 'sum'), built.ok && summed ? built.count : null, {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const exportQuery = useMemo(() => (built.ok ? { ...built.count, col: built.list.col, odr: built.list.odr } : undefined), [built]);

  // The exact total `count_exact` found, for the list it counted (a total past the cap is the cap until then).
  const countQuery = built.ok ? built.count : undefined;
  const countKey = JSON.stringify(countQuery ?? null);
  const [exact, setExact] = useState<{ key: string; count: number }>();
  const exactNow = exact?.key === countKey ? exact.count : undefined;
  const setExactTotal = useCallback((query: Record<string, string | number | object>, count: number) => setExact({ key: JSON.stringify(query), count }), []);
  const total = built.ok ? (exactNow ?? countOf(cnt.data)) : undefined;
  const totalMore = built.ok && exactNow === undefined && countMoreOf(cnt.data);
  const rows = built.ok ? (lst.data ?? []) : [];
  const pageCount = openPageCount(total ?? 0, totalMore, state.perPage, state.page, lst.isValidating ? 0 : rows.length);

  // A page beyond the end (rows deleted, a stored page of an older search) moves to the last page.
  useEffect(() => {
    if (total !== undefined && !totalMore && !cnt.isValidating && state.page > pageCount) {
      setState((s) => ({ ...s, page: pageCount }));
    }
  }, [total, totalMore, pageCount, state.page, cnt.isValidating]);

  const stateRef = useRef(state);
  stateRef.current = state;

  const update = useCallback((change: (s: ListState) => ListState) => setState((s) => change(s)), []);

  const setPage = useCallback((page: number) => update((s) => ({ ...s, page: Math.max(1, Math.floor(page) || 1) })), [update]);
  const setPerPage = useCallback(
    (perPage: number) => update((s) => ({ ...s, perPage: Math.min(LIMITS.maxPageSize, Math.max(1, Math.floor(perPage) || LIMITS.defaultPageSize)), page: 1 })),
    [update],
  );
  const toggleSort = useCallback((col: string) => update((s) => ({ ...s, sort: nextSort(def, s.sort, col), page: 1 })), [def, update]);
  const setKeyword = useCallback((keyword: string) => update((s) => ({ ...s, keyword: keyword.trim(), page: 1 })), [update]);
  const setFilter = useCallback(
    (name: string, value: string | string[] | undefined) => update((s) => ({ ...s, filters: withFilter(s.filters, name, value), page: 1 })),
    [update],
  );
  const clearFilters = useCallback(() => update((s) => ({ ...s, filters: {}, page: 1 })), [update]);
  const setTabIndex = useCallback((tabIndex: number) => update((s) => ({ ...s, tabIndex })), [update]);
  const applySavedSearch = useCallback((saved: Partial<SavedSearch>) => update((s) => applySavedSearchToState(def, s, saved)), [def, update]);
  const currentQueryForSave = useCallback(() => stateToSavedSearch(stateRef.current), []);
  const { mutate: mutateLst } = lst;
  const { mutate: mutateCnt } = cnt;
  const { mutate: mutateSum } = sum;
  const refresh = useCallback(() => {
    setExact(undefined);
    void mutateLst();
    void mutateCnt();
    void mutateSum();
  }, [mutateLst, mutateCnt, mutateSum]);

  return {
    def,
    state,
    rows,
    total,
    totalMore,
    countQuery,
    setExactTotal,
    sums: built.ok && summed ? sum.data?.[0] : undefined,
    pageCount,
    isLoading: built.ok && lst.isLoading,
    isValidating: built.ok && (lst.isValidating || cnt.isValidating || sum.isValidating),
    error: built.ok ? messageOf(lst.error ?? cnt.error ?? sum.error) : built.message,
    setPage,
    setPerPage,
    toggleSort,
    setKeyword,
    setFilter,
    clearFilters,
    setTabIndex,
    applySavedSearch,
    currentQueryForSave,
    refresh,
    exportQuery,
  };
}

export type { ListSort, ListState };
