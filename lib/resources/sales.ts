/**
 * 売上伝票 (sales slip, call prefix `sales`, table `sales`, columns `sl_*`): what a customer is charged —
 * 伝票番号, 売上日, 顧客, 受注 (a processed order makes its own slip: server/orders/status.ts), 担当者, 区分, 備考,
 * and lines as child rows (`sales_detail`, `sld_*`): 商品 (optional), 品名, 数量 (negative for a return),
 * 単価 (two decimals), 税区分; the server fixes each line's 税率 at the slip date and its 金額. The totals per
 * rate (`sales_rate`, read by closing) and `sl_net_total` / `sl_tax_total` / `sl_total` come from the one money
 * computation (lib/money/totals) with the customer's terms (server/sales/sales-policy.ts).
 */
import { LINE_PRICE, LINE_QUANTITY, lineCheck } from '../orders/lines';
import { clientRef, staffRef, STAMP_FILTERS } from './common';
import { TAX_CLASS } from './options';
import type { Option, ResourceDef } from './types';
import { cellText } from './checks';

export const SALES_KIND: readonly Option[] = [
  { value: 'sale', text: '売上' },
  { value: 'return', text: '返品' },
  { value: 'discount', text: '値引' },
  { value: 'rental', text: 'レンタル' },
  { value: 'deposit', text: '保証金' },
  { value: 'other', text: 'その他' },
];

/** The tax buckets of a slip (`sales_rate.slr_key`, lib/money `bucketKey`) a list may be filtered by. */
export const SALES_RATE_KEYS: readonly Option[] = [
  { value: '10', text: '10%対象' },
  { value: '8', text: '8%対象' },
  { value: 'exempt', text: '非課税' },
  { value: 'outside', text: '不課税' },
];

/** A sales line's own rule: a line without an item names what it is and its price. */
export const salesLineCheck = (values: Record<string, unknown>): Record<string, string> | undefined => {
  const problems: Record<string, string> = { ...lineCheck(values) };
  const empty = (v: unknown) => v === undefined || v === null || v === '';
  if (empty(values.it_id)) {
    if (empty(values.name)) problems.name = '商品を選ばない明細は品名を入力してください。';
    if (empty(values.price)) problems.price = '商品を選ばない明細は単価を入力してください。';
  }
  return Object.keys(problems).length > 0 ? problems : undefined;
};

/** A slip not yet paid (`ReceivableSummary.open_items`): its total and the part the payments do not cover. */
export interface OpenSlip {
  kind: 'slip';
  sl_id: number;
  number: string;
  date: string;
  /** The customer of the slip (a delivery site's slips are open at its 請求先). */
  cl_id: number;
  client_name: string;
  total: number;
  unpaid: number;
}

/**
 * The latest invoice of a billing customer not yet paid: its 今回請求額 (which carries every earlier invoice's unpaid
 * part, so earlier invoices are never open items beside it) and the part the payments since do not cover.
 */
export interface OpenInvoice {
  kind: 'invoice';
  bl_id: number;
  number: string;
  /** Its closing date. */
  date: string;
  cl_id: number;
  client_name: string;
  total: number;
  unpaid: number;
}

/** What is still to be paid: the latest invoice, then the slips not billed yet. */
export type OpenItem = OpenSlip | OpenInvoice;

/** The screen path of an open item (the invoice or the slip). */
export const openItemPath = (item: OpenItem): string => (item.kind === 'invoice' ? `/billing/detail/${item.bl_id}` : `/sales/detail/${item.sl_id}`);

/**
 * A customer's 売掛 summary (`sales_receivable`): its own balance; when it is billed with others (a 請求先 with its
 * 納品先, or a site of one) the billing group's balance; the group's last payment and open items, oldest first.
 */
export interface ReceivableSummary {
  cl_id: number;
  balance: number;
  /** The billing group (null for a customer billed on its own): its 請求先, the balance of all its customers. */
  billing: { cl_id: number; name: string; balance: number; sites: number } | null;
  last_payment: { py_id: number; date: string; amount: number } | null;
  /** The oldest item the payments do not cover (see `open_items`). */
  oldest_unpaid: OpenItem | null;
  /**
   * What is still to be paid, oldest first (at most `OPEN_ITEMS_MAX`): once the group is billed, its latest invoice and the
   * slips not billed yet, less the payments not billed yet; before its first invoice, the slips the payments do not cover
   * (paying the opening balance first, then the slips by date).
   */
  open_items: OpenItem[];
}

const emptyCell = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * Why a slip is not changed by hand (`ResourceDef.madeBy`): a month's server rental (`sl_ag_id`, the month `sl_ym`), a
 * bottle movement's 容器保証金 (`sl_bt_id`) and a processed order's slip (`sl_od_id`) are made and kept up by what they come
 * from; undefined for any other slip.
 * @example slipMadeBy({ sl_ag_id: 4, sl_ym: '202605' }) // '月次サーバーレンタル（2026年5月分）で作られた伝票のため、手で変更・削除できません。…'
 */
export function slipMadeBy(row: Readonly<Record<string, unknown>>): string | undefined {
  if (!emptyCell(row.sl_ag_id)) {
    const ym = cellText(row.sl_ym);
    const month = /^\d{6}$/.test(ym) ? `（${ym.slice(0, 4)}年${Number(ym.slice(4))}月分）` : '';
    return `月次サーバーレンタル${month}で作られた伝票のため、手で変更・削除できません。訂正は値引・返品の伝票を登録してください。`;
  }
  if (!emptyCell(row.sl_bt_id)) {
    return 'ボトルの受け払い（容器保証金）から作られた伝票のため、手で変更・削除できません。ボトルの受け払いを直すと、この伝票も直ります。';
  }
  if (!emptyCell(row.sl_od_id)) {
    return '処理済の受注から作られた伝票のため、手で変更・削除できません（受注と伝票は1円まで一致します）。受注の状態を「出荷済」に戻すとこの伝票は削除されます。訂正は値引・返品の伝票を登録してください。';
  }
  return undefined;
}

