/**
 * ボトル (bottle ledger): dated movements of returnable bottles per customer and item — お届け本数,
 * 空ボトル回収本数 and the 容器保証金 taken or refunded (預り金, 不課税). 預け本数 is computed by the
 * server (previous + delivered − collected, in date order) and re-computed for the customer × item
 * whenever a movement is added, changed or deleted; a change that would make any balance negative
 * is refused (server/stock/bottle-policy.ts).
 */
import { textOf } from './checks';
import type { ResourceDef } from './types';

/** A customer's bottles of one item as `bottle_balance` answers them: 預け本数 now, deposits (sum), last movement. */
export interface BottleBalance {
  bt_it_id: number;
  it_name: string;
  bt_held: number;
  deposit_total: number;
  last_date: string;
}

export const bottleResource = {
  name: 'bottle',
  label: 'ボトル',
  table: 'bottle',
  prefix: 'bt_',
  basePath: '/bottle',
  screens: { list: 'ボトル一覧', new: 'ボトル登録', detail: 'ボトル詳細', id: 'bot', underClient: { new: 'ボトル登録', detail: 'ボトル' } },
  area: 'stock',
  storageKey: 'bottle',
  tabs: [{ key: 'basic', label: '受け払い' }],
  fields: [
    { name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab: 'basic', required: true },
    { name: 'it_id', label: '商品', type: 'ref', ref: 'item', master: 'mt_returnable_item', tab: 'basic', required: true },
    { name: 'move_date', label: '日付', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { name: 'delivered', label: 'お届け本数', type: 'number', tab: 'basic', min: 0, max: 9_999 },
    { name: 'collected', label: '空ボトル回収本数', type: 'number', tab: 'basic', min: 0, max: 9_999 },
    { name: 'held', label: '預け本数', type: 'number', tab: 'basic', readOnly: true },
    {
      name: 'deposit', label: '容器保証金（預り金・不課税）', type: 'money', tab: 'basic', readOnly: true,
      hint: '自動計算：（お届け本数 − 空ボトル回収本数）× 商品の容器保証金（商品マスタ）。この額が保証金の売上伝票になります。',
    },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
  ],
  list: {
    columns: [
      { name: 'bt_move_date', label: '日付', format: 'date' },
      { name: 'bt_cl_id', label: '顧客', format: 'ref' },
      { name: 'bt_it_id', label: '商品', format: 'ref' },
      { name: 'bt_delivered', label: 'お届け本数' },
      { name: 'bt_collected', label: '回収本数' },
      { name: 'bt_held', label: '預け本数' },
      { name: 'bt_deposit', label: '容器保証金', format: 'money' },
      { name: 'bt_note', label: '備考' },
    ],
    sortable: ['bt_id', 'bt_move_date', 'bt_delivered', 'bt_collected', 'bt_held', 'bt_deposit', 'created', 'modified'],
    keyword: ['note'],
    defaultSort: { col: 'bt_move_date', odr: 'desc' },
    totals: ['bt_deposit'],
    filters: [
      { name: 'move_date', label: '日付', kind: 'dateRange' },
      { name: 'it_id', label: '商品', kind: 'in' },
      { name: 'held', label: '預け本数', kind: 'numberRange' },
    ],
  },
  titleFields: ['move_date'],
  check: (values) => {
    if (values.delivered === undefined && values.collected === undefined) return undefined;
    const moved = ['delivered', 'collected'].some((name) => !['', '0'].includes(textOf(values, name)));
    return moved ? undefined : { delivered: 'お届け本数か空ボトル回収本数を入力してください。' };
  },
} as const satisfies ResourceDef;
