/**
 * Mailing invoices: the ONE send of an invoice's mail (`mailInvoice`) that `billing_mail` (one invoice) and
 * `billing_mail_batch` (every invoice of a closing, a job) both use — the first live 請求 template (or the one chosen)
 * filled with the invoice, its PDF attached, to the customer's 請求先メールアドレス else メールアドレス
 * (`invoiceRecipient`). The attachment is the invoice's archived version (server/billing/archive.ts: stored by its
 * first delivery, the same bytes ever after). The SMTP send runs outside any transaction; then one short transaction
 * logs it in `billing_send` (sent, or failed with the Japanese reason) with its audit row, and a sent mail counts as
 * issued and is recorded as a delivery of the version.
 */
import type { Kysely } from 'kysely';
import { BILLING_MESSAGES } from '../../lib/billing/messages';
import { mailSkipReason, type MailBatchOutcome, type MailBatchPreview, type MailBatchRecipient, type MailBatchResult } from '../../lib/billing/mail-batch';
import { closingLabel } from '../../lib/closing/period';
import { placeholderText, renderMail } from '../../lib/mail-template';
import { writeAudit } from '../audit/audit-log';
import type { SmtpConfig } from '../config';
import type { Database, Row } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { positiveId } from '../http/params';
import { mailProblem, sendMail } from '../mail';
import { closingInvoiceIds } from './batch';
import { leavingVersion, recordDeliveries } from './archive';
import { companySettings } from './invoice-document';
import { recordIssues } from './issue';
import { makeLink } from './page';
import { fileBytes } from '../files';
import { japanToday, nowIso } from '../http/clock';
import { formatDateJa } from '../../lib/format';
import { cellText } from '../../lib/resources/checks';

const PDF = 'application/pdf';

/**
 * Where a customer's invoices are mailed: its 請求先メールアドレス, else its メールアドレス ('' for neither).
 * @example invoiceRecipient({ cl_billing_email: '', cl_email: 'info@example.jp' }) // 'info@example.jp'
 */
export const invoiceRecipient = (client: { cl_billing_email?: unknown; cl_email?: unknown } | undefined): string =>
  cellText(client?.cl_billing_email).trim() || cellText(client?.cl_email).trim();

/**
 * The template an invoice mail is written with: the one asked for (`raw`, a template id), else the first live 請求
 * template; 400 naming `template` for one that is not a live 請求 template, 400 when there is none.
 */
export async function invoiceTemplate(db: Kysely<Database>, raw = ''): Promise<Row<'mail_template'>> {
  const query = db.selectFrom('mail_template').selectAll().where('deleted', '=', 0).where('ml_target', '=', 'billing').where('ml_active', '=', 1);
  if (raw.trim() !== '') {
    const chosen = await query.where('ml_id', '=', positiveId(raw.trim())).executeTakeFirst();
    if (!chosen) throw badRequest(BILLING_MESSAGES.badTemplate, { fields: { template: BILLING_MESSAGES.badTemplate } });
    return chosen;
  }
  const first = await query.orderBy('ml_id').executeTakeFirst();
  if (!first) throw badRequest(BILLING_MESSAGES.noTemplate);
  return first;
}

/** Who sends and through what: the SMTP settings, our company's fallback name, the user, the call (and the job) logged. */
export interface InvoiceMailer {
  db: Kysely<Database>;
  smtp: SmtpConfig;
  /** COMPANY_NAME: {{自社名}} when 自社情報 has no name. */
  fallbackName: string;
  /** PUBLIC_URL: where the download page's links point. */
  publicUrl: string;
  user: { user_id: number; user_name: string };
  call: string;
  jobId?: number;
}

/** One invoice mailed: where to, the subject, its log row, and the failure of the mail server (logged as failed). */
export interface InvoiceMailed {
  to: string;
  subject: string;
  bs_id: number;
  reissue: boolean;
  failure?: ApiError;
}

