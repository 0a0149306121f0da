import { describe, expect, it } from 'vitest';
import {
  applySavedSearchToState,
  buildListQuery,
  cleanFilters,
  countOf,
  initialListState,
  pageCountOf,
  pageWindow,
  restoreListState,
  stateToSavedSearch,
  toggleSort,
  withFilter,
} from '@/lib/list/list-state';
import { clientResource as def } from '@/lib/resources/client';

const today = '2026-11-22';

describe('buildListQuery', () => {
  it('builds the default query of a fresh list', () => {
    const built = buildListQuery(def, initialListState(def), { today });
    expect(built).toEqual({
      ok: true,
      list: { n: 10, p: 1, col: 'cl_id', odr: 'desc', kw: '', postData: {} },
      count: { kw: '', postData: {} },
    });
  });

  it('applies the spec §5 date-range rules to the raw filters', () => {
    const state = { ...initialListState(def), page: 3, perPage: 20, keyword: ' ｱｸｱ ', filters: { modified: ['2026-01-01', ''], contract_date: ['', '2025-12-31'], status: ['1', '2'] } };
    const built = buildListQuery(def, state, { today });
    expect(built.ok && built.list).toEqual({
      n: 20, p: 3, col: 'cl_id', odr: 'desc', kw: 'ｱｸｱ',
      postData: { modified: ['2026-01-01', today], contract_date: ['1970-01-01', '2025-12-31'], status: ['1', '2'] },
    });
  });

  it('carries fixed parameters (a sub-list of one customer)', () => {
    const built = buildListQuery(def, initialListState(def), { today, fixed: { cl_id: 7 } });
    expect(built.ok && built.list.cl_id).toBe(7);
    expect(built.ok && built.count.cl_id).toBe(7);
  });

  it('refuses a range whose start is after its end, with a Japanese message naming the filter', () => {
    const built = buildListQuery(def, { ...initialListState(def), filters: { created: ['2026-05-01', '2026-04-01'] } }, { today });
    expect(built.ok).toBe(false);
    expect(!built.ok && built.message).toContain('登録日');
  });

  it('refuses a keyword over 200 characters', () => {
    const built = buildListQuery(def, { ...initialListState(def), keyword: 'あ'.repeat(201) }, { today });
    expect(built.ok).toBe(false);
  });

  it('falls back to the default sort for a column outside the whitelist', () => {
    const built = buildListQuery(def, { ...initialListState(def), sort: { col: 'cl_pw', odr: 'asc' } }, { today });
    expect(built.ok && [built.list.col, built.list.odr]).toEqual(['cl_id', 'desc']);
  });
});

describe('toggleSort', () => {
  it('flips the order of the same column', () => {
    expect(toggleSort(def, { col: 'cl_id', odr: 'desc' }, 'cl_id')).toEqual({ col: 'cl_id', odr: 'asc' });
    expect(toggleSort(def, { col: 'cl_id', odr: 'asc' }, 'cl_id')).toEqual({ col: 'cl_id', odr: 'desc' });
  });
  it('starts another sortable column ascending', () => {
    expect(toggleSort(def, { col: 'cl_id', odr: 'desc' }, 'cl_co_name')).toEqual({ col: 'cl_co_name', odr: 'asc' });
  });
  it('ignores a column that is not whitelisted', () => {
    const sort = { col: 'cl_id', odr: 'desc' } as const;
    expect(toggleSort(def, sort, 'cl_memo')).toBe(sort);
  });
});

describe('paging helpers', () => {
  it('counts pages (at least one)', () => {
    expect(pageCountOf(0, 10)).toBe(1);
    expect(pageCountOf(10, 10)).toBe(1);
    expect(pageCountOf(11, 10)).toBe(2);
    expect(pageCountOf(1000, 100)).toBe(10);
  });
  it('shows first, last and a window around the current page', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(7, 20)).toEqual([1, null, 5, 6, 7, 8, 9, null, 20]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, null, 20]);
  });
  it('reads the count in its answer shapes', () => {
    expect(countOf([42])).toBe(42);
    expect(countOf([{ count: 5 }])).toBe(5);
    expect(countOf([{ total: '7' }])).toBe(7);
    expect(countOf([])).toBeUndefined();
  });
});

describe('filters as plain data', () => {
  it('drops empty values and undeclared names', () => {
    expect(cleanFilters(def, { created: ['', ''], modified: ['2026-01-01', ''], status: [], cl_pw: 'x', next_shipping_date: ['', '2026-01-02'] }))
      .toEqual({ modified: ['2026-01-01', ''], next_shipping_date: ['', '2026-01-02'] });
  });
  it('removes a filter when its value becomes empty', () => {
    expect(withFilter({ status: ['1'] }, 'status', [])).toEqual({});
    expect(withFilter({}, 'created', ['2026-01-01', ''])).toEqual({ created: ['2026-01-01', ''] });
  });
});

describe('saved searches round trip', () => {
  it('saves keyword, sort and raw filters, and restores them on page 1', () => {
    const state = { ...initialListState(def), page: 4, perPage: 50, keyword: '水', sort: { col: 'cl_co_name', odr: 'asc' as const }, filters: { status: ['1'] } };
    const payload = stateToSavedSearch(state);
    expect(payload).toEqual({ srch_kw: '水', srch_col: 'cl_co_name', srch_odr: 'asc', postData: '{"status":["1"]}' });
    const restored = applySavedSearchToState(def, initialListState(def), { srch_id: 1, srch_name: 'x', ...payload });
    expect(restored).toEqual({ ...initialListState(def), keyword: '水', sort: { col: 'cl_co_name', odr: 'asc' }, filters: { status: ['1'] } });
  });
  it('survives a broken or foreign saved search', () => {
    const restored = applySavedSearchToState(def, initialListState(def), { srch_kw: 'a', srch_col: 'nope', srch_odr: 'sideways', postData: '{broken' });
    expect(restored.sort).toEqual(def.list.defaultSort);
    expect(restored.filters).toEqual({});
  });
});

describe('restoreListState', () => {
  it('keeps only sensible stored values', () => {
    expect(restoreListState(def, { keyword: 3, perPage: -1, page: 'x', tabIndex: 2, conditions: { sort: { col: 'evil', odr: 'asc' }, filters: 'no' } }))
      .toEqual({ ...initialListState(def), tabIndex: 2 });
    expect(restoreListState(def, { keyword: 'abc', perPage: 50, page: 3, conditions: { sort: { col: 'cl_name', odr: 'asc' }, filters: { status: ['2'] } } }))
      .toEqual({ ...initialListState(def), keyword: 'abc', perPage: 50, page: 3, sort: { col: 'cl_name', odr: 'asc' }, filters: { status: ['2'] } });
  });
});