/** The most open items `sales_receivable` answers. */
export const OPEN_ITEMS_MAX = 50;

export const salesResource = {
  name: 'sales',
  label: '売上伝票',
  table: 'sales',
  prefix: 'sl_',
  basePath: '/sales',
  screens: { list: '売上伝票一覧', new: '売上伝票登録', detail: '売上伝票詳細', id: 'sal', underClient: { new: '売上伝票登録', detail: '売上伝票' } },
  area: 'sales',
  storageKey: 'sales',
  tabs: [{ key: 'basic', label: '売上伝票' }],
  fields: [
    { name: 'number', label: '伝票番号', type: 'text', tab: 'basic', readOnly: true },
    { name: 'date', label: '売上日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    clientRef('basic'),
    { name: 'kind', label: '区分', type: 'select', tab: 'basic', options: SALES_KIND, required: true, initial: 'sale' },
    staffRef('basic', { initial: undefined, hint: '空欄のときは顧客の営業担当、いなければ登録した人' }),
    { name: 'od_id', label: '受注', type: 'ref', ref: 'order', tab: 'basic', readOnly: true, hint: '受注が「処理済」になったときに作られた伝票' },
    { name: 'bli_id', label: '請求', type: 'ref', ref: 'billing', tab: 'basic', readOnly: true, hint: '締め処理でこの伝票を請求した請求書（請求済みの伝票は変更・削除できません）' },
    { name: 'net_total', label: '税抜金額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'tax_total', label: '消費税', type: 'money', tab: 'basic', readOnly: true },
    { name: 'total', label: '合計金額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'rate_summary', label: '税率ごとの合計', type: 'text', tab: 'basic', readOnly: true, wide: true },
    { name: 'biko', label: '備考', type: 'textarea', tab: 'basic', wide: true, max: 500 },
  ],
  list: {
    columns: [
      { name: 'sl_number', label: '伝票番号' },
      { name: 'sl_date', label: '売上日', format: 'date' },
      { name: 'sl_cl_id', label: '顧客', format: 'ref' },
      { name: 'sl_kind', label: '区分', format: 'option' },
      { name: 'sl_usr_id', label: '担当者', format: 'ref' },
      { name: 'sl_net_total', label: '税抜金額', format: 'money' },
      { name: 'sl_tax_total', label: '消費税', format: 'money' },
      { name: 'sl_total', label: '合計金額', format: 'money' },
    ],
    sortable: ['sl_id', 'sl_date', 'sl_kind', 'sl_total', 'created', 'modified'],
    keyword: ['number', 'biko'],
    keywordHint: '伝票番号・備考',
    defaultSort: { col: 'sl_date', odr: 'desc' },
    totals: ['sl_net_total', 'sl_tax_total', 'sl_total'],
    filters: [
      { name: 'date', label: '売上日', kind: 'dateRange' },
      { name: 'cl_id', label: '顧客', kind: 'equals' },
      { name: 'kind', label: '区分', kind: 'in' },
      { name: 'usr_id', label: '担当者', kind: 'in' },
      { name: 'total', label: '合計金額', kind: 'numberRange' },
      { name: 'bli_id', label: '請求', kind: 'equals', implied: true },
      ...STAMP_FILTERS,
      // What a sales report's row links to (/salesreport): the slips with a line of the item, of a team's staff, with a rate's bucket.
      { name: 'it_id', label: '商品', kind: 'equals', implied: true, ref: 'item', through: { table: 'sales_detail', key: 'sld_sl_id', column: 'sld_it_id' } },
      { name: 'team', label: 'チーム', kind: 'equals', implied: true, through: { table: 'user', key: 'user_id', column: 'user_team', on: 'sl_usr_id' } },
      { name: 'rate', label: '税率', kind: 'in', implied: true, options: SALES_RATE_KEYS, through: { table: 'sales_rate', key: 'slr_sl_id', column: 'slr_key' } },
    ],
  },
  titleFields: ['number', 'id'],
  detailColumns: ['sl_ag_id', 'sl_ym', 'sl_bt_id'],
  madeBy: slipMadeBy,
  jobStamped: true,
  children: {
    key: 'lines',
    label: '明細',
    table: 'sales_detail',
    prefix: 'sld_',
    parentField: 'sl_id',
    sortField: 'sort',
    call: 'sales_detail_lst',
    max: 100,
    fields: [
      { name: 'it_id', label: '商品', type: 'ref', ref: 'item', tab: 'lines', hint: '空欄のときは品名・単価・税区分を入力' },
      { name: 'name', label: '品名', type: 'text', tab: 'lines', max: 100, hint: '空欄のときは商品名' },
      { ...LINE_QUANTITY, tab: 'lines', hint: '返品はマイナス' },
      { ...LINE_PRICE, tab: 'lines', hint: '空欄のときは顧客の単価区分・掛率による単価' },
      { name: 'tax_class', label: '税区分', type: 'select', tab: 'lines', options: TAX_CLASS, hint: '空欄のときは商品の税区分（商品なしは標準税率）' },
    ],
    check: salesLineCheck,
    derived: [
      { name: 'amount', label: '金額', type: 'money', tab: 'lines', readOnly: true },
      { name: 'tax_rate', label: '税率', type: 'number', tab: 'lines', readOnly: true },
    ],
  },
} as const satisfies ResourceDef;