/**
 * Mails one invoice. Refuses (throws, nothing sent or logged) a missing invoice (404), a customer without an address,
 * an invoice that does not reconcile, a template with placeholders an invoice lacks; a refusal of the mail server is
 * logged as failed and answered as `failure`.
 * @example const mailed = await mailInvoice(mailer, await invoiceTemplate(db), 12)
 */
export async function mailInvoice(mailer: InvoiceMailer, template: Row<'mail_template'>, id: number): Promise<InvoiceMailed> {
  const { db, user, call } = mailer;
  const billing = await db.selectFrom('billing').selectAll().where('bl_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
  if (!billing) throw new ApiError(404, BILLING_MESSAGES.notFound);
  const client = await db.selectFrom('client').selectAll().where('cl_id', '=', Number(billing.bl_cl_id)).executeTakeFirst();
  const to = invoiceRecipient(client);
  if (!to) throw badRequest(BILLING_MESSAGES.noAddress(cellText(billing.bl_name) || cellText(client?.cl_co_name) || cellText(client?.cl_name)));
  const { name: companyName } = await companySettings(db, mailer.fallbackName);
  const mail = renderMail(
    { subject: (template.ml_subject ?? ''), body: (template.ml_body ?? '') },
    { client: client ?? {}, billing, senderName: user.user_name, companyName, today: japanToday() },
  );
  if (mail.unknown.length) throw badRequest(`テンプレートに使用できない差し込み項目があります: ${mail.unknown.map(placeholderText).join('、')}。テンプレートを直してから送信してください。`);
  // The attachment is the archived version's bytes: stored by an earlier delivery, else rendered and stored now.
  const actor = { userId: user.user_id, call, jobId: mailer.jobId };
  const { version, printCount } = await db.transaction().execute((trx) => leavingVersion(trx, actor, id));
  // 請求書の送付方法 メール（ダウンロード）: a link to the download page instead of the attachment.
  const link = cellText(client?.cl_invoice_delivery) === '3' ? await makeLink(db, mailer.publicUrl, Number(billing.bl_cl_id), { userId: user.user_id, call, jobId: mailer.jobId }) : undefined;
  const attachments = link ? [] : [{ filename: cellText(version.ar_file_name), content: await fileBytes(db, Number(version.ar_sf_id)), contentType: PDF }];
  const text = link ? `${mail.body.replace(/\s+$/, '')}\n\n${linkText(link)}\n` : mail.body;

  let failure: ApiError | undefined;
  try {
    await sendMail(mailer.smtp, { to, subject: mail.subject, text, fromName: companyName, attachments });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    failure = error;
  }
  const bs_id = await db.transaction().execute(async (trx) => {
    const row = await trx.insertInto('billing_send').values({
      bs_bl_id: id, bs_to: to, bs_state: failure ? 'failed' : 'sent', bs_error: failure?.message ?? '', bs_usr_id: user.user_id, created: nowIso(),
    }).returning('bs_id').executeTakeFirstOrThrow();
    const extra = { to: [null, to] as [null, string], subject: [null, mail.subject] as [null, string] };
    if (failure) {
      await writeAudit(trx, { userId: user.user_id, call, table: 'billing', recordId: id, jobId: mailer.jobId, changes: { ...extra, send_state: [null, `送信失敗: ${failure.message}`] } });
    } else {
      // A mailed PDF is an issued invoice, and a delivery of its version.
      await recordIssues(trx, { ...actor, extra: { ...extra, send_state: [null, '送信済み'] } }, [{ bl_id: id, printCount, reissue: printCount > 0 }]);
      await recordDeliveries(trx, actor, [{ ar_id: version.ar_id, how: 'mail', to }]);
    }
    return row.bs_id;
  });
  return { to, subject: mail.subject, bs_id, reissue: printCount > 0, failure };
}

/** What a mail with a download link says of it. */
const linkText = (link: { url: string; expires: string }): string =>
  `請求書は次のページからご覧いただけます（${formatDateJa(link.expires)}まで）。\n${link.url}`;

/** The closing's invoices in number order with where each one's mail goes. */
export async function mailBatchRecipients(db: Kysely<Database>, simeGp: string, simeYm: string): Promise<MailBatchRecipient[]> {
  const ids = await closingInvoiceIds(db, simeGp, simeYm);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('billing').innerJoin('client', 'client.cl_id', 'billing.bl_cl_id')
    .select(['bl_id', 'bl_number', 'bl_cl_id', 'bl_name', 'bl_total', 'cl_co_name', 'cl_name', 'cl_billing_email', 'cl_email', 'cl_invoice_delivery'])
    .where('bl_id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.bl_id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{
      bl_id: id, bl_number: (r.bl_number ?? ''), cl_id: Number(r.bl_cl_id),
      name: (r.bl_name || r.cl_co_name || r.cl_name || ''), to: invoiceRecipient(r), total: (r.bl_total ?? 0), delivery: r.cl_invoice_delivery,
    }];
  });
}

