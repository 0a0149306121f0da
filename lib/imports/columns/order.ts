/**
 * 受注取込 (/system/import?kind=order): orders with their lines from the documented template, one row per line. The
 * rows of one order share its 受注キー (the order's natural key: stored on the order, so the same file imported twice
 * creates nothing twice) and are consecutive. The order's values (customer, dates, time slot, 備考) are read from its
 * first row; a later row may leave them empty or repeat them. The customer by 顧客コード or, when that is empty, by
 * 電話番号 (digits compared, hyphens ignored: one live customer must have it as 電話番号1 or 2); the item by
 * 商品コード; 単価 empty = the customer's price of the item, as on a hand-entered order. Names, prices, tax class and
 * rate, and the fee line are the order's own rules (server/orders/order-policy.ts). 出荷倉庫 by the warehouse's code or
 * name (a warehouse in use); empty = the order's own default (the customer's warehouse, else 受注設定's 既定の出荷倉庫).
 */
import type { ImportColumn, ImportKindInfo } from '../kinds';
import { IMPORT_PAGES } from '../pages';

export const orderImportColumns = [
  { field: 'key', label: '受注キー', synonyms: ['注文番号', 'オーダー番号', '受注ID', '取込キー'], required: true },
  { field: 'cl_code', label: '顧客コード', synonyms: ['得意先コード', '顧客番号'] },
  { field: 'tel', label: '電話番号', synonyms: ['顧客電話番号', 'TEL', '電話'] },
  { field: 'date', label: '受注日', synonyms: ['注文日'] },
  { field: 'delivery_date', label: '配送日', synonyms: ['お届け日', '配達日', 'お届け予定日'] },
  { field: 'time_slot', label: '配達時間帯', synonyms: ['時間帯', 'お届け時間帯', '配達時間'] },
  { field: 'it_code', label: '商品コード', synonyms: ['品番', '商品番号'], required: true },
  { field: 'quantity', label: '数量', synonyms: ['個数', '注文数'], required: true },
  { field: 'price', label: '単価', synonyms: ['販売単価', '単価（税抜）'] },
  { field: 'biko', label: '備考', synonyms: ['メモ', '摘要'] },
  { field: 'warehouse', label: '出荷倉庫', synonyms: ['倉庫', '倉庫コード', '倉庫名', '出荷倉庫コード', '出荷元倉庫'] },
] as const satisfies readonly ImportColumn[];

export type OrderImportField = (typeof orderImportColumns)[number]['field'];

export const orderImportKind: ImportKindInfo = {
  label: IMPORT_PAGES.order.label,
  area: 'order',
  format: 'csv',
  route: IMPORT_PAGES.order.route,
  groupBy: 'key',
  units: { group: '受注', row: '明細' },
  columns: orderImportColumns,
};

/** The label of a field's column (the errors name it). */
export const orderColumnLabel = (field: OrderImportField): string => orderImportColumns.find((c) => c.field === field)!.label;

