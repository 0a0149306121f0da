/**
 * Issuing invoices (issue 13, area 売上):
 * - `billing_pdf` (id, reissue?): one invoice's PDF (a file, `請求書_{番号}_{顧客}.pdf`); counted as issued in the
 *   same transaction (`bl_print_count`, and `bl_reissued` on a reprint, which the PDF marks 再発行; `reissue=1`
 *   marks even a first print).
 * - `billing_pdf_batch` (sime_gp, sime_ym): a job writing the closing's invoices as one merged PDF and a ZIP of one
 *   PDF per customer (server/billing/batch.ts); `billing_pdf_batch_file` (job_id, format pdf | zip) answers them from
 *   the file store (server/files), on any server.
 * - `billing_mail` (id, template?): the invoice's PDF attached to a mail of a 請求 template, to the customer's
 *   請求先メールアドレス (else its メールアドレス), through SMTP; every attempt is logged in `billing_send` (sent, or
 *   failed with the reason) and the audit log; a sent mail counts as an issue. `billing_send_lst` (bl_id) lists them.
 * - `billing_mail_batch_preview` (sime_gp, sime_ym): the closing's invoices with the address each goes to (customers
 *   without one listed) and why mail cannot go now; `billing_mail_batch` (sime_gp, sime_ym, template?): a job mailing
 *   each of them through the same send (server/billing/mail.ts), one running per closing, its result per invoice.
 * Without SMTP settings every mail call is refused up front (400, the reason in Japanese).
 * An invoice whose parts do not agree to the yen is never issued (`assertReconciles`).
 */
import type { FastifyInstance } from 'fastify';
import { BILLING_MESSAGES } from '../../lib/billing/messages';
import { closingLabel, closingOf } from '../../lib/closing/period';
import type { MailBatchResult } from '../../lib/billing/mail-batch';
import type { ArchiveDeliveryRow } from '../../lib/closing/answers';
import { addCall, type AreaOptions, type FileAnswer, type SessionUser } from '../calls/call-table';
import { fileChunks, jobFile, storedFile } from '../files';
import { ApiError, badRequest } from '../http/api-error';
import { positiveId, type Params } from '../http/params';
import { assertMailReady } from '../mail';
import { batchFileKind, batchPdf, closingInvoiceIds, type BatchFormat, type BatchResult } from './batch';
import { leavingPint, leavingVersion, recordDeliveries, type ArchiveRow } from './archive';
import { recordIssues } from './issue';
import { downloadPage, makeLink, revokeLinks } from './page';
import { invoiceTemplate, mailBatch, mailBatchPreview, mailBatchProblem, mailBatchRecipients, mailInvoice, type InvoiceMailer } from './mail';

/** A 400 naming the parameter it is about. */
const paramProblem = (name: string, message: string): ApiError => badRequest(message, { fields: { [name]: message } });

/** An id parameter, or 400 naming it: missing, or not an id. */
function idParam(params: Params, name: string, messages: { missing: string; bad: string }): number {
  const raw = (params[name] ?? '').trim();
  if (raw === '') throw paramProblem(name, messages.missing);
  try {
    return positiveId(raw);
  } catch {
    throw paramProblem(name, messages.bad);
  }
}

/** The invoice id parameter (`id`, `bl_id`), or 400 naming it. */
const invoiceId = (params: Params, name: string): number => idParam(params, name, { missing: BILLING_MESSAGES.missingId, bad: BILLING_MESSAGES.badId });
/** An archived version's id parameter (`id`, `ar_id`), or 400 naming it. */
const archiveId = (params: Params, name: string): number =>
  idParam(params, name, { missing: BILLING_MESSAGES.missingArchiveId, bad: BILLING_MESSAGES.badArchiveId });

/** A closing's group and month (`sime_gp`, `sime_ym` YYYYMM), read as the closing calls read them; 400 naming the field. */
export function closingParams(params: Params): { simeGp: string; simeYm: string } {
  const parsed = closingOf(params.sime_gp ?? '', params.sime_ym ?? '');
  if (!parsed.ok) throw paramProblem(parsed.problem.field, parsed.problem.message);
  return { simeGp: parsed.period.sime_gp, simeYm: parsed.period.sime_ym };
}

const PDF = 'application/pdf';

