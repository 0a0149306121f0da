/**
 * Mail templates beyond their generic calls: `mailtemplate_preview` fills the SAVED template with a
 * real customer's data (and, for a template for an order, a real order's; for an invoice, a real invoice's),
 * and `mailtemplate_send` sends that mail to a test address through SMTP, audit-logged with the recipient and
 * the subject (never the body). Both read the customer (and the order or invoice), so the role must read those
 * too. {{自社名}} is the 自社情報's name (else COMPANY_NAME). `mail_status` tells every screen whether mail can be sent
 * at all (SMTP set up) and why not, so mail buttons are disabled with the reason before anything is tried.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import * as v from 'valibot';
import { mailTargetOf, placeholderText, renderMail, type RenderedMail } from '../../lib/mail-template';
import { can, type Area } from '../../lib/permissions';
import { MESSAGES, type MailStatus } from '../../lib/protocol';
import { billingResource } from '../../lib/resources/billing';
import { clientResource } from '../../lib/resources/client';
import { mailTemplateResource } from '../../lib/resources/mail-template';
import { orderResource } from '../../lib/resources/order';
import { fieldSchema } from '../../lib/resources/schema';
import { columnOf, type ResourceDef } from '../../lib/resources/types';
import { writeAudit, type Changes } from '../audit/audit-log';
import { addCall, type AreaOptions, type CallContext } from '../calls/call-table';
import type { ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { positiveId, type Params } from '../http/params';
import { findRecord } from '../resources';
import { companySettings } from '../billing';
import { assertMailReady, mailProblem, sendMail } from './mailer';
import { japanToday } from '../http/clock';

const def = mailTemplateResource;

/** The recipient of a test send: one address, checked like every e-mail field. */
const recipientSchema = v.pipe(
  fieldSchema({ name: 'to', label: '送信先メールアドレス', type: 'email', tab: '', required: true, max: 254 }),
  v.check((x) => !/[,;<>"]/.test(String(x)), '送信先メールアドレスには、アドレスを 1 件だけ入力してください（名前や区切り文字は使えません）。'),
);

/** A 400 naming the parameter it is about (the panel shows it under its input). */
const paramProblem = (name: string, message: string): ApiError => badRequest(message, { fields: { [name]: message } });

/** A positive id parameter with a message naming what it is. */
function idParam(params: Params, name: string, label: string, verb: '選んで' | '入力して'): number {
  const raw = (params[name] ?? '').trim();
  if (raw === '') throw paramProblem(name, `${label}を${verb}ください。`);
  try {
    return positiveId(raw);
  } catch {
    throw paramProblem(name, `${label}は 1 以上の整数で指定してください。`);
  }
}

function requireRead(ctx: CallContext, area: Area): void {
  if (!can(ctx.user.areas, area, 'read')) throw new ApiError(403, MESSAGES.forbidden);
}

export async function mailPlugin(_app: FastifyInstance, { calls, database, config }: AreaOptions): Promise<void> {
  const { db } = database;

  const findOr404 = async (resource: ResourceDef, id: number, message: string): Promise<ResourceRow> => {
    try {
      return await findRecord(db, resource, id);
    } catch (error) {
      throw error instanceof ApiError && error.status === 404 ? new ApiError(404, message) : error;
    }
  };

  /**
   * The order a preview or test send is for: by the order number staff type (`od_number`; full-width,
   * spaces and letter case forgiven), or by its id (`od_id`).
   */
  async function orderOf(params: Params): Promise<ResourceRow> {
    const typed = (params.od_number ?? '').normalize('NFKC').trim();
    if (typed === '' && (params.od_id ?? '').trim() !== '') {
      const orderId = idParam(params, 'od_id', '受注', '選んで');
      return findOr404(orderResource, orderId, '指定された受注が見つかりません。削除された可能性があります。');
    }
    if (typed === '') throw paramProblem('od_number', '受注番号を入力してください。');
    if (typed.length > 50) throw paramProblem('od_number', '受注番号は50文字以内で入力してください。');
    const live = db.selectFrom('orders').select('od_id').where('deleted', '=', 0);
    const found = (await live.where('od_number', '=', typed).executeTakeFirst())
      ?? (await live.where(sql<string>`lower(od_number)`, '=', typed.toLowerCase()).executeTakeFirst());
    if (!found) throw new ApiError(404, `受注番号 ${typed} の受注が見つかりません。`, { fields: { od_number: `受注番号 ${typed} の受注が見つかりません。` } });
    return findRecord(db, orderResource, found.od_id);
  }

  /** The invoice a preview or test send is for: by its number as staff type it (`bl_number`), or by its id (`bl_id`). */
  async function billingOf(params: Params): Promise<ResourceRow> {
    const typed = (params.bl_number ?? '').normalize('NFKC').trim();
    if (typed === '' && (params.bl_id ?? '').trim() !== '') {
      const billingId = idParam(params, 'bl_id', '請求', '選んで');
      return findOr404(billingResource, billingId, '指定された請求が見つかりません。締め戻しされた可能性があります。');
    }
    if (typed === '') throw paramProblem('bl_number', '請求番号を入力してください。');
    if (typed.length > 50) throw paramProblem('bl_number', '請求番号は50文字以内で入力してください。');
    const found = await db.selectFrom('billing').select('bl_id').where('deleted', '=', 0).where(sql<string>`upper(bl_number)`, '=', typed.toUpperCase()).executeTakeFirst();
    if (!found) throw new ApiError(404, `請求番号 ${typed} の請求が見つかりません。`, { fields: { bl_number: `請求番号 ${typed} の請求が見つかりません。` } });
    return findRecord(db, billingResource, found.bl_id);
  }

  /** The saved template, the records it is filled from and the filled mail. */
  async function compose(ctx: CallContext): Promise<{ id: number; clientId: number; order?: ResourceRow; billing?: ResourceRow; client: ResourceRow; mail: RenderedMail }> {
    const id = idParam(ctx.params, 'id', def.label, '選んで');
    const template = await findOr404(def, id, `${def.label}（ID ${id}）が見つかりません。削除された可能性があります。`);
    const target = mailTargetOf(template[columnOf(def, 'target')]) ?? 'client';
    requireRead(ctx, clientResource.area);
    let order: ResourceRow | undefined;
    let billing: ResourceRow | undefined;
    let clientId: number;
    if (target === 'order') {
      requireRead(ctx, orderResource.area);
      order = await orderOf(ctx.params);
      clientId = Number(order[columnOf(orderResource, 'cl_id')]);
    } else if (target === 'billing') {
      requireRead(ctx, billingResource.area);
      billing = await billingOf(ctx.params);
      clientId = Number(billing[columnOf(billingResource, 'cl_id')]);
    } else {
      clientId = idParam(ctx.params, 'cl_id', '顧客', '選んで');
    }
    const client = await findOr404(clientResource, clientId, `顧客（ID ${clientId}）が見つかりません。`);
    const { name: companyName } = await companySettings(db, config.companyName);
    const mail = renderMail(
      { subject: String(template[columnOf(def, 'subject')] ?? ''), body: String(template[columnOf(def, 'body')] ?? '') },
      { client, order, billing, senderName: ctx.user.user_name, companyName, today: japanToday() },
    );
    return { id, clientId, order, billing, client, mail };
  }

  // Whether mail can be sent (any signed-in user: the screens disable their mail buttons with the reason).
  addCall(calls, 'mail_status', {
    handler: async () => {
      const problem = mailProblem(config.smtp) ?? '';
      const answer: MailStatus = { ready: problem === '', problem };
      return [answer];
    },
  });

  addCall(calls, 'mailtemplate_preview', {
    handler: async (ctx) => {
      const { mail, client, clientId, order, billing } = await compose(ctx);
      return [{
        ...mail, cl_id: clientId, od_id: order ? Number(order[columnOf(orderResource, 'id')]) : null,
        od_number: order ? String(order[columnOf(orderResource, 'number')] ?? '') : null,
        bl_id: billing ? Number(billing[columnOf(billingResource, 'id')]) : null,
        bl_number: billing ? String(billing[columnOf(billingResource, 'number')] ?? '') : null,
        email: String(client[columnOf(clientResource, 'email')] ?? ''),
      }];
    },
  });

  addCall(calls, 'mailtemplate_send', {
    handler: async (ctx) => {
      assertMailReady(config.smtp);
      const checked = v.safeParse(recipientSchema, ctx.params.to ?? '');
      if (!checked.success) throw paramProblem('to', checked.issues[0].message);
      const to = String(checked.output);
      const { id, clientId, order, billing, mail } = await compose(ctx);
      if (mail.unknown.length) throw badRequest(`テンプレートに使用できない差し込み項目があります: ${mail.unknown.map(placeholderText).join('、')}。テンプレートを直してから送信してください。`);
      await sendMail(config.smtp, { to, subject: mail.subject, text: mail.body, fromName: (await companySettings(db, config.companyName)).name });
      const changes: Changes = { to: [null, to], subject: [null, mail.subject], cl_id: [null, clientId] };
      if (order) changes.od_number = [null, String(order[columnOf(orderResource, 'number')] ?? '')];
      if (billing) changes.bl_number = [null, String(billing[columnOf(billingResource, 'number')] ?? '')];
      await writeAudit(db, { userId: ctx.user.user_id, call: ctx.call, table: def.table, recordId: id, changes });
      return [{ sent: true, to, subject: mail.subject }];
    },
  });
}
