/**
 * Stock on the detail screens: a warehouse's stock per item with the adjustment form and its
 * movement history (`souko`), an item's stock per warehouse with its history (`item`). Reads
 * `stock_lst` / `stock_move_lst`, writes only through `stock_adjust`; the form is drawn from
 * lib/stock's field declarations and validated by the same schema as the server.
 */
import clsx from 'clsx';
import { useMemo, useState } from 'react';
import { useSWRConfig } from 'swr';
import { call } from '@/lib/client/api/fetcher';
import { formatDateTime } from '@/lib/format';
import type { FormRecord } from '@/lib/list/record-mapper';
import { refusalOf } from '@/lib/client/list/save-refusal';
import { useRecordForm } from '@/lib/client/form/use-record-form';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { can } from '@/lib/permissions';
import { STOCK_ADJUST_FIELDS, STOCK_MOVE_KIND, stockAdjustSchema } from '@/lib/stock';
import { Card } from '@/components/ui';
import { cellClass as cell, DataTable } from '../data-table';
import { optionText } from '../cells';
import { FieldInput } from '../field-input';
import { AppLink, useAlert, useAreas } from '../shell-bridge';
import { buttonClass } from '../styles';
import type { DetailExtensionProps } from './types';
import { useStock, useStockMoves } from '@/lib/client/data/delivery';

type Owner = { sk_id: string } | { it_id: string };

const HISTORY_PAGE = 20;
const stockKey = (owner: Owner) => ['stock_lst', owner] as const;
const movesKey = (owner: Owner, n: number) => ['stock_move_lst', { ...owner, n, p: 1 }] as const;

/** Stock rows of a warehouse (by item) or of an item (by warehouse), with the total for an item. */
function StockTable({ owner }: { owner: Owner }) {
  const { data, isLoading, error } = useStock(stockKey(owner)[1]);
  const rows = data ?? [];
  const byItem = 'sk_id' in owner;
  const total = rows.reduce((sum, r) => sum + r.st_quantity, 0);
  const empty = isLoading ? '読み込み中…' : error ? (messageOf(error) ?? '在庫を取得できませんでした。') : rows.length === 0 && 'まだ在庫の記録はありません。';
  return (
    <DataTable
      caption={byItem ? '商品別在庫' : '倉庫別在庫'}
      headers={byItem ? [['商品コード'], ['商品名'], ['在庫数', true], ['発注点', true], ['最終更新']] : [['倉庫コード'], ['倉庫名'], ['在庫数', true], ['最終更新']]}
      empty={empty}
    >
      {rows.map((r) => {
        const low = byItem && r.it_reorder_point !== null && r.st_quantity <= r.it_reorder_point;
        return (
          <tr key={r.st_id} className="h-row">
            <td className={clsx(cell, 'tabular-nums')}>{byItem ? r.it_code : r.sk_code}</td>
            <td className={cell}>
              <AppLink to={byItem ? `/item/detail/${r.st_it_id}` : `/warehouse/detail/${r.st_sk_id}`} className="text-brand underline-offset-2 hover:underline">
                {byItem ? r.it_name : r.sk_name}
              </AppLink>
            </td>
            <td className={clsx(cell, 'text-right tabular-nums', low && 'font-semibold text-danger')}>
              {r.st_quantity.toLocaleString('ja-JP')}
              {r.it_unit}
              {low && <span className="ml-[6px] text-[1.2rem]">（発注点以下）</span>}
            </td>
            {byItem && <td className={clsx(cell, 'text-right tabular-nums')}>{r.it_reorder_point ?? ''}</td>}
            <td className={clsx(cell, 'tabular-nums whitespace-nowrap')}>{formatDateTime(r.modified)}</td>
          </tr>
        );
      })}
      {!byItem && rows.length > 0 && (
        <tr className="h-row font-semibold">
          <td className={cell} colSpan={2}>
            合計
          </td>
          <td className={clsx(cell, 'text-right tabular-nums')}>
            {total.toLocaleString('ja-JP')}
            {rows[0].it_unit}
          </td>
          <td className={cell} />
        </tr>
      )}
    </DataTable>
  );
}

