/**
 * 請求書の一括メール送信 (`billing_mail_batch`, a job, one running per closing): what its calls answer, shared by the
 * server (server/billing/mail.ts) and the closing screen — the recipients first (`billing_mail_batch_preview`: the
 * address each invoice goes to, the customers without one), then the result per invoice.
 */

/** One invoice of the closing and where its mail goes ('' = the customer has no address: not sent). */
export interface MailBatchRecipient {
  bl_id: number;
  bl_number: string;
  cl_id: number;
  /** The billing customer's name on the invoice. */
  name: string;
  /** 請求先メールアドレス, else メールアドレス; '' when neither is entered. */
  to: string;
  total: number;
  /** 請求書の送付方法 (`cl_invoice_delivery`: '1' 郵送, '2' メール添付, '3' メール（ダウンロード）, '4' デジタルインボイス, '' not set). */
  delivery: string;
}

/** Why the batch mail leaves an invoice out ('' when it mails it): its customer gets invoices by post or digitally, or has no address. */
export function mailSkipReason(row: Pick<MailBatchRecipient, 'to' | 'delivery'>): string {
  if (row.delivery === '1') return '請求書の送付方法が「郵送」の顧客です。';
  if (row.delivery === '4') return '請求書の送付方法が「デジタルインボイス」の顧客です。';
  return row.to ? '' : 'メールアドレスがありません。';
}

/** `billing_mail_batch_preview`: the closing's invoices with their recipients, and why mail cannot go now. */
export interface MailBatchPreview {
  sime_gp: string;
  sime_ym: string;
  rows: MailBatchRecipient[];
  /** Invoices a run mails: an address, and sent by mail (or no 送付方法 set). */
  with_address: number;
  /** Invoices to be mailed whose customer has no address (listed, never sent). */
  without_address: number;
  /** Invoices whose customer gets them by post (郵送) or as digital invoices: listed, not mailed. */
  not_mailed: number;
  /** Why nothing can be sent (mail not set up, no 請求 template), '' when it can. */
  problem: string;
}

/** What became of one invoice's mail: sent, failed with the reason, or skipped (no address, or not sent by mail). */
export type MailBatchState = 'sent' | 'failed' | 'skipped';

export interface MailBatchOutcome extends MailBatchRecipient {
  state: MailBatchState;
  /** The reason of a failure or a skip, in Japanese ('' when sent). */
  error: string;
}

/** The job's result. */
export interface MailBatchResult {
  sime_gp: string;
  sime_ym: string;
  sent: number;
  failed: number;
  skipped: number;
  rows: MailBatchOutcome[];
}

export const MAIL_BATCH_STATE_TEXT: Record<MailBatchState, string> = { sent: '送信済み', failed: '送信失敗', skipped: '送信なし' };

/**
 * The result in words.
 * @example mailBatchResultText({ sent: 2, failed: 1, skipped: 1 }) // '請求書を2件メールで送信しました（失敗 1件、送信なし 1件）。'
 */
export function mailBatchResultText(result: Pick<MailBatchResult, 'sent' | 'failed' | 'skipped'>): string {
  const rest = [result.failed ? `失敗 ${result.failed.toLocaleString('ja-JP')}件` : '', result.skipped ? `送信なし ${result.skipped.toLocaleString('ja-JP')}件` : ''].filter(Boolean);
  return `請求書を${result.sent.toLocaleString('ja-JP')}件メールで送信しました${rest.length ? `（${rest.join('、')}）` : ''}。`;
}
