/**
 * 入金伝票 (payment slip, call prefix `payment`, table `payment`, columns `py_*`): money received from a
 * billing customer — 入金日, 顧客, 金額, 入金区分 (現金・振込・口座振替, and 手数料・値引・相殺, which settle a
 * receivable without cash), 銀行 (`mt_bank`), 備考. A refund or a correction is the same slip with a negative
 * amount (返金 −3,000円); 0円 says nothing and is refused. Closing takes a payment into an invoice (`bli_id`, 請求):
 * it is read-only then. Allocation to invoices (消込): server/sales/allocation.ts.
 */
import { clientRef, closingGroupFilter, STAMP_FILTERS } from './common';
import { textOf } from './checks';
import type { Option, ResourceDef } from './types';

export const PAYMENT_KIND: readonly Option[] = [
  { value: 'cash', text: '現金' },
  { value: 'transfer', text: '振込' },
  { value: 'debit', text: '口座振替' },
  { value: 'fee', text: '手数料' },
  { value: 'discount', text: '値引' },
  { value: 'offset', text: '相殺' },
];

/** Largest amount of one slip, either sign (99,999,999円). */
export const PAYMENT_MAX = 99_999_999;

export const paymentResource = {
  name: 'payment',
  label: '入金伝票',
  table: 'payment',
  prefix: 'py_',
  basePath: '/payment',
  screens: { list: '入金伝票一覧', new: '入金伝票登録', detail: '入金伝票詳細', id: 'pay', underClient: { new: '入金伝票登録', detail: '入金伝票' } },
  area: 'sales',
  storageKey: 'payment',
  tabs: [{ key: 'basic', label: '入金内容' }],
  fields: [
    { name: 'date', label: '入金日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { ...clientRef('basic'), hint: '請求先の顧客（請求親顧客があるときはその顧客）' },
    {
      name: 'amount', label: '金額', type: 'money', tab: 'basic', required: true, min: -PAYMENT_MAX, max: PAYMENT_MAX,
      hint: '返金や入金の訂正はマイナスの金額で入力します。請求書への消込は保存後に「請求書への消込」で行います（消込済みの入金は金額・顧客を変更できません）。',
    },
    { name: 'kind', label: '入金区分', type: 'select', tab: 'basic', options: PAYMENT_KIND, required: true, initial: 'transfer' },
    { name: 'bank', label: '銀行', type: 'select', tab: 'basic', master: 'mt_bank', hint: '振込・口座振替の入金先（受取）銀行' },
    { name: 'biko', label: '備考', type: 'textarea', tab: 'basic', wide: true, max: 500 },
    { name: 'bli_id', label: '請求', type: 'ref', ref: 'billing', tab: 'basic', readOnly: true, hint: '締め処理でこの入金を計上した請求書（請求済みの入金は変更・削除できません）' },
  ],
  list: {
    columns: [
      { name: 'py_date', label: '入金日', format: 'date' },
      { name: 'py_cl_id', label: '顧客', format: 'ref' },
      { name: 'py_kind', label: '入金区分', format: 'option' },
      { name: 'py_bank', label: '銀行', format: 'option' },
      { name: 'py_amount', label: '金額', format: 'money' },
      { name: 'py_biko', label: '備考' },
    ],
    sortable: ['py_id', 'py_date', 'py_kind', 'py_amount', 'created', 'modified'],
    keyword: ['biko'],
    defaultSort: { col: 'py_date', odr: 'desc' },
    totals: ['py_amount'],
    filters: [
      { name: 'date', label: '入金日', kind: 'dateRange' },
      { name: 'cl_id', label: '顧客', kind: 'equals' },
      { name: 'kind', label: '入金区分', kind: 'in' },
      { name: 'amount', label: '金額', kind: 'numberRange' },
      { name: 'bli_id', label: '請求', kind: 'equals', implied: true },
      {
        name: 'unallocated', label: '消込', kind: 'in', options: [{ value: '1', text: '未消込あり' }, { value: '0', text: '消込済み' }],
        through: { table: 'payment_allocation_state', key: 'py_id', column: 'unallocated' },
      },
      closingGroupFilter('py_cl_id'),
      ...STAMP_FILTERS,
    ],
  },
  titleFields: ['date'],
  check: (values) => (values.amount !== undefined && textOf(values, 'amount') === '0'
    ? { amount: '金額に0円は入力できません。返金や訂正はマイナスの金額で入力してください。' }
    : undefined),
} as const satisfies ResourceDef;
