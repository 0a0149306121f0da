/**
 * Writes a Sagawa e飛伝III 発行済データ file (the issued-waybill data) for tests of the Sagawa waybill import
 * (送り状取込（佐川 e飛伝）, kind `waybill_sagawa`): 74 columns, CRLF, cp932 (or UTF-8 for a wrong-encoding case), with or
 * without the header row. お客様管理番号 (column 10) = our order number, お問い合せ送り状No. (column 62) = the tracking number
 * Sagawa assigned (its check digit is Yamato's rule: `validTrackingNo` of ./b2-issued makes good ones). The columns the
 * domain note names (hod-back-office.md "Sagawa e飛伝III") carry their names and a value; the others are `項目N`, empty.
 *
 * @example
 *   const bytes = sagawaIssuedFile([{ orderNumber: 'OD20260501-000012', trackingNo: validTrackingNo(1) }], { header: false });
 */
import { csvRecords, encodeCsv } from '../../server/resources/csv-text';
import type { IssuedFileOptions, IssuedWaybill } from './b2-issued';

/** The 1-based columns of the e飛伝III layout the file fills (hod-back-office.md). */
export const SAGAWA_COLUMN = {
  tel: 3, zip: 4, address1: 5, address2: 6, address3: 7, name1: 8, name2: 9, number: 10,
  requesterName: 18, item1: 25, pieces: 42, deliveryDate: 45, timeSlot: 46, cod: 48, shipDate: 61, trackingNo: 62,
} as const;

export const SAGAWA_COLUMN_COUNT = 74;

const NAMES: Readonly<Record<number, string>> = {
  3: 'お届け先電話番号', 4: 'お届け先郵便番号', 5: 'お届け先住所１', 6: 'お届け先住所２', 7: 'お届け先住所３',
  8: 'お届け先名称１', 9: 'お届け先名称２', 10: 'お客様管理番号',
  18: 'ご依頼主電話番号', 19: 'ご依頼主郵便番号', 20: 'ご依頼主住所１', 21: 'ご依頼主住所２', 22: 'ご依頼主名称１', 23: 'ご依頼主名称２',
  25: '品名１', 26: '品名２', 27: '品名３', 28: '品名４', 29: '品名５',
  42: '出荷個数', 45: '配達日', 46: '配達指定時間帯', 48: '代引金額', 61: '出荷日', 62: 'お問い合せ送り状No.',
};

/** The header row: 74 names (`項目N` where the layout's name is not needed). */
export const SAGAWA_HEADER: readonly string[] = Array.from({ length: SAGAWA_COLUMN_COUNT }, (_, i) => NAMES[i + 1] ?? `項目${i + 1}`);

/**
 * The bytes of an e飛伝III 発行済データ file of the given waybills.
 * @example sagawaIssuedFile([{ orderNumber: 'OD-1', trackingNo: '444413758703' }], { header: false }).toString('latin1').split(',').length // 74
 */
export function sagawaIssuedFile(waybills: readonly IssuedWaybill[], options: IssuedFileOptions = {}): Buffer {
  const rows = waybills.map((w) => {
    const cells: string[] = SAGAWA_HEADER.map(() => '');
    const set = (column: number, value: string) => { cells[column - 1] = value; };
    set(SAGAWA_COLUMN.tel, '03-5555-0001');
    set(SAGAWA_COLUMN.zip, '100-0001');
    set(SAGAWA_COLUMN.address1, '東京都千代田区千代田１－１');
    set(SAGAWA_COLUMN.name1, w.name ?? 'テスト 太郎');
    set(SAGAWA_COLUMN.number, w.orderNumber);
    set(SAGAWA_COLUMN.requesterName, '宅配水テスト');
    set(SAGAWA_COLUMN.item1, '天然水 12L');
    set(SAGAWA_COLUMN.pieces, '1');
    set(SAGAWA_COLUMN.shipDate, (w.shipDate ?? '2026-05-01').replace(/-/g, ''));
    set(SAGAWA_COLUMN.trackingNo, w.trackingNo);
    return cells;
  });
  const text = csvRecords([...(options.header === false ? [] : [SAGAWA_HEADER]), ...rows]);
  return encodeCsv(text, options.encoding ?? 'cp932').bytes;
}
