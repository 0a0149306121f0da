/**
 * What the JACCS (口座振替) calls answer, typed once for the server (server/jaccs) and the screen /system/jaccs.
 */

/** One customer to be debited: its invoice's 残額 and account, with every problem that keeps the file from being made. */
export interface JaccsRequestRow {
  bl_id: number;
  bl_number: string;
  cl_id: number;
  name: string;
  debit_code: string;
  bank_code: string;
  branch_code: string;
  account_type: string;
  account_no: string;
  account_kana: string;
  amount: number;
  /** Japanese, each naming the field: 「銀行コードがありません」… ([] when the row can be written). */
  problems: string[];
}

/** A request file made before (the history). */
export interface JaccsRequestEntry {
  jr_id: number;
  created: string;
  reissue: boolean;
  debit_date: string;
  count: number;
  total: number;
  file_name: string;
  user_name: string;
  /** When its result was imported ('' while not). */
  result_at: string;
}

/** `jaccs_preview`: the request a closing makes, checked, and the requests made from it. */
export interface JaccsPreview {
  cls_id: number;
  sime_gp: string;
  sime_ym: string;
  closing_date: string;
  /** 引落日: the 27th of the month after the closing month, or the next bank day. */
  debit_date: string;
  rows: JaccsRequestRow[];
  count: number;
  total: number;
  /** Problems of 自社情報 (the header record's 委託者 data). */
  company_problems: string[];
  /** Rows with a problem. */
  problem_rows: number;
  requests: JaccsRequestEntry[];
}

/** One customer of a result not debited (振替不能), for the list after an import. */
export interface JaccsFailure {
  cl_id: number;
  name: string;
  debit_code: string;
  amount: number;
  code: string;
  meaning: string;
  debit_date: string;
}
