/**
 * 請求書の保存（電子帳簿保存法, call prefix `archive`, table `invoice_archive`, columns `ar_*`): every invoice that left the
 * product, kept as the exact bytes that left (the file store), one row per version. Written only by an issue
 * (server/billing/archive.ts); never updated or deleted — the database refuses it (migration 0105) — except that a
 * 締め戻し marks an issued version 取消 (who, when, why) once. A closing issued again issues a new version naming the
 * one it replaces (`replaces`), which carries 「修正」 on the document. Searchable by 取引年月日 (`ar_date`, the closing
 * date), 取引金額 (`ar_amount`, 今回請求額) and 取引先 (the customer's name, kana or 顧客コード), each delivery of a version
 * listed by `archive_delivery_lst`.
 */
import { CLOSING_DAY } from './options';
import type { ResourceDef } from './types';

/** 保存状態: issued, or cancelled by a 締め戻し (a 修正 version may replace it). */
export const ARCHIVE_STATES = [
  { value: '1', text: '発行済' },
  { value: '2', text: '取消' },
] as const;

/** How an invoice left the product (an `archive_delivery` row's `ad_how`). */
export const ARCHIVE_DELIVERIES = [
  { value: 'print', text: '印刷・ダウンロード' },
  { value: 'batch', text: '一括発行' },
  { value: 'mail', text: 'メール' },
  { value: 'page', text: 'ダウンロードページ' },
  { value: 'pint', text: 'デジタルインボイス' },
] as const;

export type ArchiveDelivery = (typeof ARCHIVE_DELIVERIES)[number]['value'];

export const archiveResource = {
  name: 'archive',
  label: '保存請求書',
  table: 'invoice_archive',
  prefix: 'ar_',
  basePath: '/billing/archive',
  screens: { list: '保存請求書一覧', detail: '保存請求書詳細', id: 'ar', listPath: '/billing/archive' },
  area: 'sales',
  storageKey: 'archive',
  tabs: [{ key: 'basic', label: '保存内容' }],
  fields: [
    { name: 'number', label: '請求番号', type: 'text', tab: 'basic', readOnly: true },
    { name: 'version', label: '版', type: 'number', tab: 'basic', readOnly: true },
    { name: 'state', label: '状態', type: 'select', tab: 'basic', options: ARCHIVE_STATES, readOnly: true },
    { name: 'date', label: '取引年月日', type: 'date', tab: 'basic', readOnly: true, hint: '請求の締め日' },
    { name: 'amount', label: '取引金額', type: 'money', tab: 'basic', readOnly: true, hint: '今回請求額' },
    { name: 'cl_id', label: '取引先', type: 'ref', ref: 'client', tab: 'basic', readOnly: true },
    { name: 'cl_code', label: '顧客コード', type: 'text', tab: 'basic', readOnly: true },
    { name: 'cl_name', label: '取引先名', type: 'text', tab: 'basic', readOnly: true },
    { name: 'cl_kana', label: '取引先名カナ', type: 'text', tab: 'basic', readOnly: true },
    { name: 'sime_gp', label: '締日', type: 'select', tab: 'basic', options: CLOSING_DAY, readOnly: true },
    { name: 'sime_ym', label: '締め年月', type: 'text', format: 'month', tab: 'basic', readOnly: true },
    { name: 'bl_id', label: '請求ID', type: 'number', tab: 'basic', readOnly: true },
    { name: 'replaces', label: '訂正元の版', type: 'ref', ref: 'archive', tab: 'basic', readOnly: true, hint: 'この版が訂正する（取り消された）版' },
    { name: 'replaces_number', label: '訂正元の請求番号', type: 'text', tab: 'basic', readOnly: true },
    { name: 'file_name', label: 'ファイル名', type: 'text', tab: 'basic', readOnly: true },
    { name: 'sf_id', label: '保存ファイルID', type: 'number', tab: 'basic', readOnly: true },
    { name: 'size', label: 'サイズ（バイト）', type: 'number', tab: 'basic', readOnly: true },
    { name: 'pages', label: 'ページ数', type: 'number', tab: 'basic', readOnly: true },
    { name: 'pint_sf_id', label: 'デジタルインボイス（JP PINT）のファイルID', type: 'number', tab: 'basic', readOnly: true, hint: 'デジタルインボイスとして出力したときに保存されます' },
    { name: 'sha256', label: 'SHA-256', type: 'text', tab: 'basic', readOnly: true, wide: true },
    { name: 'usr_id', label: '発行者', type: 'ref', ref: 'user', tab: 'basic', readOnly: true },
    { name: 'keep_until', label: '保存期限', type: 'date', tab: 'basic', readOnly: true, hint: '締め日から 7 年' },
    { name: 'cancelled_at', label: '取消日時', type: 'datetime', tab: 'basic', readOnly: true },
    { name: 'cancelled_by', label: '取消者', type: 'ref', ref: 'user', tab: 'basic', readOnly: true },
    { name: 'cancel_reason', label: '取消理由', type: 'text', tab: 'basic', readOnly: true, wide: true },
  ],
  list: {
    columns: [
      { name: 'ar_number', label: '請求番号' },
      { name: 'ar_version', label: '版' },
      { name: 'ar_state', label: '状態', format: 'option' },
      { name: 'ar_date', label: '取引年月日', format: 'date' },
      { name: 'ar_amount', label: '取引金額', format: 'money' },
      { name: 'ar_cl_code', label: '顧客コード' },
      { name: 'ar_cl_name', label: '取引先' },
      { name: 'created', label: '発行日時', format: 'datetime' },
    ],
    sortable: ['ar_id', 'ar_number', 'ar_date', 'ar_amount', 'ar_cl_code', 'created'],
    keyword: ['cl_name', 'cl_kana', 'cl_code', 'number'],
    keywordHint: '取引先名・カナ・顧客コード・請求番号',
    // 取引年月日, newest first: a date range (what a tax office asks for) walks the (deleted, ar_date, ar_id) index.
    defaultSort: { col: 'ar_date', odr: 'desc' },
    totals: ['ar_amount'],
    filters: [
      { name: 'ar_date', label: '取引年月日', kind: 'dateRange', column: 'ar_date' },
      { name: 'ar_amount', label: '取引金額', kind: 'numberRange', column: 'ar_amount' },
      { name: 'state', label: '状態', kind: 'in', options: ARCHIVE_STATES },
      { name: 'cl_id', label: '取引先', kind: 'equals', implied: true },
      { name: 'bl_id', label: '請求', kind: 'equals', implied: true },
      { name: 'created', label: '発行日', kind: 'dateRange' },
    ],
  },
  titleFields: ['number', 'id'],
  // A 修正 version names the version it corrects; the corrected one lists its corrections.
  related: [{ resource: 'archive', field: 'replaces', label: '修正版' }],
  ops: { create: false, edit: false, delete: false },
} as const satisfies ResourceDef;
