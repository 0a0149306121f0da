/**
 * 送り状取込 (/system/import?kind=waybill | waybill_sagawa): a carrier's issued-waybill data, of which only two columns
 * are read — the order number we gave (お客様管理番号 = our 受注番号) and the tracking number the carrier assigned (12
 * digits, hyphens allowed, the last digit = the first 11 digits mod 7 for Yamato and Sagawa alike: lib/orders/tracking.ts).
 * One handler reads both carriers (server/imports/kinds/waybill.ts); each carrier is a kind with its own columns:
 * - `waybill`: the Yamato B2 Cloud 発行済データ (cp932, with or without its header row): お客様管理番号 column 1, 伝票番号
 *   column 4;
 * - `waybill_sagawa`: the Sagawa e飛伝III 発行済データ (74 columns, cp932, with or without its header row): お客様管理番号
 *   column 10, お問い合せ送り状No. column 62.
 * A file without a header row is read by these positions.
 */
import type { ImportColumn, ImportKindInfo } from '../kinds';
import { IMPORT_PAGES } from '../pages';

/** The fields a waybill kind reads (each carrier's columns fill the same two). */
export type WaybillImportField = 'order_no' | 'tracking_no';

interface WaybillColumn extends ImportColumn {
  field: WaybillImportField;
}

export const waybillImportColumns = [
  { field: 'order_no', label: 'お客様管理番号', synonyms: ['受注番号', '管理番号', '注文番号'], required: true, position: 0 },
  { field: 'tracking_no', label: '伝票番号', synonyms: ['送り状番号', 'お問い合せ送り状No.', 'お問合せ送り状番号', '問い合わせ番号', '追跡番号'], required: true, position: 3 },
] as const satisfies readonly WaybillColumn[];

export const waybillSagawaImportColumns = [
  { field: 'order_no', label: 'お客様管理番号', synonyms: ['お客様管理ナンバー', '受注番号', '管理番号', '注文番号'], required: true, position: 9 },
  { field: 'tracking_no', label: 'お問い合せ送り状No.', synonyms: ['お問合せ送り状No.', 'お問い合わせ送り状No.', '送り状番号', 'お問合せ送り状番号', '問い合わせ番号', '追跡番号'], required: true, position: 61 },
] as const satisfies readonly WaybillColumn[];

export const waybillImportKind: ImportKindInfo = {
  label: IMPORT_PAGES.waybill.label,
  area: 'order',
  format: 'csv',
  route: IMPORT_PAGES.waybill.route,
  columns: waybillImportColumns,
};

export const waybillSagawaImportKind: ImportKindInfo = {
  label: IMPORT_PAGES.waybill_sagawa.label,
  area: 'order',
  format: 'csv',
  route: IMPORT_PAGES.waybill_sagawa.route,
  columns: waybillSagawaImportColumns,
};

/** The carriers whose issued data 送り状取込 reads, each its kind (the screen's 運送会社 choice switches between them). */
export const WAYBILL_CARRIERS = [
  { kind: 'waybill', text: 'ヤマト B2' },
  { kind: 'waybill_sagawa', text: '佐川 e飛伝' },
] as const;

export type WaybillKind = (typeof WAYBILL_CARRIERS)[number]['kind'];

export const isWaybillKind = (kind: string): kind is WaybillKind => WAYBILL_CARRIERS.some((c) => c.kind === kind);

/**
 * The label of a field among a carrier's columns (what the errors name).
 * @example waybillColumnLabel(waybillSagawaImportColumns, 'tracking_no') // 'お問い合せ送り状No.'
 */
export const waybillColumnLabel = (columns: readonly WaybillColumn[], field: WaybillImportField): string => columns.find((c) => c.field === field)!.label;
