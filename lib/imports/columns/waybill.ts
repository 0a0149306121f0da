/**
 * 送り状取込 (/system/import?kind=waybill): the Yamato B2 Cloud 発行済データ (cp932, with or without its header row).
 * Only two of its columns are read: お客様管理番号 (column 1) = our 受注番号, and 伝票番号 (column 4) = the tracking
 * number (12 digits, hyphens allowed, the last digit = the first 11 digits mod 7: lib/orders/tracking.ts). A file
 * without a header row is read by these positions.
 */
import type { ImportColumn, ImportKindInfo } from '../kinds';

export const waybillImportColumns = [
  { field: 'order_no', label: 'お客様管理番号', synonyms: ['受注番号', '管理番号', '注文番号'], required: true, position: 0 },
  { field: 'tracking_no', label: '伝票番号', synonyms: ['送り状番号', 'お問い合せ送り状No.', 'お問合せ送り状番号', '問い合わせ番号', '追跡番号'], required: true, position: 3 },
] as const satisfies readonly ImportColumn[];

export type WaybillImportField = (typeof waybillImportColumns)[number]['field'];

export const waybillImportKind: ImportKindInfo = {
  label: '送り状取込',
  area: 'order',
  format: 'csv',
  route: '/system/import?kind=waybill',
  columns: waybillImportColumns,
};

export const waybillColumnLabel = (field: WaybillImportField): string => waybillImportColumns.find((c) => c.field === field)!.label;
