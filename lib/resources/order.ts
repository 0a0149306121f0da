/**
 * 受注 (order), the part the foundation needs: the customer's last-order lookup (`order_lst` with
 * cl_id, n=1, p=1) and the order lists' filters. The orders issue extends this declaration.
 */
import type { ResourceDef } from './types';

export const ORDER_STATUS = [
  { value: 'untreated', text: '未処理' },
  { value: 'pending', text: '保留' },
  { value: 'waitshipping', text: '出荷待ち' },
  { value: 'shipped', text: '出荷済' },
  { value: 'processed', text: '処理済' },
  { value: 'cancelled', text: 'キャンセル' },
] as const;

export const orderResource: ResourceDef = {
  name: 'order',
  label: '受注',
  table: 'orders',
  prefix: 'od_',
  basePath: '/orders',
  area: 'order',
  storageKey: 'order',
  tabs: [{ key: 'basic', label: '受注情報' }],
  fields: [
    { name: 'cl_id', label: '顧客ID', type: 'number', tab: 'basic', required: true, min: 1 },
    { name: 'date', label: '受注日', type: 'date', tab: 'basic', required: true },
    { name: 'status', label: '状態', type: 'select', tab: 'basic', options: ORDER_STATUS, required: true },
    { name: 'uriage_total', label: '合計金額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'biko', label: '備考', type: 'textarea', tab: 'basic', wide: true },
  ],
  list: {
    columns: [
      { name: 'od_id', label: '受注番号' },
      { name: 'od_date', label: '受注日', format: 'date' },
      { name: 'od_cl_id', label: '顧客ID' },
      { name: 'od_status', label: '状態', format: 'option', field: 'status' },
      { name: 'od_uriage_total', label: '合計金額', format: 'money' },
    ],
    sortable: ['od_id', 'od_date', 'od_cl_id', 'od_status', 'od_uriage_total', 'created', 'modified'],
    keyword: ['biko'],
    defaultSort: { col: 'od_id', odr: 'desc' },
    filters: [
      { name: 'created', label: '登録日', kind: 'dateRange' },
      { name: 'modified', label: '更新日', kind: 'dateRange' },
      { name: 'od_status', label: '状態', kind: 'in', column: 'od_status', options: ORDER_STATUS },
      { name: 'uriage_total', label: '合計金額', kind: 'numberRange' },
    ],
  },
  titleFields: ['id'],
};