/** The latest movements (入庫・出庫・棚卸調整), with who and why; 「さらに表示」 reads more. */
function StockHistory({ owner }: { owner: Owner }) {
  const [n, setN] = useState(HISTORY_PAGE);
  const { data, isLoading, error } = useStockMoves(movesKey(owner, n)[1]);
  const rows = data ?? [];
  const byItem = 'sk_id' in owner;
  const empty = isLoading && rows.length === 0 ? '読み込み中…' : error ? (messageOf(error) ?? '履歴を取得できませんでした。') : rows.length === 0 && '入出庫の履歴はまだありません。';
  return (
    <div className="flex flex-col gap-[8px]">
      <DataTable caption="入出庫履歴" headers={[['日時'], [byItem ? '商品' : '倉庫'], ['区分'], ['数量', true], ['調整後', true], ['理由'], ['担当者']]} empty={empty}>
        {rows.map((m) => (
          <tr key={m.sm_id} className="h-row">
            <td className={clsx(cell, 'tabular-nums whitespace-nowrap')}>{formatDateTime(m.created)}</td>
            <td className={cell}>{byItem ? m.it_name : m.sk_name}</td>
            <td className={cell}>{optionText(STOCK_MOVE_KIND, m.sm_kind)}</td>
            <td className={clsx(cell, 'text-right tabular-nums')}>{m.sm_quantity > 0 ? `+${m.sm_quantity}` : m.sm_quantity}</td>
            <td className={clsx(cell, 'text-right tabular-nums')}>{m.sm_after}</td>
            <td className={cell}>{m.sm_reason}</td>
            <td className={cell}>{m.user_name ?? ''}</td>
          </tr>
        ))}
      </DataTable>
      {rows.length >= n && (
        <button type="button" className={clsx(buttonClass('secondary', 'sm'), 'self-start')} onClick={() => setN(n + HISTORY_PAGE)}>
          さらに表示
        </button>
      )}
    </div>
  );
}

const EMPTY_ADJUSTMENT: FormRecord = { it_id: '', kind: 'in', quantity: '', reason: '' };

const ADJUST_NAMES = STOCK_ADJUST_FIELDS.map((f) => f.name);
const noRecord = (): FormRecord => EMPTY_ADJUSTMENT;

/** The adjustment form of a warehouse: item, 入庫 / 出庫 / 棚卸調整, quantity, reason. */
function AdjustForm({ warehouseId }: { warehouseId: string }) {
  const alert = useAlert();
  const { mutate } = useSWRConfig();
  const f = useRecordForm({
    schema: stockAdjustSchema,
    defaultValues: EMPTY_ADJUSTMENT,
    toValues: noRecord,
    names: ADJUST_NAMES,
    save: async (values) => {
      try {
        await call('stock_adjust', { sk_id: warehouseId, postData: { it_id: values.it_id, kind: values.kind, quantity: values.quantity, reason: values.reason } });
        return { ok: true };
      } catch (e) {
        return { ok: false, ...refusalOf(e) };
      }
    },
    notify: alert,
    savedMessage: '在庫を調整しました。',
    onSaved: async ({ values }) => {
      f.form.reset({ ...EMPTY_ADJUSTMENT, it_id: values.it_id, kind: values.kind });
      // Every stock and history list may show this warehouse or this item.
      await mutate((key) => Array.isArray(key) && (key[0] === 'stock_lst' || key[0] === 'stock_move_lst'));
    },
  });
  const { form, busy } = f;
  // The inputs show their own messages: the banner is the server's refusal.
  const problem = f.problem && !f.problem.invalid ? f.problem.message : undefined;

  return (
    <form noValidate aria-label="在庫調整" onSubmit={(e) => {
      e.preventDefault();
      void f.submit();
    }} className="flex flex-col gap-[10px]">
      <fieldset disabled={busy} className="grid min-w-0 grid-cols-1 gap-x-[24px] gap-y-[10px] md:grid-cols-2">
        <legend className="visually-hidden">在庫調整</legend>
        {STOCK_ADJUST_FIELDS.map((field) => (
          <FieldInput key={field.name} field={field} form={form} />
        ))}
      </fieldset>
      <p className="text-[1.3rem] text-ink-soft">入庫・出庫は数量を増減し、棚卸調整は数えた数量に合わせます。在庫がマイナスになる出庫はできません。</p>
      {problem && (
        <p role="alert" className="rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[6px] text-[1.4rem] text-danger">
          {problem}
        </p>
      )}
      <button type="submit" className={clsx(buttonClass('primary'), 'self-start')} disabled={busy}>
        {busy ? '調整中…' : '在庫を調整'}
      </button>
    </form>
  );
}

/** Warehouse detail: its stock per item, the adjustment form (stock writers) and the history. */
export function WarehouseStock({ id }: DetailExtensionProps) {
  const areas = useAreas();
  const owner = useMemo(() => ({ sk_id: id }), [id]);
  return (
    <>
      <Card title="在庫">
        <StockTable owner={owner} />
      </Card>
      {can(areas, 'stock', 'write') && (
        <Card title="在庫調整">
          <AdjustForm warehouseId={id} />
        </Card>
      )}
      <Card title="入出庫履歴">
        <StockHistory owner={owner} />
      </Card>
    </>
  );
}

/** Item detail: its stock per warehouse and the history of its movements. */
export function ItemStock({ id }: DetailExtensionProps) {
  const owner = useMemo(() => ({ it_id: id }), [id]);
  return (
    <>
      <Card title="倉庫別在庫">
        <StockTable owner={owner} />
      </Card>
      <Card title="入出庫履歴">
        <StockHistory owner={owner} />
      </Card>
    </>
  );
}
