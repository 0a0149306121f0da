/**
 * What the closing calls answer (server/closing, issue 13), shared with the screens (/closing, /restore, the invoice
 * detail): the preview (仮締め), its drill-down, the closings list with whether each may be restored (締め戻し), the
 * job's result and an invoice's rate rows.
 */
import type { InvoiceFigures } from './arithmetic';

/** One billing customer's invoice as the preview computes it (and the closing writes it). */
export interface ClosingPreviewRow extends InvoiceFigures {
  cl_id: number;
  /** The billing customer's name (会社名, else 氏名). */
  name: string;
  /**
   * The period's first day; earlier for a first invoice that takes slips or payments from before it. A later invoice keeps
   * its period: the late slips and payments it takes (dated on or before the previous closing date) are marked as such.
   */
  period_from: string;
  period_to: string;
}

/** The mark of a slip or payment an invoice bills though dated before its period (a late entry, issue 19): screen and PDF. */
export const LATE_MARK = '前回締め後計上';

/**
 * `closing_late` (issue 19): a slip or payment of a customer dated in a closed period is billed by the next closing —
 * the closing date that closed its day, the next closing's date, and what the form says before saving.
 */
export interface LateEntry {
  closed: string;
  next: string;
  /** 「11月20日締めは締め処理済みです。次回（12月20日締め）の請求に含めます。」 */
  message: string;
}

/** `closing_preview`: a group's month, its invoices by customer, and the sums of every money column. */
export interface ClosingPreview {
  sime_gp: string;
  sime_ym: string;
  closing_date: string;
  rows: ClosingPreviewRow[];
  totals: Pick<InvoiceFigures, 'prev_total' | 'paid' | 'carry' | 'sales_net' | 'tax_total' | 'total'> & { invoices: number };
}

/** A slip behind a preview row (`closing_preview_items`); `cl_id` is the slip's customer (a delivery site's own). */
export interface ClosingItemSlip {
  sl_id: number;
  number: string;
  date: string;
  cl_id: number;
  client_name: string;
  net: number;
  tax: number;
  total: number;
  /** Dated before the period, entered after the previous closing (a late entry, issue 19): 「前回締め後計上」. */
  late: boolean;
}

/** A payment behind a preview row. */
export interface ClosingItemPayment {
  py_id: number;
  date: string;
  cl_id: number;
  kind: string;
  amount: number;
  /** As a slip's `late`. */
  late: boolean;
}

/** `closing_preview_items`: the slips and payments one billing customer's invoice takes. */
export interface ClosingItems {
  slips: ClosingItemSlip[];
  payments: ClosingItemPayment[];
}

/** `closing_run`'s job result. */
export interface ClosingRunResult {
  cls_id: number;
  invoices: number;
  total: number;
}

/** `closing_restore`'s answer: the closing undone and how much it had taken. */
export interface ClosingRestoreResult {
  cls_id: number;
  sime_gp: string;
  sime_ym: string;
  invoices: number;
  slips: number;
  payments: number;
  /** Issued invoices kept in the archive, now marked 取消 (電子帳簿保存法: never deleted). */
  cancelled: number;
}

/** `closing_lst`: one closing, latest first, and whether it may be restored (else the reason). */
export interface ClosingListRow {
  cls_id: number;
  sime_gp: string;
  sime_ym: string;
  closing_date: string;
  invoices: number;
  total: number;
  created: string;
  user_name: string;
  restorable: boolean;
  /** Why it may not be restored (Japanese), or null. */
  refusal: string | null;
  /** What stands in the way, each named and linked (the invoices and payments of a 消込, the files made from it). */
  blockers: RestoreBlocker[];
}

/** One thing a 締め戻し waits for: an invoice or a payment (消込) or a file made from the closing, and where it is seen. */
export interface RestoreBlocker {
  kind: 'invoice' | 'payment' | 'file';
  label: string;
  link: string;
}

/** What `closing_warnings` may warn of before 締切. */
export type ClosingWarningKind = 'future' | 'unprocessed_orders' | 'rental_missing' | 'unallocated_payments';

/** `closing_warnings`: one thing to look at before closing a group's month, and the screen listing it (null: none). */
export interface ClosingWarning {
  kind: ClosingWarningKind;
  count: number;
  message: string;
  link: string | null;
}

/** One rate row of an invoice (`billing_rate_lst`). */
export interface BillingRateRow {
  blr_key: string;
  blr_rate: number;
  blr_net: number;
  blr_tax: number;
  blr_total: number;
  blr_tax_class?: string;
}

/** One e-mail of an invoice (`billing_send_lst`): sent, or failed with the reason. */
export interface BillingSendRow {
  bs_id: number;
  bs_to: string;
  bs_state: string;
  bs_error: string;
  created: string;
  user_name?: string;
}

/** `archive_delivery_lst`: one time an archived invoice version left (newest first). */
export interface ArchiveDeliveryRow {
  ad_id: number;
  ad_ar_id: number;
  /** print | batch | mail | page | pint (lib/resources/archive `ARCHIVE_DELIVERIES`). */
  ad_how: string;
  ad_to: string;
  ad_job_id: number | null;
  created: string;
  user_name: string;
}

/**
 * A rate key as the tables head it.
 * @example rateKeyLabel('8') // '8%'; rateKeyLabel('outside') // '不課税'
 */
export const rateKeyLabel = (key: string): string => (key === 'exempt' ? '非課税' : key === 'outside' ? '不課税' : `${key}%`);

/**
 * The taxed rates present in some rows, highest first: the 消費税 columns of a table.
 * @example taxedKeys([{ rates: [{ key: '8', … }, { key: 'outside', … }] }, { rates: [{ key: '10', … }] }]) // ['10', '8']
 */
export function taxedKeys(rows: readonly { rates: readonly { key: string }[] }[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const rate of row.rates) if (rate.key !== 'exempt' && rate.key !== 'outside') keys.add(rate.key);
  return [...keys].sort((a, b) => Number(b) - Number(a));
}

/**
 * The latest closing of each group (the only ones that may be undone).
 * @example latestOfGroups([{ cls_id: 1, sime_gp: '31', sime_ym: '202604' }, { cls_id: 2, sime_gp: '31', sime_ym: '202605' }]) // Set { 2 }
 */
export function latestOfGroups(rows: readonly Pick<ClosingListRow, 'cls_id' | 'sime_gp' | 'sime_ym'>[]): Set<number> {
  const latest = new Map<string, Pick<ClosingListRow, 'cls_id' | 'sime_ym'>>();
  for (const row of rows) {
    const at = latest.get(row.sime_gp);
    if (!at || row.sime_ym > at.sime_ym) latest.set(row.sime_gp, row);
  }
  return new Set([...latest.values()].map((r) => r.cls_id));
}