/**
 * Why the closing's invoices cannot be mailed now ('' when they can): mail not set up, no 請求 template, no
 * invoices, nobody with an address.
 */
export async function mailBatchProblem(db: Kysely<Database>, smtp: SmtpConfig, simeGp: string, simeYm: string, rows: readonly MailBatchRecipient[]): Promise<string> {
  const problem = mailProblem(smtp);
  if (problem) return problem;
  if (rows.length === 0) return BILLING_MESSAGES.noInvoices(closingLabel(simeGp, simeYm));
  if (!rows.some((r) => mailSkipReason(r) === '')) return BILLING_MESSAGES.noRecipients(closingLabel(simeGp, simeYm));
  try {
    await invoiceTemplate(db);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  return '';
}

/** `billing_mail_batch_preview`: the recipients of a closing's invoices and whether mail can go. */
export async function mailBatchPreview(db: Kysely<Database>, smtp: SmtpConfig, simeGp: string, simeYm: string): Promise<MailBatchPreview> {
  const rows = await mailBatchRecipients(db, simeGp, simeYm);
  const mailed = rows.filter((r) => mailSkipReason(r) === '').length;
  const notMailed = rows.filter((r) => r.delivery === '1' || r.delivery === '4').length;
  return {
    sime_gp: simeGp, sime_ym: simeYm, rows, with_address: mailed, without_address: rows.length - mailed - notMailed, not_mailed: notMailed,
    problem: await mailBatchProblem(db, smtp, simeGp, simeYm, rows),
  };
}

/**
 * The job: each invoice of the closing mailed in turn by `mailInvoice` (each sent mail logged and counted as issued
 * on its own: a mail sent is never rolled back), a customer without an address or whose invoices go by post or as
 * digital invoices (請求書の送付方法) skipped, any refusal kept as the
 * invoice's failure; progress after each. A cancel stops before the next invoice.
 */
export async function mailBatch(mailer: InvoiceMailer, template: Row<'mail_template'>, simeGp: string, simeYm: string, progress: (done: number, total: number) => Promise<void>): Promise<MailBatchResult> {
  const recipients = await mailBatchRecipients(mailer.db, simeGp, simeYm);
  const rows: MailBatchOutcome[] = [];
  await progress(0, recipients.length);
  for (const recipient of recipients) {
    const skip = mailSkipReason(recipient);
    if (skip) {
      rows.push({ ...recipient, state: 'skipped', error: recipient.to ? skip : BILLING_MESSAGES.noAddress(recipient.name) });
    } else {
      try {
        const mailed = await mailInvoice(mailer, template, recipient.bl_id);
        rows.push({ ...recipient, to: mailed.to, state: mailed.failure ? 'failed' : 'sent', error: mailed.failure?.message ?? '' });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        rows.push({ ...recipient, state: 'failed', error: error.message });
      }
    }
    await progress(rows.length, recipients.length);
  }
  const count = (state: MailBatchOutcome['state']) => rows.filter((r) => r.state === state).length;
  return { sime_gp: simeGp, sime_ym: simeYm, sent: count('sent'), failed: count('failed'), skipped: count('skipped'), rows };
}
