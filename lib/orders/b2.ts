/**
 * What `export_b2_preview` answers (送り状出力, /system/export): per chosen order the key fields of its Yamato B2 row, the
 * characters that will be replaced (outside JIS X 0208) and what refuses it; the screen shows them before the download.
 */

/** A character replaced in the file: where, which, and what is written instead (〓, a stand-in, or nothing). */
export interface B2ReplacedChar {
  field: string;
  char: string;
  to: string;
}

/** One problem that refuses an order (or, with no order, the export: 自社情報). */
export interface B2Problem {
  field: string;
  message: string;
}

export interface B2PreviewRow {
  od_id: number;
  od_number: string;
  od_status: string;
  /** When and by whom its B2 row was last exported ('' never). */
  exported_at: string;
  exported_by: string;
  type: string;
  ship_date: string;
  delivery_date: string;
  time_slot: string;
  name: string;
  zipcode: string;
  tel: string;
  address: string;
  building: string;
  item: string;
  collect: string;
  replaced: B2ReplacedChar[];
  problems: B2Problem[];
}

export interface B2Preview {
  ship_date: string;
  rows: B2PreviewRow[];
  /** What 自社情報 lacks (ご依頼主, the B2 contract codes): refuses every order. */
  sender_problems: B2Problem[];
  /** Whether `export_b2` would answer the file for these orders. */
  ok: boolean;
}
