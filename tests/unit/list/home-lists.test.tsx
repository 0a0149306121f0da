/**
 * Daily use of the lists (issue 10), without a browser: typed days, the home page's links (its counts open
 * exactly the rows they count), the total row of the filtered set from `{r}_sum`, and the home page's items
 * shown only to roles that may open their lists.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { getDefaultStore } from 'jotai';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { SWRConfig } from 'swr';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ResourceListScreen from '@/components/resource/resource-list-screen';
import HomeScreen from '@/components/screens/home';
import { setConfig } from '@/lib/client/api/config';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { parseDay } from '@/lib/format';
import { workItemCount, workItemPath, workItems } from '@/lib/home/work-items';
import { buildListQuery, initialListState, linkedFilters } from '@/lib/list/list-state';
import { ALL_WRITE, normalizeAreas } from '@/lib/permissions';
import { orderResource } from '@/lib/resources/order';
import { permissionsAtom } from '@/lib/client/state/atoms';
import { KEYS } from '@/lib/storage-keys';
import { matchRoute } from '@/lib/routes';

const today = '2026-11-25';

describe('parseDay', () => {
  it('reads the ways a day is typed, this year when the year is left out', () => {
    expect(parseDay('2026-11-25', today)).toBe('2026-11-25');
    expect(parseDay('2026/1/5', today)).toBe('2026-01-05');
    expect(parseDay('20261125', today)).toBe('2026-11-25');
    expect(parseDay('２０２６年１１月２５日', today)).toBe('2026-11-25');
    expect(parseDay('11/25', today)).toBe('2026-11-25');
    expect(parseDay('１２０１', today)).toBe('2026-12-01');
    expect(parseDay(' ', today)).toBe('');
  });

  it('refuses what is no day', () => {
    for (const text of ['2026-02-30', '1332', '2026-11', 'あした', '2026-11-25x']) expect(parseDay(text, today)).toBeUndefined();
  });
});

describe('the home page’s links', () => {
  it('count what the linked list sends (the same filters, so the same number)', () => {
    for (const item of workItems(today)) {
      const count = workItemCount(item, today);
      expect(count, item.key).toBeDefined();
      const path = workItemPath(item);
      expect(matchRoute(path), path).toBeDefined();
      const [route, query = ''] = path.split('?');
      const linked = linkedFilters(item.def, new URLSearchParams(query));
      expect(linked ?? {}, item.key).toEqual(item.filters ?? {});
      const opened = { ...initialListState(item.def), filters: linked ?? {} };
      const built = buildListQuery(item.def, opened, { today, fixedFilters: item.fixed });
      expect(built.ok && built.count, `${item.key} ${route}`).toEqual(count);
    }
    expect(workItemCount(workItems(today)[2], today)?.postData.delivery_date).toEqual([today, today]);
  });
});

const API = 'http://test.local/api/db';
let calls: string[] = [];
const server = setupServer(
  http.post(`${API}/:call`, async ({ request, params }) => {
    const name = String(params.call);
    calls.push(name);
    await request.text();
    if (name === 'order_lst') {
      return HttpResponse.json([
        { od_id: 2, od_number: 'OD-2', od_date: '2026-11-20', od_cl_id: 1, od_cl_id_label: '青葉商事', od_delivery_date: '2026-11-25', od_status: 'pending', od_uriage_total: 2808 },
        { od_id: 1, od_number: 'OD-1', od_date: '2026-11-19', od_cl_id: 1, od_cl_id_label: '青葉商事', od_delivery_date: '2026-11-24', od_status: 'pending', od_uriage_total: 1404 },
      ]);
    }
    if (name === 'order_cnt') return HttpResponse.json([12]);
    if (name === 'order_sum') return HttpResponse.json([{ count: 12, od_uriage_total: 98765 }]);
    if (name.endsWith('_cnt')) return HttpResponse.json([3]);
    if (name === 'search_lst' || name === 'master_lst') return HttpResponse.json([]);
    return HttpResponse.json([{ error: 'unknown' }], { status: 400 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  calls = [];
  localStorage.clear();
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
  localStorage.setItem(KEYS.authKey, JSON.stringify('k'));
  localStorage.setItem(KEYS.userRole, JSON.stringify('管理'));
  getDefaultStore().set(permissionsAtom, { authKey: 'k', areas: ALL_WRITE });
});

const fresh = (node: React.ReactNode) => render(<SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{node}</SWRConfig>);

describe('the total row', () => {
  it('shows the filtered set’s count and money total under the money column, from _sum', async () => {
    fresh(<ResourceListScreen resource={orderResource} />);
    const table = await screen.findByRole('table', { name: '受注一覧' });
    const totalRow = await within(table).findByRole('row', { name: /絞り込んだ 12 件の合計/ });
    expect(within(totalRow).getAllByRole('cell').at(-1)).toHaveTextContent('98,765円');
    expect(calls).toContain('order_sum');
  });

  it('is not asked for where the resource declares no money totals', async () => {
    fresh(<ResourceListScreen resource="client" />);
    await screen.findByRole('table');
    expect(calls).not.toContain('client_sum');
  });
});

describe('the filter panel', () => {
  it('starts folded without filters and open with one, then remembers', async () => {
    fresh(<ResourceListScreen resource={orderResource} />);
    const toggle = screen.getByRole('button', { name: /詳細検索/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(localStorage.getItem('hod.list.order.search.filtersOpen')).toBe('true');
  });
});

describe('home', () => {
  it('shows today’s counts as links to their lists, only those the role may open', async () => {
    fresh(<HomeScreen />);
    const work = await screen.findByRole('list', { name: '今日の仕事' });
    expect(within(work).getAllByRole('link')).toHaveLength(7);
    expect(within(work).getByRole('link', { name: /未処理の受注/ })).toHaveAttribute('href', '#/orders/list/untreated');
    expect(await within(work).findByTestId('work-untreated')).toHaveTextContent('12件');
    expect(await within(work).findByTestId('work-maintenance')).toHaveTextContent('3台');
    // Customers whose 入金予定 falls before their closing date: counted, linked to the customer list's filter.
    expect(within(work).getByRole('link', { name: /締日より前の入金予定/ })).toHaveAttribute('href', `#/client/list?filter=${encodeURIComponent(JSON.stringify({ payment_terms: ['1'] }))}`);
    expect(await within(work).findByTestId('work-payment_terms')).toHaveTextContent('3件');
  });

  it('leaves out what the role cannot read', async () => {
    getDefaultStore().set(permissionsAtom, { authKey: 'k', areas: normalizeAreas({ client: 'read', hod: 'read' }) });
    localStorage.setItem(KEYS.userRole, JSON.stringify('配送'));
    fresh(<HomeScreen />);
    const work = await screen.findByRole('list', { name: '今日の仕事' });
    expect(within(work).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([5, 6].map((k) => `#${workItemPath(workItems(today)[k])}`));
    expect(calls.some((c) => c.startsWith('order_') || c.startsWith('server_'))).toBe(false);
  });
});
