/**
 * Writes a Yamato B2 Cloud 発行済データ file (the issued-waybill export) for tests of the waybill import (送り状取込): the
 * 97-column layout of the B2 CSV (server/exports/b2-layout.ts) with お客様管理番号 (column 1) = our order number and
 * 伝票番号 (column 4) = the tracking number B2 assigned, CRLF, cp932 (or UTF-8 for a wrong-encoding case), with or
 * without the header row. `validTrackingNo` makes tracking numbers whose check digit is right (lib/orders/tracking).
 *
 * @example
 *   const bytes = b2IssuedFile([{ orderNumber: 'OD20260501-000012', trackingNo: validTrackingNo(1) }], { header: false });
 */
import { trackingCheckDigit } from '../../lib/orders/tracking';
import { B2_COLUMN, B2_COLUMNS } from '../../server/exports/b2-layout';
import { csvRecords, encodeCsv } from '../../server/resources/csv-text';

/** One issued waybill: the order it was made for and its tracking number (written as given: digits, or with hyphens). */
export interface IssuedWaybill {
  orderNumber: string;
  trackingNo: string;
  /** 出荷予定日 YYYY-MM-DD (default 2026-05-01); お届け先名 (default テスト 太郎). */
  shipDate?: string;
  name?: string;
}

export interface IssuedFileOptions {
  /** The header row first (B2's own default, 取込み開始行 2); default true. */
  header?: boolean;
  /** cp932 (default, what B2 writes) or utf8 (no BOM: a file of the wrong encoding). */
  encoding?: 'cp932' | 'utf8';
}

/**
 * A 12-digit tracking number with a right check digit, made from a seed (different seeds, different numbers).
 * @example validTrackingNo(1) // '444400079200'
 */
export function validTrackingNo(seed: number): string {
  const first11 = String(44440000001 + seed * 7919).padStart(11, '0').slice(-11);
  return `${first11}${trackingCheckDigit(first11)}`;
}

/**
 * The bytes of a B2 発行済データ file of the given waybills.
 * @example b2IssuedFile([{ orderNumber: 'OD-1', trackingNo: '444413758703' }]).subarray(0, 2) // the header's first bytes in cp932
 */
export function b2IssuedFile(waybills: readonly IssuedWaybill[], options: IssuedFileOptions = {}): Buffer {
  const rows = waybills.map((w) => {
    const cells = B2_COLUMNS.map(() => '');
    cells[B2_COLUMN.number - 1] = w.orderNumber;
    cells[B2_COLUMN.type - 1] = '0';
    cells[3] = w.trackingNo; // 伝票番号 (column 4): B2 fills it when it issues the waybill.
    cells[B2_COLUMN.shipDate - 1] = (w.shipDate ?? '2026-05-01').replace(/-/g, '/');
    cells[B2_COLUMN.name - 1] = w.name ?? 'テスト 太郎';
    return cells;
  });
  const text = csvRecords([...(options.header === false ? [] : [B2_COLUMNS]), ...rows]);
  return encodeCsv(text, options.encoding ?? 'cp932').bytes;
}
