/**
 * The invoice download page (請求書ダウンロードページ): outside the staff login, a customer reaches its own invoices —
 * the archived versions (server/billing/archive.ts), as they left — through a link with a long random token.
 * - A link belongs to one customer and expires (`LINK_DAYS` after it was made); each invoice mailed with a link makes a
 *   new one, so the newest mail's link always works for the whole period. Only the token's SHA-256 is stored: a copy of
 *   the database opens no page. `billing_link` makes one for staff to resend, `billing_link_revoke` ends them all.
 * - `GET /invoices/{token}`: the customer's versions, newest first (a 取消 one marked, a 修正 one naming the invoice it
 *   corrects); `GET /invoices/{token}/{ar_id}`: that version's stored bytes, recorded as a delivery (`page`, the
 *   address). Another customer's version, a revoked or expired link, an unknown token: a short Japanese page and
 *   nothing else.
 * - Its own rate limit per address (`PAGE_LIMIT` answers a minute, per server process) and its own policy: no script,
 *   its one style by hash, nothing framed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { formatDateJa, formatMoney } from '../../lib/format';
import { addDays } from '../../lib/day';
import { writeAudit } from '../audit/audit-log';
import type { Database } from '../db/schema';
import { fileStream } from '../files';
import { japanToday, nowIso, nowMs } from '../http/clock';
import { contentDisposition } from '../http/file-reply';
import { CANCELLED, recordDeliveries } from './archive';
import { companySettings } from './invoice-document';

type Db = Kysely<Database>;

/** Days a link works from when it was made. */
export const LINK_DAYS = 60;
/** Answers one address may get from the page in a minute (per server process). */
export const PAGE_LIMIT = 60;
/** Where the page lives. */
export const PAGE_PATH = '/invoices';

export const PAGE_MESSAGES = {
  unknown: 'このリンクは無効です。お手数ですが、請求書をお送りした担当者にお問い合わせください。',
  expired: 'このリンクは有効期限が切れています。お手数ですが、請求書をお送りした担当者に新しいリンクをお問い合わせください。',
  revoked: 'このリンクは無効になりました。お手数ですが、請求書をお送りした担当者にお問い合わせください。',
  notFound: 'この請求書はこのリンクからは開けません。',
  tooMany: 'アクセスが集中しています。しばらく待ってからもう一度お試しください。',
} as const;

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Who makes or ends a link, through which call (the audit row's). */
export interface LinkActor {
  userId: number;
  call: string;
  jobId?: number;
}

/**
 * A new link of the customer's, audited on the customer: its token (43 URL-safe characters, 256 random bits), URL and
 * last day.
 * @example const { url, expires } = await makeLink(db, 'https://billing.example.jp', 12, { userId: 1, call: 'billing_link' })
 */
export async function makeLink(db: Db, publicUrl: string, clientId: number, actor: LinkActor): Promise<{ url: string; expires: string }> {
  const token = randomBytes(32).toString('base64url');
  const expires = addDays(japanToday(), LINK_DAYS);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('invoice_link').values({ il_cl_id: clientId, il_token_hash: hashOf(token), il_expires: expires, il_usr_id: actor.userId, created: nowIso() }).execute();
    await writeAudit(trx, { userId: actor.userId, call: actor.call, jobId: actor.jobId, table: 'client', recordId: clientId, changes: { invoice_link: [null, `${expires}まで有効`] } });
  });
  return { url: `${publicUrl}${PAGE_PATH}/${token}`, expires };
}

/**
 * Ends every live link of the customer, audited on the customer; answers how many.
 * @example await revokeLinks(db, 12, { userId: 1, call: 'billing_link_revoke' }) // 2
 */
export async function revokeLinks(db: Db, clientId: number, actor: LinkActor): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('invoice_link').set({ il_revoked_at: nowIso(), il_revoked_by: actor.userId })
      .where('il_cl_id', '=', clientId).where('il_revoked_at', '=', '').executeTakeFirst();
    const revoked = Number(result.numUpdatedRows);
    if (revoked > 0) await writeAudit(trx, { userId: actor.userId, call: actor.call, table: 'client', recordId: clientId, changes: { invoice_link: [`${revoked}件有効`, '無効'] } });
    return revoked;
  });
}

type LinkState = { ok: true; clientId: number } | { ok: false; status: number; message: string };

