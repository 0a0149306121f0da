/**
 * Stock adjustment (在庫調整), shared by the warehouse screen's form and the server's
 * `stock_adjust`: the kinds of movement, the form's fields (drawn by the generic field input) and
 * the one schema that validates them on both sides.
 */
import { textOf } from './resources/checks';
import { formSchema } from './resources/schema';
import type { FieldDef, Option } from './resources/types';

export type StockMoveKind = 'in' | 'out' | 'count';

/** One stock row (table `stock`): one per warehouse × item. */
export interface Stock {
  st_id: number;
  st_sk_id: number;
  st_it_id: number;
  st_quantity: number;
  created: string;
  modified: string;
}

/** A stock row as `stock_lst` answers it, with its item and warehouse. */
export interface StockAnswer extends Omit<Stock, 'created'> {
  it_code: string;
  it_name: string;
  it_unit: string;
  it_reorder_point: number | null;
  sk_code: string;
  sk_name: string;
}

/** One change of a stock row (table `stock_move`): who changed it, when, why and by how much. */
export interface StockMove {
  sm_id: number;
  sm_sk_id: number;
  sm_it_id: number;
  sm_kind: string;
  /** Signed change of the quantity. */
  sm_quantity: number;
  sm_before: number;
  sm_after: number;
  sm_reason: string;
  sm_usr_id: number | null;
  created: string;
}

/** A movement as `stock_move_lst` answers it, with the names of its item, warehouse and user. */
export interface StockMoveAnswer extends StockMove {
  it_name: string;
  sk_name: string;
  user_name: string | null;
}

export const STOCK_MOVE_KIND: readonly Option[] = [
  { value: 'in', text: '入庫' },
  { value: 'out', text: '出庫' },
  { value: 'count', text: '棚卸調整' },
];

/** The fields of the adjustment form (the warehouse comes from the screen). */
export const STOCK_ADJUST_FIELDS: readonly FieldDef[] = [
  { name: 'it_id', label: '商品', type: 'ref', ref: 'item', tab: 'adjust', required: true },
  { name: 'kind', label: '区分', type: 'select', tab: 'adjust', options: STOCK_MOVE_KIND, required: true },
  { name: 'quantity', label: '数量', type: 'number', tab: 'adjust', required: true, min: 0, max: 999_999 },
  { name: 'reason', label: '理由', type: 'text', tab: 'adjust', required: true, max: 200, placeholder: '仕入、配送出荷、棚卸差異など' },
];

/** 入庫 and 出庫 move something; only a 棚卸調整 may be 0 (the count found none). */
function checkAdjust(values: Record<string, unknown>): Record<string, string> | undefined {
  const kind = textOf(values, 'kind');
  return (kind === 'in' || kind === 'out') && textOf(values, 'quantity') === '0'
    ? { quantity: `${kind === 'in' ? '入庫' : '出庫'}の数量は1以上で入力してください。` }
    : undefined;
}

export const stockAdjustSchema = formSchema(STOCK_ADJUST_FIELDS, checkAdjust);

/**
 * The quantity after a movement: 入庫 adds, 出庫 takes away, 棚卸調整 sets the counted quantity.
 * @example quantityAfter(10, 'out', 3) // 7
 * @example quantityAfter(10, 'count', 8) // 8
 */
export function quantityAfter(before: number, kind: StockMoveKind, quantity: number): number {
  if (kind === 'in') return before + quantity;
  if (kind === 'out') return before - quantity;
  return quantity;
}
