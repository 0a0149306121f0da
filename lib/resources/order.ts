/**
 * 受注 (order): the customer, dates, shipping address, warehouse, payment, the lines (table
 * `order_detail`, answered by `order_detail_lst`) and the totals per tax rate (lib/orders/totals).
 * The status moves only by `order_status` (lib/orders/status); the save writes the order and its
 * lines (`lines` in the postData) in one transaction (server/orders/order-policy.ts).
 */
import { LINE_PRICE, LINE_QUANTITY, lineCheck } from '../orders/lines';
import { PREFECTURE_OPTIONS } from '../prefectures';
import { clientRef, closingGroupFilter, STAMP_FILTERS } from './common';
import { TAX_CLASS } from './options';
import type { FieldDef, ResourceDef } from './types';

export const ORDER_STATUS = [
  { value: 'untreated', text: '未処理' },
  { value: 'pending', text: '保留' },
  { value: 'waitshipping', text: '出荷待ち' },
  { value: 'shipped', text: '出荷済' },
  { value: 'processed', text: '処理済' },
  { value: 'cancelled', text: 'キャンセル' },
] as const;

export type OrderStatus = (typeof ORDER_STATUS)[number]['value'];

/** The order's shipping address (配送先), defaulting from the customer's `shipping_*` fields. */
const SHIP_FIELDS = [
  { name: 'ship_co_name', label: '配送先会社名', type: 'text', tab: 'shipping', max: 100 },
  { name: 'ship_name', label: '配送先氏名', type: 'text', tab: 'shipping', max: 100 },
  { name: 'ship_zipcode', label: '配送先郵便番号', type: 'zip', tab: 'shipping' },
  { name: 'ship_pref', label: '配送先都道府県', type: 'select', tab: 'shipping', options: PREFECTURE_OPTIONS },
  { name: 'ship_city', label: '配送先市区町村', type: 'text', tab: 'shipping', max: 100 },
  { name: 'ship_address', label: '配送先番地', type: 'text', tab: 'shipping', max: 200 },
  { name: 'ship_building', label: '配送先建物名', type: 'text', tab: 'shipping', max: 200 },
  { name: 'ship_tel', label: '配送先電話番号', type: 'tel', tab: 'shipping' },
] as const satisfies readonly FieldDef[];

/** The shipping fields' names without `ship_` (the customer's `shipping_{name}` / `{name}`). */
export const SHIP_PARTS = SHIP_FIELDS.map((f) => f.name.slice('ship_'.length));

export const orderResource = {
  name: 'order',
  label: '受注',
  table: 'orders',
  prefix: 'od_',
  basePath: '/orders',
  area: 'order',
  storageKey: 'order',
  tabs: [
    { key: 'basic', label: '受注情報' },
    { key: 'shipping', label: '配送先' },
  ],
  fields: [
    { name: 'number', label: '受注番号', type: 'text', tab: 'basic', readOnly: true },
    clientRef('basic'),
    { name: 'date', label: '受注日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { name: 'status', label: '状態', type: 'select', tab: 'basic', options: ORDER_STATUS, initial: 'untreated' },
    { name: 'delivery_date', label: '配送日', type: 'date', tab: 'basic' },
    { name: 'ht_id', label: '配達時間帯', type: 'select', tab: 'basic', master: 'mt_delivery_time' },
    { name: 'sk_id', label: '出荷倉庫', type: 'select', tab: 'basic', master: 'mt_warehouse' },
    { name: 'pm_id', label: '支払方法', type: 'select', tab: 'basic', master: 'mt_pmt_method' },
    { name: 'tracking_no', label: '送り状番号', type: 'text', tab: 'basic', max: 50, trackingNo: true, hint: 'ヤマト・佐川の 12 桁の番号（ハイフンは省けます）。最後の桁（チェックデジット）を確かめます。' },
    { name: 'hold_reason', label: '保留理由', type: 'text', tab: 'basic', readOnly: true, wide: true },
    { name: 'hod_date', label: '定期配送の予定日', type: 'date', tab: 'basic', readOnly: true, hint: '定期配送の受注生成で作られた受注のみ' },
    { name: 'delivery_fee', label: '送料（税抜）', type: 'money', tab: 'basic', min: 0, max: 9_999_999, hint: '空欄のときは配送先の都道府県の送料（都道府県別送料）。明細の最後に標準税率の「送料」行として加わります。' },
    { name: 'net_total', label: '小計（税抜）', type: 'money', tab: 'basic', readOnly: true },
    { name: 'tax_total', label: '消費税', type: 'money', tab: 'basic', readOnly: true },
    { name: 'uriage_total', label: '合計金額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'biko', label: '備考', type: 'textarea', tab: 'basic', wide: true },
    ...SHIP_FIELDS,
  ],
  list: {
    columns: [
      { name: 'od_number', label: '受注番号' },
      { name: 'od_date', label: '受注日', format: 'date' },
      { name: 'od_cl_id', label: '顧客', format: 'ref' },
      { name: 'od_delivery_date', label: '配送日', format: 'date' },
      { name: 'od_status', label: '状態', format: 'option', field: 'status' },
      { name: 'od_uriage_total', label: '合計金額', format: 'money' },
    ],
    sortable: ['od_id', 'od_date', 'od_cl_id', 'od_status', 'od_uriage_total', 'od_delivery_date', 'created', 'modified'],
    keyword: ['number', 'biko', 'tracking_no', 'ship_co_name', 'ship_name', 'ship_tel'],
    keywordHint: '受注番号・配送先・送り状番号・備考',
    defaultSort: { col: 'od_id', odr: 'desc' },
    totals: ['od_uriage_total'],
    filters: [
      { name: 'cl_id', label: '顧客', kind: 'equals' },
      { name: 'tel', label: '電話番号', kind: 'tel', columns: ['ship_tel', 'cl_id.tel_1', 'cl_id.tel_2', 'cl_id.shipping_tel'] },
      ...STAMP_FILTERS,
      { name: 'od_status', label: '状態', kind: 'in', column: 'od_status', options: ORDER_STATUS },
      { name: 'uriage_total', label: '合計金額', kind: 'numberRange' },
      { name: 'delivery_date', label: '配送日', kind: 'dateRange' },
      closingGroupFilter('od_cl_id'),
    ],
  },
  titleFields: ['number', 'id'],
  jobStamped: true,
  children: {
    key: 'lines',
    label: '明細',
    table: 'order_detail',
    prefix: 'odd_',
    parentField: 'od_id',
    sortField: 'sort',
    call: 'order_detail_lst',
    max: 100,
    fields: [
      { name: 'it_id', label: '商品', type: 'ref', ref: 'item', tab: 'lines', required: true },
      { name: 'name', label: '品名', type: 'text', tab: 'lines', max: 100, hint: '空欄のときは商品名' },
      { ...LINE_QUANTITY, tab: 'lines' },
      { ...LINE_PRICE, tab: 'lines', hint: '空欄のときは顧客の単価区分・掛率による単価' },
    ],
    check: lineCheck,
    derivedFlag: 'fee',
    derived: [
      { name: 'amount', label: '金額', type: 'money', tab: 'lines', readOnly: true },
      { name: 'tax_class', label: '税区分', type: 'select', options: TAX_CLASS, tab: 'lines', readOnly: true },
      { name: 'tax_rate', label: '税率', type: 'number', tab: 'lines', readOnly: true },
    ],
  },
} as const satisfies ResourceDef;