/** Whose link a token is, or why it opens nothing. */
async function linkOf(db: Db, token: string): Promise<LinkState> {
  if (!/^[\w-]{43}$/.test(token)) return { ok: false, status: 404, message: PAGE_MESSAGES.unknown };
  const link = await db.selectFrom('invoice_link').selectAll().where('il_token_hash', '=', hashOf(token)).executeTakeFirst();
  if (!link) return { ok: false, status: 404, message: PAGE_MESSAGES.unknown };
  if (link.il_revoked_at) return { ok: false, status: 410, message: PAGE_MESSAGES.revoked };
  if (link.il_expires < japanToday()) return { ok: false, status: 410, message: PAGE_MESSAGES.expired };
  return { ok: true, clientId: link.il_cl_id };
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

const STYLE = 'body{font-family:sans-serif;margin:2rem auto;max-width:48rem;padding:0 1rem;color:#1f2933}'
  + 'h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d9e2ec;padding:.5rem;text-align:left}'
  + 'td.n{text-align:right;font-variant-numeric:tabular-nums}.x{color:#b00020}p.m{font-size:1.1rem}';
/** The page's policy: nothing but its one style (by hash); no script, no frame, no form. */
const PAGE_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'none'; `
  + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply.code(status).header('content-security-policy', PAGE_POLICY).header('cache-control', 'no-store').header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`);
}

const messagePage = (reply: FastifyReply, status: number, message: string): FastifyReply =>
  page(reply, status, '請求書ダウンロード', `<p class="m">${escapeHtml(message)}</p>`);

/** The per-address answer counts of this process in the current minute. */
function pageLimiter(): (address: string) => boolean {
  let minute = 0;
  let counts = new Map<string, number>();
  return (address) => {
    const now = Math.floor(nowMs() / 60_000);
    if (now !== minute) {
      minute = now;
      counts = new Map();
    }
    const n = (counts.get(address) ?? 0) + 1;
    counts.set(address, n);
    return n <= PAGE_LIMIT;
  };
}

/** Registers the page's two routes on the server (outside the call API: no auth key, the token is the key). */
export function downloadPage(app: FastifyInstance, db: Db, reader: Db, fallbackName: string): void {
  const allowed = pageLimiter();
  const opened = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply): Promise<number | FastifyReply> => {
    if (!allowed(request.ip)) return messagePage(reply, 429, PAGE_MESSAGES.tooMany);
    const link = await linkOf(db, request.params.token);
    return link.ok ? link.clientId : messagePage(reply, link.status, link.message);
  };

  app.get<{ Params: { token: string } }>(`${PAGE_PATH}/:token`, async (request, reply) => {
    const clientId = await opened(request, reply);
    if (typeof clientId !== 'number') return clientId;
    const [versions, company, client] = await Promise.all([
      db.selectFrom('invoice_archive').select(['ar_id', 'ar_number', 'ar_date', 'ar_amount', 'ar_state', 'ar_replaces_number', 'ar_cl_name'])
        .where('ar_cl_id', '=', clientId).orderBy('ar_date', 'desc').orderBy('ar_id', 'desc').execute(),
      companySettings(db, fallbackName),
      db.selectFrom('client').select(['cl_co_name', 'cl_name']).where('cl_id', '=', clientId).executeTakeFirst(),
    ]);
    const name = client?.cl_co_name || client?.cl_name || versions[0]?.ar_cl_name || '';
    const rows = versions.map((v) => {
      const state = v.ar_state === CANCELLED ? '<span class="x">取消</span>' : v.ar_replaces_number ? `修正（${escapeHtml(v.ar_replaces_number)} を訂正）` : '';
      return `<tr><td>${escapeHtml(v.ar_number ?? '')}</td><td>${escapeHtml(formatDateJa(v.ar_date ?? ''))}</td><td class="n">${escapeHtml(formatMoney(v.ar_amount ?? 0))}</td>`
        + `<td>${state}</td><td><a href="${PAGE_PATH}/${encodeURIComponent(request.params.token)}/${v.ar_id}">PDF</a></td></tr>`;
    }).join('');
    const table = versions.length === 0
      ? '<p>まだ請求書はありません。</p>'
      : `<table><caption>請求書</caption><thead><tr><th>請求番号</th><th>締め日</th><th>ご請求金額</th><th>状態</th><th>ダウンロード</th></tr></thead><tbody>${rows}</tbody></table>`;
    return page(reply, 200, `${company.name} 請求書ダウンロード`,
      `<h1>${escapeHtml(company.name)} 請求書ダウンロード</h1><p>${escapeHtml(name)} 様の請求書です。</p>${table}`);
  });

  app.get<{ Params: { token: string; id: string } }>(`${PAGE_PATH}/:token/:id`, async (request, reply) => {
    const clientId = await opened(request, reply);
    if (typeof clientId !== 'number') return clientId;
    const id = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : 0;
    const version = id > 0
      ? await db.selectFrom('invoice_archive').selectAll().where('ar_id', '=', id).where('ar_cl_id', '=', clientId).executeTakeFirst()
      : undefined;
    if (!version) return messagePage(reply, 404, PAGE_MESSAGES.notFound);
    await db.transaction().execute((trx) => recordDeliveries(trx, { userId: null }, [{ ar_id: version.ar_id, how: 'page', to: request.ip }]));
    const name = version.ar_file_name ?? 'invoice.pdf';
    return reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'").header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(name, `invoice_${String(version.ar_id)}.pdf`))
      .header('content-length', String(version.ar_size ?? 0)).type('application/pdf')
      .send(fileStream(reader, Number(version.ar_sf_id)));
  });
}
