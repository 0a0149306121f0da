import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setConfig } from '@/lib/client/api/config';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { useListController } from '@/lib/client/list/use-list-controller';
import { useSavedSearches } from '@/lib/client/list/use-saved-searches';
import { clientResource as def } from '@/lib/resources/client';
import { listKey } from '@/lib/storage-keys';

const API = 'http://test.local/api/db';
type Call = { name: string; body: Record<string, string> };
let calls: Call[] = [];
let saved: Record<string, unknown>[] = [];
const TOTAL = 35;

const server = setupServer(
  http.post(`${API}/:call`, async ({ request, params }) => {
    const name = String(params.call);
    const body = Object.fromEntries(new URLSearchParams(await request.text()));
    calls.push({ name, body });
    if (name === 'client_lst') {
      const n = Number(body.n);
      const p = Number(body.p);
      const rows = Array.from({ length: Math.max(0, Math.min(n, TOTAL - (p - 1) * n)) }, (_, i) => ({ cl_id: (p - 1) * n + i + 1, cl_co_name: `会社${(p - 1) * n + i + 1}` }));
      return HttpResponse.json(rows);
    }
    if (name === 'client_cnt') return HttpResponse.json([TOTAL]);
    if (name === 'search_lst') return HttpResponse.json(saved.map((s) => ({ srch_id: s.srch_id, srch_name: s.srch_name })));
    if (name === 'search_save') {
      const row = { ...body, srch_id: saved.length + 1 };
      saved.push(row);
      return HttpResponse.json([row]);
    }
    if (name === 'search_dtl') return HttpResponse.json(saved.filter((s) => String(s.srch_id) === body.srch_id));
    if (name === 'search_sync') {
      saved = saved.filter((s) => String(s.srch_id) !== body.srch_id);
      return HttpResponse.json([{ srch_id: Number(body.srch_id) }]);
    }
    return HttpResponse.json([{ error: '存在しない呼び出しです。' }], { status: 400 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  calls = [];
  saved = [];
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
});
afterEach(() => server.resetHandlers());

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>
);
const lastList = () => [...calls].reverse().find((c) => c.name === 'client_lst')!.body;

describe('useListController', () => {
  it('fetches the first page and the count', async () => {
    const { result } = renderHook(() => useListController(def), { wrapper });
    await waitFor(() => expect(result.current.rows).toHaveLength(10));
    await waitFor(() => expect(result.current.total).toBe(35));
    expect(result.current.pageCount).toBe(4);
    expect(lastList()).toMatchObject({ n: '10', p: '1', col: 'cl_id', odr: 'desc', kw: '', postData: '{}' });
  });

  it('pages, and resets to page 1 when the page size changes', async () => {
    const { result } = renderHook(() => useListController(def), { wrapper });
    await waitFor(() => expect(result.current.total).toBe(35));
    act(() => result.current.setPage(4));
    await waitFor(() => expect(result.current.rows).toHaveLength(5));
    expect(lastList().p).toBe('4');
    act(() => result.current.setPerPage(20));
    await waitFor(() => expect(lastList()).toMatchObject({ n: '20', p: '1' }));
    expect(result.current.state.page).toBe(1);
  });

  it('toggles the sort only on whitelisted columns', async () => {
    const { result } = renderHook(() => useListController(def), { wrapper });
    act(() => result.current.toggleSort('cl_co_name'));
    await waitFor(() => expect(lastList()).toMatchObject({ col: 'cl_co_name', odr: 'asc' }));
    act(() => result.current.toggleSort('cl_co_name'));
    await waitFor(() => expect(lastList()).toMatchObject({ col: 'cl_co_name', odr: 'desc' }));
    act(() => result.current.toggleSort('cl_memo'));
    expect(result.current.state.sort).toEqual({ col: 'cl_co_name', odr: 'desc' });
  });

  it('sends normalised filters and the keyword', async () => {
    const { result } = renderHook(() => useListController(def), { wrapper });
    act(() => {
      result.current.setKeyword('ｱｸｱ');
      result.current.setFilter('modified', ['2026-01-01', '2026-01-31']);
      result.current.setFilter('status', ['1']);
    });
    await waitFor(() => expect(lastList().kw).toBe('ｱｸｱ'));
    expect(JSON.parse(lastList().postData)).toEqual({ modified: ['2026-01-01', '2026-01-31'], status: ['1'] });
    act(() => result.current.clearFilters());
    await waitFor(() => expect(lastList().postData).toBe('{}'));
  });

  it('does not call with a reversed date range and shows a Japanese problem', async () => {
    const { result } = renderHook(() => useListController(def), { wrapper });
    await waitFor(() => expect(result.current.total).toBe(35));
    const before = calls.length;
    // The clock is moved on instead of waited out: no call comes of the refused range.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      act(() => result.current.setFilter('created', ['2026-05-01', '2026-04-01']));
      expect(result.current.error).toMatch(/登録日/);
      expect(result.current.rows).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(50));
      expect(calls.length).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('persists keyword, page size, page and tab index per list, and restores them', async () => {
    const first = renderHook(() => useListController(def), { wrapper });
    act(() => {
      first.result.current.setKeyword('水');
      first.result.current.setPerPage(20);
      first.result.current.setPage(2);
      first.result.current.setTabIndex(3);
      first.result.current.toggleSort('cl_name');
    });
    expect(JSON.parse(localStorage.getItem(listKey('client', 'search'))!)).toBe('水');
    expect(JSON.parse(localStorage.getItem(listKey('client', 'perPage'))!)).toBe(20);
    expect(JSON.parse(localStorage.getItem(listKey('client', 'currentPage'))!)).toBe(1);
    expect(JSON.parse(localStorage.getItem(listKey('client', 'tabIndex'))!)).toBe(3);
    first.unmount();
    const second = renderHook(() => useListController(def), { wrapper });
    expect(second.result.current.state).toMatchObject({ keyword: '水', perPage: 20, tabIndex: 3, sort: { col: 'cl_name', odr: 'asc' } });
    await waitFor(() => expect(lastList()).toMatchObject({ kw: '水', n: '20', col: 'cl_name' }));
  });

  it('moves back to the last page when a stored page is beyond the end', async () => {
    localStorage.setItem(listKey('client', 'currentPage'), '9');
    const { result } = renderHook(() => useListController(def), { wrapper });
    await waitFor(() => expect(result.current.state.page).toBe(4));
  });
});

describe('useSavedSearches', () => {
  it('saves the current conditions, applies a saved search, deletes it and resets the selector', async () => {
    const { result } = renderHook(
      () => {
        const list = useListController(def, { persist: false });
        const searches = useSavedSearches(def, { onApply: list.applySavedSearch, current: list.currentQueryForSave });
        return { list, searches };
      },
      { wrapper },
    );
    act(() => {
      result.current.list.setKeyword('アクア');
      result.current.list.setFilter('status', ['1']);
      result.current.list.toggleSort('cl_co_name');
    });
    let ok = false;
    await act(async () => {
      ok = await result.current.searches.save('アクアの有効顧客');
    });
    expect(ok).toBe(true);
    const body = calls.find((c) => c.name === 'search_save')!.body;
    expect(body).toMatchObject({ srch_name: 'アクアの有効顧客', srch_tbl: 'client', srch_kw: 'アクア', srch_col: 'cl_co_name', srch_odr: 'asc', postData: '{"status":["1"]}' });
    await waitFor(() => expect(result.current.searches.items).toEqual([{ srch_id: 1, srch_name: 'アクアの有効顧客' }]));

    act(() => {
      result.current.list.setKeyword('');
      result.current.list.clearFilters();
    });
    await act(async () => {
      await result.current.searches.select('1');
    });
    expect(result.current.list.state).toMatchObject({ keyword: 'アクア', filters: { status: ['1'] }, sort: { col: 'cl_co_name', odr: 'asc' }, page: 1 });

    await act(async () => {
      await result.current.searches.remove();
    });
    expect(calls.some((c) => c.name === 'search_sync' && c.body.srch_id === '1')).toBe(true);
    expect(result.current.searches.selectedId).toBe('');
    await waitFor(() => expect(result.current.searches.items).toEqual([]));
  });
});
