/**
 * 請求 (invoice, call prefix `billing`, table `billing`, columns `bl_*`): one per billing customer (the top of its
 * `parent_id` chain) and closing (締め処理, server/closing). Written only by the closing, removed only by its restore
 * (締め戻し); read-only from the screens. 前回請求額 − 入金額 = 繰越額; 繰越額 + 今回売上額 + 消費税 = 今回請求額.
 * The per-rate rows are `billing_rate_lst` (`bl_id`); 消込 (allocation of payments) lowers 残額.
 */
import { CLOSING_DAY } from './options';
import { STAMP_FILTERS } from './common';
import type { ResourceDef } from './types';

export const billingResource = {
  name: 'billing',
  label: '請求',
  table: 'billing',
  prefix: 'bl_',
  basePath: '/billing',
  screens: { list: '請求一覧', detail: '請求詳細', id: 'bli' },
  area: 'sales',
  storageKey: 'billing',
  tabs: [{ key: 'basic', label: '請求内容' }],
  fields: [
    { name: 'number', label: '請求番号', type: 'text', tab: 'basic', readOnly: true },
    { name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab: 'basic', readOnly: true },
    { name: 'name', label: '宛名', type: 'text', tab: 'basic', readOnly: true },
    { name: 'sime_gp', label: '締日', type: 'select', tab: 'basic', options: CLOSING_DAY, readOnly: true },
    { name: 'sime_ym', label: '締め年月', type: 'text', format: 'month', tab: 'basic', readOnly: true },
    { name: 'closing_date', label: '締め日', type: 'date', tab: 'basic', readOnly: true },
    { name: 'period_from', label: '対象期間（開始）', type: 'date', tab: 'basic', readOnly: true },
    { name: 'period_to', label: '対象期間（終了）', type: 'date', tab: 'basic', readOnly: true },
    { name: 'prev_total', label: '前回請求額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'paid', label: '入金額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'carry', label: '繰越額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'sales_net', label: '今回売上額（税抜）', type: 'money', tab: 'basic', readOnly: true },
    { name: 'tax_total', label: '消費税', type: 'money', tab: 'basic', readOnly: true },
    { name: 'total', label: '今回請求額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'due_date', label: '入金予定日', type: 'date', tab: 'basic', readOnly: true },
    { name: 'allocated', label: '消込済額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'open', label: '残額', type: 'money', tab: 'basic', readOnly: true },
    { name: 'print_count', label: '発行回数', type: 'number', tab: 'basic', readOnly: true },
    { name: 'reissued', label: '最終再発行日時', type: 'datetime', tab: 'basic', readOnly: true },
    { name: 'carried_by', label: '繰越先の請求書', type: 'ref', ref: 'billing', tab: 'basic', readOnly: true, hint: '次の請求書に残額が繰り越されると、この請求書の残額は 0 になり、消込は最新の請求書にします' },
  ],
  list: {
    columns: [
      { name: 'bl_number', label: '請求番号' },
      { name: 'bl_sime_ym', label: '締め年月' },
      { name: 'bl_sime_gp', label: '締日', format: 'option' },
      { name: 'bl_cl_id', label: '顧客', format: 'ref' },
      { name: 'bl_prev_total', label: '前回請求額', format: 'money' },
      { name: 'bl_paid', label: '入金額', format: 'money' },
      { name: 'bl_carry', label: '繰越額', format: 'money' },
      { name: 'bl_sales_net', label: '今回売上額', format: 'money' },
      { name: 'bl_tax_total', label: '消費税', format: 'money' },
      { name: 'bl_total', label: '今回請求額', format: 'money' },
      { name: 'bl_due_date', label: '入金予定日', format: 'date' },
      { name: 'bl_open', label: '残額', format: 'money' },
    ],
    sortable: ['bl_id', 'bl_sime_ym', 'bl_total', 'bl_due_date', 'bl_open', 'created', 'modified'],
    keyword: ['number', 'name'],
    keywordHint: '請求番号・宛名',
    defaultSort: { col: 'bl_id', odr: 'desc' },
    totals: ['bl_prev_total', 'bl_paid', 'bl_carry', 'bl_sales_net', 'bl_tax_total', 'bl_total', 'bl_open'],
    filters: [
      { name: 'sime_ym', label: '締め年月', kind: 'equals' },
      { name: 'sime_gp', label: '締日', kind: 'in', options: CLOSING_DAY },
      { name: 'cl_id', label: '顧客', kind: 'equals' },
      { name: 'uriage_total', label: '今回請求額', kind: 'numberRange', column: 'bl_total' },
      { name: 'open', label: '残額', kind: 'numberRange' },
      ...STAMP_FILTERS,
    ],
  },
  titleFields: ['number', 'id'],
  // The slips and payments the invoice took (their `bli_id`).
  related: [
    { resource: 'sales', field: 'bli_id', label: '売上伝票' },
    { resource: 'payment', field: 'bli_id', label: '入金伝票' },
  ],
  // The closing that issued it (its 締日 and 締め年月 name it on screen; the id is no number people use).
  detailColumns: ['bl_cls_id'],
  ops: { create: false, edit: false, delete: false },
  jobStamped: true,
} as const satisfies ResourceDef;