export async function billingPlugin(app: FastifyInstance, { calls, database, config, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  downloadPage(app, db, database.reader, config.companyName);

  /** A stored version's bytes as they left, read beside any open transaction (on SQLite a second connection). */
  const versionFile = ({ version, again }: { version: ArchiveRow; again: boolean }): FileAnswer['file'] => ({
    name: version.ar_file_name ?? '', asciiName: `invoice_${(version.ar_number ?? '').replace(/[^\w.-]/g, '_')}.pdf`, contentType: PDF,
    body: fileChunks(database.reader, Number(version.ar_sf_id)),
    headers: {
      'content-length': String(version.ar_size ?? 0), 'x-invoice-pages': String(version.ar_pages ?? 0), 'x-invoice-reissue': again ? '1' : '0',
      'x-invoice-sha256': version.ar_sha256 ?? '',
    },
  });

  addCall(calls, 'billing_pdf', {
    handler: async ({ params, user, call }): Promise<FileAnswer> => {
      const id = invoiceId(params, 'id');
      const actor = { userId: user.user_id, call };
      const leaving = await db.transaction().execute(async (trx) => {
        const found = await leavingVersion(trx, actor, id);
        await recordIssues(trx, actor, [{ bl_id: id, printCount: found.printCount, reissue: found.printCount > 0 }]);
        await recordDeliveries(trx, actor, [{ ar_id: found.version.ar_id, how: 'print' }]);
        return found;
      });
      return { file: versionFile(leaving) };
    },
  });

  addCall(calls, 'billing_pint', {
    handler: async ({ params, user, call }): Promise<FileAnswer> => {
      const id = invoiceId(params, 'id');
      const actor = { userId: user.user_id, call };
      const { version } = await db.transaction().execute(async (trx) => {
        const found = await leavingPint(trx, actor, id);
        await recordIssues(trx, actor, [{ bl_id: id, printCount: found.printCount, reissue: found.printCount > 0 }]);
        await recordDeliveries(trx, actor, [{ ar_id: found.version.ar_id, how: 'pint' }]);
        return found;
      });
      const stored = await storedFile(database.reader, version.ar_pint_sf_id);
      if (!stored) throw new ApiError(404, BILLING_MESSAGES.archiveNotFound);
      return {
        file: {
          name: stored.sf_name, asciiName: `invoice_${(version.ar_number ?? '').replace(/[^\w.-]/g, '_')}.xml`, contentType: 'application/xml; charset=utf-8',
          body: fileChunks(database.reader, stored.sf_id), headers: { 'content-length': String(stored.sf_size), 'x-invoice-sha256': stored.sf_sha256 },
        },
      };
    },
  });

  addCall(calls, 'billing_pdf_batch', {
    handler: async ({ params, user, call }) => {
      const { simeGp, simeYm } = closingParams(params);
      if ((await closingInvoiceIds(db, simeGp, simeYm)).length === 0) throw badRequest(BILLING_MESSAGES.noInvoices(closingLabel(simeGp, simeYm)));
      const job_id = await jobs.start<BatchResult>({
        kind: 'billing_pdf_batch', scope: `${simeGp}:${simeYm}`, params: { sime_gp: simeGp, sime_ym: simeYm }, user,
        work: ({ id, database: { db: jobDb }, progress }) => batchPdf({
          db: jobDb, jobId: id, userId: user.user_id, call, simeGp, simeYm, progress, fallbackName: config.companyName,
        }),
      });
      return [{ job_id }];
    },
  });

  addCall(calls, 'billing_pdf_batch_file', {
    handler: async ({ params }): Promise<FileAnswer> => {
      const raw = (params.job_id ?? '').trim();
      if (raw === '') throw paramProblem('job_id', 'ジョブを指定してください。');
      const jobId = positiveId(raw);
      const format = (params.format ?? 'pdf').trim() as BatchFormat;
      if (format !== 'pdf' && format !== 'zip') throw paramProblem('format', BILLING_MESSAGES.badFormat);
      const job = await jobs.find(jobId);
      if (!job) throw new ApiError(404, BILLING_MESSAGES.batchGone);
      if (job.kind !== 'billing_pdf_batch') throw badRequest(BILLING_MESSAGES.notBatch);
      if (job.state === 'running') throw new ApiError(409, BILLING_MESSAGES.batchRunning);
      const result = job.result as BatchResult | null;
      if (job.state !== 'done' || !result) throw badRequest(BILLING_MESSAGES.batchFailed);
      // Read beside this process's open transaction (a job's), as the session is: on SQLite a second connection.
      const stored = await jobFile(database.reader, jobId, batchFileKind(format));
      if (!stored) throw new ApiError(404, BILLING_MESSAGES.batchGone);
      return {
        file: {
          name: format === 'pdf' ? result.pdf_name : result.zip_name, asciiName: `invoices_${result.sime_gp}_${result.sime_ym}.${format}`,
          contentType: format === 'pdf' ? PDF : 'application/zip',
          body: fileChunks(database.reader, stored.sf_id),
          headers: { 'content-length': String(stored.sf_size) },
        },
      };
    },
  });

  const mailer = (user: SessionUser, call: string, jobId?: number): InvoiceMailer => ({
    db, smtp: config.smtp, fallbackName: config.companyName, publicUrl: config.publicUrl, user, call, jobId,
  });

  addCall(calls, 'billing_mail', {
    handler: async ({ params, user, call }) => {
      const id = invoiceId(params, 'id');
      assertMailReady(config.smtp);
      const mailed = await mailInvoice(mailer(user, call), await invoiceTemplate(db, params.template), id);
      if (mailed.failure) throw mailed.failure;
      return [{ sent: true, bs_id: mailed.bs_id, to: mailed.to, subject: mailed.subject, reissue: mailed.reissue }];
    },
  });

  addCall(calls, 'billing_mail_batch_preview', {
    handler: async ({ params }) => {
      const { simeGp, simeYm } = closingParams(params);
      return [await mailBatchPreview(db, config.smtp, simeGp, simeYm)];
    },
  });

  addCall(calls, 'billing_mail_batch', {
    handler: async ({ params, user, call }) => {
      const { simeGp, simeYm } = closingParams(params);
      assertMailReady(config.smtp);
      const problem = await mailBatchProblem(db, config.smtp, simeGp, simeYm, await mailBatchRecipients(db, simeGp, simeYm));
      if (problem) throw badRequest(problem);
      const template = await invoiceTemplate(db, params.template);
      const job_id = await jobs.start<MailBatchResult>({
        kind: 'billing_mail_batch', scope: `${simeGp}:${simeYm}`, params: { sime_gp: simeGp, sime_ym: simeYm }, user,
        work: ({ id, database: { db: jobDb }, progress }) => mailBatch({ ...mailer(user, call, id), db: jobDb }, template, simeGp, simeYm, progress),
      });
      return [{ job_id }];
    },
  });

  addCall(calls, 'archive_file', {
    handler: async ({ params }): Promise<FileAnswer> => {
      const id = archiveId(params, 'id');
      const version = await db.selectFrom('invoice_archive').selectAll().where('ar_id', '=', id).executeTakeFirst();
      if (!version) throw new ApiError(404, BILLING_MESSAGES.archiveNotFound);
      return { file: versionFile({ version, again: true }) };
    },
  });

  addCall(calls, 'archive_delivery_lst', {
    handler: async ({ params }): Promise<ArchiveDeliveryRow[]> => {
      const id = archiveId(params, 'ar_id');
      const version = await db.selectFrom('invoice_archive').select('ar_id').where('ar_id', '=', id).executeTakeFirst();
      if (!version) throw new ApiError(404, BILLING_MESSAGES.archiveNotFound);
      const rows = await db.selectFrom('archive_delivery').leftJoin('user', 'user.user_id', 'archive_delivery.ad_usr_id')
        .select(['ad_id', 'ad_ar_id', 'ad_how', 'ad_to', 'ad_job_id', 'archive_delivery.created', 'user_name'])
        .where('ad_ar_id', '=', id).orderBy('ad_id', 'desc').execute();
      return rows.map((r) => ({ ...r, user_name: r.user_name ?? '' }));
    },
  });

  /** The customer a link call is about (`cl_id`), or 400 / 404 naming it. */
  const linkClient = async (params: Params): Promise<number> => {
    const id = idParam(params, 'cl_id', { missing: BILLING_MESSAGES.missingClient, bad: BILLING_MESSAGES.badClient });
    const client = await db.selectFrom('client').select('cl_id').where('cl_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
    if (!client) throw new ApiError(404, BILLING_MESSAGES.clientNotFound);
    return id;
  };

  addCall(calls, 'billing_link', {
    handler: async ({ params, user, call }) => [await makeLink(db, config.publicUrl, await linkClient(params), { userId: user.user_id, call })],
  });

  addCall(calls, 'billing_link_revoke', {
    handler: async ({ params, user, call }) => [{ revoked: await revokeLinks(db, await linkClient(params), { userId: user.user_id, call }) }],
  });

  addCall(calls, 'billing_send_lst', {
    handler: async ({ params }) => {
      const id = invoiceId(params, 'bl_id');
      const live = await db.selectFrom('billing').select('bl_id').where('bl_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
      if (!live) throw new ApiError(404, BILLING_MESSAGES.notFound);
      return db.selectFrom('billing_send').leftJoin('user', 'user.user_id', 'billing_send.bs_usr_id')
        .select(['bs_id', 'bs_bl_id', 'bs_to', 'bs_state', 'bs_error', 'bs_usr_id', 'user_name', 'billing_send.created'])
        .where('bs_bl_id', '=', id).orderBy('bs_id', 'desc').execute();
    },
  });
}
