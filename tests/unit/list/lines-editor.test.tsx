import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { SWRConfig } from 'swr';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LinesEditor, type LinesEditorProps } from '@/components/resource/lines-editor';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { setConfig } from '@/lib/client/api/config';
import { useChildRows, type ChildRowsState } from '@/lib/client/list/use-child-rows';
import type { Row } from '@/lib/client/list/use-list-controller';
import { hodReportResource } from '@/lib/resources/hod-report';
import { orderResource } from '@/lib/resources/order';
import type { ChildDef } from '@/lib/resources/types';
import { KEYS } from '@/lib/storage-keys';

const API = 'http://test.local/api/db';
const NAMES: Record<string, Record<string, string>> = {
  client: { 7: '青葉商事', 8: '株式会社アクア' },
  item: { 3: '天然水 12L', 4: 'サーバーレンタル' },
};
const server = setupServer(
  http.post(`${API}/:call`, async ({ request, params }) => {
    const body = Object.fromEntries(new URLSearchParams(await request.text()));
    if (params.call === 'client_dtl') return HttpResponse.json([{ cl_id: Number(body.id), cl_co_name: NAMES.client[body.id] ?? '', cl_name: '' }]);
    if (params.call === 'item_dtl') return HttpResponse.json([{ it_id: Number(body.id), it_name: NAMES.item[body.id] ?? '', it_code: 'X' }]);
    if (params.call === 'client_lst') return HttpResponse.json([{ cl_id: 8, cl_co_name: '株式会社アクア', cl_name: '' }]);
    return HttpResponse.json([{ error: 'unknown' }], { status: 400 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
  localStorage.setItem(KEYS.authKey, JSON.stringify('k'));
});

const STOPS = hodReportResource.children as ChildDef;
const LINES = orderResource.children as ChildDef;
const stop = (id: number, cl: number, delivered: number, cash: number): Row => ({
  hrs_id: id, hrs_cl_id: cl, hrs_it_id: 3, hrs_delivered: delivered, hrs_collected: 0, hrs_cash: cash, hrs_result: 'delivered', hrs_note: '',
});

let state: ChildRowsState | undefined;
function Harness({ child, stored, ...props }: { child: ChildDef; stored: Row[] } & Omit<LinesEditorProps, 'state'>) {
  const rows = useChildRows(child, stored, child === LINES ? { quantity: '1' } : undefined);
  state = rows;
  return (
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <LinesEditor state={rows} {...props} />
      <output aria-label="送る内容">{JSON.stringify(rows.payload())}</output>
      <output aria-label="変更">{rows.dirty ? 'yes' : 'no'}</output>
    </SWRConfig>
  );
}

const sent = () => JSON.parse(screen.getByLabelText('送る内容').textContent ?? '[]') as Record<string, string>[];

describe('LinesEditor', () => {
  it('draws the declared fields of each stored row as inputs named by row, with the stored names of references', async () => {
    render(<Harness child={STOPS} stored={[stop(1, 7, 3, 3888), stop(2, 8, 1, 0)]} counter="件目" labels={{ it_id: 'ボトル', collected: '回収本数' }} />);
    const table = screen.getByRole('table', { name: '訪問先' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#', '顧客', 'ボトル', 'お届け本数', '回収本数', '集金額', '結果', 'メモ', '操作']);
    expect(screen.getByLabelText('1件目のお届け本数')).toHaveValue('3');
    expect(screen.getByLabelText('2件目の集金額')).toHaveValue('0');
    expect(screen.getByLabelText('1件目の結果')).toHaveValue('delivered');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '2件目の顧客' })).toHaveValue('株式会社アクア'));
    expect(screen.getByLabelText('変更').textContent).toBe('no');
    expect(sent().map((r) => r.cl_id)).toEqual(['7', '8']);
  });

  it('adds a row with the declared initial values and focuses it, removes, and moves rows by button and Alt+↑/↓', async () => {
    render(<Harness child={STOPS} stored={[stop(1, 7, 3, 100), stop(2, 8, 1, 200)]} counter="件目" />);
    fireEvent.click(screen.getByRole('button', { name: '＋ 訪問先を追加' }));
    const added = screen.getByRole('combobox', { name: '3件目の顧客' });
    await waitFor(() => expect(added).toHaveFocus());
    expect(screen.getByLabelText('3件目の結果')).toHaveValue('delivered');
    // A blank row is never sent, but the list changed.
    expect(sent()).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: '2件目を上へ' }));
    expect(sent().map((r) => r.cash)).toEqual(['200', '100']);
    // The moved row is now first: its 上へ is off, so the focus stays on the row with its 下へ.
    await waitFor(() => expect(screen.getByRole('button', { name: '1件目を下へ' })).toHaveFocus());
    expect(screen.getByLabelText('変更').textContent).toBe('yes');
    fireEvent.keyDown(screen.getByLabelText('1件目の集金額'), { key: 'ArrowDown', altKey: true });
    expect(sent().map((r) => r.cash)).toEqual(['100', '200']);
    await waitFor(() => expect(screen.getByLabelText('2件目の集金額')).toHaveFocus());

    fireEvent.click(screen.getByRole('button', { name: '削除（1件目）' }));
    expect(sent().map((r) => r.cash)).toEqual(['200']);
  });

  it('stops adding at the declared maximum', () => {
    const small: ChildDef = { ...STOPS, max: 2 };
    render(<Harness child={small} stored={[stop(1, 7, 3, 100)]} counter="件目" />);
    fireEvent.click(screen.getByRole('button', { name: '＋ 訪問先を追加' }));
    expect(screen.getByRole('button', { name: '＋ 訪問先を追加' })).toBeDisabled();
    expect(screen.getByText('訪問先は2件までです。')).toBeVisible();
  });

  it('converts numbers typed full-width when the input loses focus', () => {
    render(<Harness child={STOPS} stored={[stop(1, 7, 3, 100)]} counter="件目" />);
    const cash = screen.getByLabelText('1件目の集金額');
    fireEvent.change(cash, { target: { value: '１，２００' } });
    fireEvent.blur(cash);
    expect(cash).toHaveValue('1,200');
    expect(sent()[0].cash).toBe('1,200');
  });

  it('shows a refusal\'s row messages at the cell of the row that was sent (blank rows are not), until that row changes', async () => {
    render(<Harness child={STOPS} stored={[stop(1, 7, 3, 100), stop(2, 8, 1, 200)]} counter="件目" />);
    // A blank row between the two: the server's index 1 is the screen's third row.
    fireEvent.click(screen.getByRole('button', { name: '＋ 訪問先を追加' }));
    fireEvent.click(screen.getByRole('button', { name: '3件目を上へ' }));
    let cell: string | undefined;
    act(() => {
      cell = state?.showMessages({ 1: { cash: '集金額は0〜9999999の整数（円）で入力してください。' } });
    });
    const cash = screen.getByLabelText('3件目の集金額');
    expect(cell).toBe(cash.id);
    expect(cash).toHaveAttribute('aria-invalid', 'true');
    expect(cash).toHaveAccessibleDescription('集金額は0〜9999999の整数（円）で入力してください。');
    expect(screen.getByLabelText('1件目の集金額')).not.toHaveAttribute('aria-invalid');
    fireEvent.change(cash, { target: { value: '300' } });
    expect(cash).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('draws the derived columns read-only, from the stored row or the resource\'s live values, and the save\'s own check at the cell, live', async () => {
    const line: Row = { odd_id: 1, odd_it_id: 3, odd_name: '天然水 12L', odd_quantity: 2, odd_price: 1300, odd_amount: 2600, odd_tax_class: 'reduced', odd_tax_rate: 8 };
    render(
      <Harness child={LINES} stored={[line]} derived={(row) => ({ tax_class: row.values.it_id ? '軽減' : '' })} />,
    );
    expect(screen.getByTestId('line-1-amount')).toHaveTextContent('2600');
    expect(screen.getByTestId('line-1-tax_class')).toHaveTextContent('軽減');
    expect(within(screen.getByTestId('line-1-amount')).queryByRole('textbox')).toBeNull();
    const quantity = screen.getByLabelText('1行目の数量');
    fireEvent.change(quantity, { target: { value: 'ab' } });
    expect(quantity).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('数量は整数で入力してください。');
    expect(state?.firstInvalid()).toBe(quantity.id);
    // The row rule of the declaration (lineCheck): a quantity of 0 is refused as the save refuses it.
    fireEvent.change(quantity, { target: { value: '0' } });
    expect(screen.getByRole('alert')).toHaveTextContent('数量は0以外の整数で入力してください');
    fireEvent.change(quantity, { target: { value: '2' } });
    expect(state?.firstInvalid()).toBeUndefined();
    // A new line starts with the order's quantity 1 and an empty item (not sent until an item is chosen).
    fireEvent.click(screen.getByRole('button', { name: '＋ 明細を追加' }));
    expect(screen.getByLabelText('2行目の数量')).toHaveValue('1');
    expect(sent()).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('combobox', { name: '1行目の商品' })).toHaveValue('天然水 12L'));
  });

  it('leaves the rows the server derives (the fee line) out of the edited and sent rows, and draws the given fixed rows read-only after them', () => {
    const line: Row = { odd_id: 1, odd_it_id: 3, odd_name: '天然水 12L', odd_quantity: 2, odd_price: 1300, odd_amount: 2600, odd_tax_class: 'reduced', odd_tax_rate: 8, odd_fee: 0 };
    const fee: Row = { odd_id: 2, odd_it_id: null, odd_name: '送料', odd_quantity: 1, odd_price: 550, odd_amount: 550, odd_tax_class: 'standard', odd_tax_rate: 10, odd_fee: 1 };
    render(<Harness child={LINES} stored={[line, fee]} fixedRows={[{ key: 'fee', cells: { name: '送料', quantity: '1', price: '550', amount: '550円', tax_rate: '10%' }, note: '送料（税抜）から自動' }]} />);
    expect(screen.queryByLabelText('2行目の数量')).toBeNull();
    expect(sent()).toEqual([{ it_id: '3', name: '天然水 12L', quantity: '2', price: '1300' }]);
    expect(screen.getByLabelText('変更').textContent).toBe('no');
    const row = screen.getByTestId('fixed-row-fee');
    expect(within(row).queryByRole('textbox')).toBeNull();
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.getByTestId('fixed-fee-amount')).toHaveTextContent('550円');
    expect(row).toHaveTextContent('送料（税抜）から自動');
    // Rows added go before it: it stays the last row.
    fireEvent.click(screen.getByRole('button', { name: '＋ 明細を追加' }));
    const rows = within(screen.getByRole('table', { name: '明細' })).getAllByRole('row');
    expect(rows.at(-1)).toBe(row);
  });

  it('starts with one blank row when the stored rows are only derived ones', () => {
    const fee: Row = { odd_id: 2, odd_it_id: null, odd_name: '送料', odd_quantity: 1, odd_price: 550, odd_amount: 550, odd_tax_class: 'standard', odd_tax_rate: 10, odd_fee: 1 };
    render(<Harness child={LINES} stored={[fee]} />);
    expect(screen.getByLabelText('1行目の数量')).toHaveValue('1');
    expect(sent()).toEqual([]);
  });

  it('draws no buttons and no editable inputs when disabled', () => {
    render(<Harness child={STOPS} stored={[stop(1, 7, 3, 100)]} counter="件目" disabled />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByLabelText('1件目の集金額')).toBeDisabled();
  });
});
