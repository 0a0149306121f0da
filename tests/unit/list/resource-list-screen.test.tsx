import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { SWRConfig } from 'swr';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ResourceListScreen from '@/components/resource/resource-list-screen';
import { setConfig } from '@/lib/client/api/config';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { getDefaultStore } from 'jotai';
import { ALL_WRITE } from '@/lib/permissions';
import { permissionsAtom } from '@/lib/client/state/atoms';
import { KEYS } from '@/lib/storage-keys';

const API = 'http://test.local/api/db';
let bodies: Record<string, string>[] = [];
const server = setupServer(
  http.post(`${API}/:call`, async ({ request, params }) => {
    const body = Object.fromEntries(new URLSearchParams(await request.text()));
    const name = String(params.call);
    if (name === 'client_lst') {
      bodies.push(body);
      if (body.kw === 'なし') return HttpResponse.json([]);
      return HttpResponse.json([
        { cl_id: 12, cl_co_name: '株式会社アクア', cl_name: '山田 太郎', cl_tel_1: '03-1234-5678', cl_pref: '東京都', cl_city: '港区', cl_status: '1', cl_next_shipping_date: '2026-12-01', modified: '2026-11-21T15:30:00.000Z' },
      ]);
    }
    if (name === 'client_cnt') return HttpResponse.json([body.kw === 'なし' ? 0 : 25]);
    if (name === 'master_lst') return HttpResponse.json([{ value: '1', text: '契約中', id: 1, flg: 0, checked: false }]);
    if (name === 'search_lst') return HttpResponse.json([]);
    return HttpResponse.json([{ error: 'unknown' }], { status: 400 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  bodies = [];
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
  localStorage.setItem(KEYS.authKey, JSON.stringify('k'));
  localStorage.setItem(KEYS.userRole, JSON.stringify('管理'));
  // What role_mine answered for this key at start-up (the shell loads it before any screen).
  getDefaultStore().set(permissionsAtom, { authKey: 'k', areas: ALL_WRITE });
});

const renderList = () =>
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <ResourceListScreen resource="client" />
    </SWRConfig>,
  );

describe('ResourceListScreen', () => {
  it('draws a real table with formatted cells, sortable headers and paging', async () => {
    renderList();
    expect(screen.getByRole('heading', { level: 1, name: '顧客一覧' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    await within(table).findByRole('cell', { name: '契約中' });
    expect(within(table).getByRole('link', { name: '12' })).toHaveAttribute('href', '#/client/detail/12');
    expect(within(table).getByRole('cell', { name: '2026-11-22 0:30' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: /ID/ })).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getByRole('columnheader', { name: /会社名/ })).toHaveAttribute('aria-sort', 'none');
    await screen.findByText(/全 25 件/);
    const paging = screen.getByRole('navigation', { name: 'ページ送り' });
    expect(within(paging).getByRole('button', { name: '1ページ' })).toHaveAttribute('aria-current', 'page');
    expect(within(paging).getByRole('button', { name: '3ページ' })).toBeInTheDocument();
    // The same paging below the table.
    expect(within(screen.getByRole('navigation', { name: 'ページ送り（表の下）' })).getByRole('button', { name: '3ページ' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '新規登録' })).toHaveAttribute('href', '#/client/new');

    fireEvent.click(within(table).getByRole('button', { name: /会社名/ }));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: /会社名/ })).toHaveAttribute('aria-sort', 'ascending'));
    fireEvent.click(within(paging).getByRole('button', { name: '2ページ' }));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ p: '2', col: 'cl_co_name', odr: 'asc' }));
  });

  it('labels every filter and shows the empty state', async () => {
    renderList();
    const toggle = screen.getByRole('button', { name: /詳細検索/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(screen.getByLabelText('登録日（開始）')).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    expect(screen.getByLabelText('次回配送日（終了）')).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    expect(await screen.findByRole('checkbox', { name: '契約中' })).toBeInTheDocument();
    expect(screen.getByLabelText('表示件数')).toHaveValue('10');
    expect(screen.getByLabelText('保存した検索')).toBeInTheDocument();
    const box = screen.getByRole('searchbox', { name: 'キーワード' });
    fireEvent.change(box, { target: { value: 'なし' } });
    fireEvent.click(screen.getByRole('button', { name: '検索' }));
    expect(await screen.findByText('該当するデータはありません。')).toBeInTheDocument();
  });

  it('shows a refused date range in an alert', async () => {
    renderList();
    fireEvent.click(screen.getByRole('button', { name: /詳細検索/ }));
    fireEvent.change(screen.getByLabelText('更新日（開始）'), { target: { value: '2026-05-01' } });
    fireEvent.change(screen.getByLabelText('更新日（終了）'), { target: { value: '2026-04-01' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('「更新日」の範囲が正しくありません');
  });
});
