/**
 * What the invoice calls (`billing_pdf`, `billing_pdf_batch`, `billing_pdf_batch_file`, `billing_mail`,
 * `billing_mail_batch_preview`, `billing_mail_batch`, `billing_send_lst`) answer when they refuse, and the names their files take — shared by the server and the screens
 * that call them.
 */
export const BILLING_MESSAGES = {
  missingId: '請求を選んでください。',
  badId: '請求は 1 以上の整数で指定してください。',
  notFound: '指定された請求が見つかりません。締め戻しされた可能性があります。',
  badFormat: 'ファイルの形式は pdf か zip で指定してください。',
  noInvoices: (what: string): string => `${what}の請求はありません（締め処理がまだか、締め戻しされました）。`,
  notBatch: '指定されたジョブは請求書の一括発行ではありません。',
  batchRunning: '請求書の一括発行はまだ終わっていません。終わってからダウンロードしてください。',
  batchFailed: '請求書の一括発行は完了しなかったため、ファイルはありません。',
  batchGone: '一括発行のファイルが見つかりません（作成から 24 時間を過ぎたか、別のサーバーで作成されました）。もう一度発行してください。',
  batchRestored: '一括発行の途中で請求が締め戻しされたため、発行を取り消しました。',
  missingClient: '顧客を指定してください。',
  badClient: '顧客の指定が正しくありません。',
  clientNotFound: '顧客が見つかりません。',
  noPeppolId: (name: string) => `${name} の Peppol ID が登録されていないため、デジタルインボイスを作成できません。顧客の「請求先」タブで Peppol ID を入力してください。`,
  archiveNotFound: '保存された請求書が見つかりません。',
  missingArchiveId: '保存された請求書を指定してください。',
  badArchiveId: '保存された請求書の指定が正しくありません。',
  batchRaced: '一括発行の途中で同じ請求書が別に発行されたため、発行を取り消しました。もう一度実行してください。',
  noAddress: (name: string): string => `顧客「${name}」にメールアドレス（請求先メールアドレス）が登録されていません。`,
  noTemplate: '請求書を送るメールテンプレート（対象「請求」・使用中）がありません。システム > メールテンプレート で作成してください。',
  badTemplate: '選んだメールテンプレートは請求書の送付に使えません（対象が「請求」で使用中のテンプレートを選んでください）。',
  noRecipients: (what: string): string => `${what}の請求先にメールアドレスが登録された顧客がいないため、送信できません。`,
} as const;

/**
 * The file name of one invoice's PDF (in the ZIP and as a download): number and customer, characters a file
 * system refuses replaced.
 * @example invoiceFileName('BL202605-000001', '𠮷田商店') // '請求書_BL202605-000001_𠮷田商店.pdf'
 */
export function invoiceFileName(number: string, customer: string): string {
  const safe = (s: string) => s.replace(/[\\/:*?"<>|\t\r\n]/g, '_').trim();
  return `請求書_${safe(number)}${customer ? `_${safe(customer)}` : ''}.pdf`;
}
