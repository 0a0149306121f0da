/**
 * 締め戻し (`closing_restore`) and the closings list (`closing_lst`): the latest closing of a group is undone exactly —
 * its invoices (deleted for real: the database then holds what it held before the closing, apart from the audit log,
 * the job rows and the invoice archive, where each issued invoice stays, marked 取消 with who, when and why), their
 * rows per rate and mail log, the stamps of its slips and payments, and the closing row — in
 * one transaction under the closing lock, audited (one row per invoice and one for the closing).
 *
 * Refused, with the reason (`restoreRefusals`, which the list shows too, with what blocks each named and linked): a
 * later closing of the group exists (undo the latest first); payments are allocated to its invoices (消込: each invoice
 * and payment); a direct-debit request (`cls_jaccs_at`: its files) or an accounting export (`cls_export_at`: the
 * exports overlapping its period) was made from it.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ClosingListRow, ClosingRestoreResult, RestoreBlocker } from '../../lib/closing/answers';
import { closingLabel, closingPeriod, type ClosingPeriod } from '../../lib/closing/period';
import { monthLabel } from '../../lib/format';
import { formatDateTime, formatMoney } from '../../lib/format';
import { detailPathOf } from '../../lib/list/resource-paths';
import { billingResource } from '../../lib/resources/billing';
import { paymentResource } from '../../lib/resources/payment';
import { writeAudit, writeAudits } from '../audit/audit-log';
import { deferKeywordIndexing, mergeDeferredKeywordIndexes } from '../db/bulk-write';
import { locking, serialize } from '../db/concurrency';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { refusalOf, type WriteContext } from '../resources';
import { cancelVersions } from '../billing';
import { CLOSING_LOCK } from './closed';

type Db = Kysely<Database>;

/** Where the files made from a closing are listed: the 口座振替 requests, the 会計連携 exports. */
const JACCS_PATH = '/system/jaccs';
const YAYOI_PATH = '/system/export?tab=yayoi';

/** At most this many allocations are named in a refusal's text (all of them are in its blockers). */
const NAMED_MAX = 5;

/** Why a closing may not be restored (Japanese), and what stands in the way, each named with its link. */
export interface RestoreRefusal {
  message: string;
  blockers: RestoreBlocker[];
}

/**
 * Why each closing may not be restored, or null: by closing id. A later closing of the group comes first (alone); else
 * every reason at once, each naming what blocks: the invoices and the payments allocated to them (消込), the 口座振替
 * request files made from it (`jaccs_request`), the 会計連携 exports whose period overlaps it (`accounting_export`).
 * @example (await restoreRefusals(db, [row])).get(3)?.message // '請求書に入金の消込があるため締め戻しできません（請求書 BL202505-000007 ← 入金 2025-06-01 1,000円）。…'
 */
export async function restoreRefusals(db: Db, closings: readonly ResourceRow[]): Promise<Map<number, RestoreRefusal | null>> {
  const out = new Map<number, RestoreRefusal | null>();
  if (closings.length === 0) return out;
  const ids = closings.map((c) => Number(c.cls_id));
  const [latest, allocated, requests, exports] = await Promise.all([
    db.selectFrom('closing').select(['cls_sime_gp', (eb) => eb.fn.max<string>('cls_sime_ym').as('ym')]).groupBy('cls_sime_gp').execute(),
    db.selectFrom('allocation').innerJoin('billing', 'billing.bl_id', 'allocation.al_bl_id').innerJoin('payment', 'payment.py_id', 'allocation.al_py_id')
      .select(['bl_cls_id', 'bl_id', 'bl_number', 'py_id', 'py_date', 'al_amount']).where('bl_cls_id', 'in', ids).orderBy('bl_id').orderBy('py_date').orderBy('py_id').execute(),
    db.selectFrom('jaccs_request').select(['jr_cls_id', 'jr_id', 'jr_file_name']).where('jr_cls_id', 'in', ids).orderBy('jr_id').execute(),
    closings.some((c) => c.cls_export_at)
      ? db.selectFrom('accounting_export').select(['ae_id', 'ae_from', 'ae_to']).orderBy('ae_id').execute()
      : Promise.resolve([]),
  ]);
  const latestOf = new Map(latest.map((r) => [r.cls_sime_gp, r.ym]));
  for (const c of closings) {
    const id = Number(c.cls_id);
    const gp = String(c.cls_sime_gp);
    const last = latestOf.get(gp) ?? '';
    if (last > String(c.cls_sime_ym)) {
      out.set(id, { message: `あとの ${closingLabel(gp, last)}の締め処理があるため締め戻しできません。新しい月から順に締め戻してください。`, blockers: [] });
      continue;
    }
    const reasons: string[] = [];
    const blockers: RestoreBlocker[] = [];
    const allocations = allocated.filter((a) => Number(a.bl_cls_id) === id);
    if (allocations.length > 0) {
      const named = allocations.slice(0, NAMED_MAX).map((a) => `請求書 ${a.bl_number} ← 入金 ${a.py_date} ${formatMoney(a.al_amount)}`);
      const more = allocations.length > NAMED_MAX ? `ほか${allocations.length - NAMED_MAX}件` : '';
      reasons.push(`請求書に入金の消込があるため締め戻しできません（${named.join('、')}${more}）。先に消込を取り消してください。`);
      for (const a of allocations) {
        if (!blockers.some((b) => b.link === detailPathOf(billingResource, a.bl_id))) {
          blockers.push({ kind: 'invoice', label: `請求書 ${a.bl_number}`, link: detailPathOf(billingResource, a.bl_id) });
        }
        blockers.push({ kind: 'payment', label: `入金 ${a.py_date} ${formatMoney(a.al_amount)}`, link: detailPathOf(paymentResource, a.py_id) });
      }
    }
    if (c.cls_jaccs_at) {
      const files = requests.filter((r) => r.jr_cls_id === id).map((r) => r.jr_file_name);
      reasons.push(`口座振替の請求データを作成済み（${formatDateTime(String(c.cls_jaccs_at))}）のため締め戻しできません${files.length ? `（${files.join('、')}）` : ''}。`);
      blockers.push(...files.map((file): RestoreBlocker => ({ kind: 'file', label: file, link: JACCS_PATH })));
    }
    if (c.cls_export_at) {
      const from = closingPeriod(gp, String(c.cls_sime_ym)).from;
      const files = exports.filter((e) => e.ae_from <= String(c.cls_closing_date) && e.ae_to >= from)
        .map((e) => `会計連携（弥生）の出力番号 ${String(e.ae_id)}（${e.ae_from}〜${e.ae_to}）`);
      reasons.push(`会計データを出力済み（${formatDateTime(String(c.cls_export_at))}）のため締め戻しできません${files.length ? `（${files.join('、')}）` : ''}。`);
      blockers.push(...files.map((file): RestoreBlocker => ({ kind: 'file', label: file, link: YAYOI_PATH })));
    }
    out.set(id, reasons.length > 0 ? { message: reasons.join(''), blockers } : null);
  }
  return out;
}

/**
 * The closings, latest first (of one group when `gp` is given), with who closed and whether each may be restored.
 * @example await closingList(db, '20') // [{ cls_id: 3, sime_gp: '20', sime_ym: '202505', invoices: 412, restorable: true, refusal: null, … }]
 */
export async function closingList(db: Db, gp?: string): Promise<ClosingListRow[]> {
  let query = db.selectFrom('closing').leftJoin('user', 'user.user_id', 'closing.cls_usr_id')
    .select(['cls_id', 'cls_sime_gp', 'cls_sime_ym', 'cls_closing_date', 'cls_invoices', 'cls_total', 'cls_jaccs_at', 'cls_export_at', 'closing.created', 'user_name']);
  if (gp !== undefined) query = query.where('cls_sime_gp', '=', gp);
  const rows = await query.orderBy('cls_closing_date', 'desc').orderBy('cls_id', 'desc').execute();
  const refusals = await restoreRefusals(db, rows);
  return rows.map((r) => {
    const refusal = refusals.get(r.cls_id) ?? null;
    return {
      cls_id: r.cls_id, sime_gp: r.cls_sime_gp, sime_ym: r.cls_sime_ym, closing_date: r.cls_closing_date,
      invoices: r.cls_invoices, total: r.cls_total, created: r.created, user_name: (r.user_name ?? ''),
      restorable: refusal === null, refusal: refusal?.message ?? null, blockers: refusal?.blockers ?? [],
    };
  });
}

/**
 * Undoes a group's closing of a month (the latest of the group), exactly; answers what it undid.
 * @example await closingRestore({ db, userId: 1, call: 'closing_restore' }, closingPeriod('20', '202505')) // { cls_id: 3, invoices: 412, slips: 3120, payments: 380, … }
 */
export async function closingRestore(ctx: WriteContext, period: ClosingPeriod, reason = ''): Promise<ClosingRestoreResult> {
  try {
    const result = await ctx.db.transaction().execute(async (trx: Transaction<Database>) => {
      await serialize(trx, CLOSING_LOCK);
      await deferKeywordIndexing(trx);
      const closing = await locking(trx, trx.selectFrom('closing').selectAll()
        .where('cls_sime_gp', '=', period.sime_gp).where('cls_sime_ym', '=', period.sime_ym), 'update').executeTakeFirst();
      if (!closing) {
        const message = `${closingLabel(period.sime_gp, period.sime_ym)}は締め処理されていません（${monthLabel(period.sime_ym)}の締め処理がありません）。`;
        throw new ApiError(400, message, { fields: { sime_ym: message } });
      }
      const clsId = closing.cls_id;
      const refusal = (await restoreRefusals(trx, [closing])).get(clsId);
      if (refusal) throw new ApiError(409, refusal.message, { blockers: refusal.blockers });

      const invoices = await trx.selectFrom('billing').select(['bl_id', 'bl_number', 'bl_cl_id', 'bl_total']).where('bl_cls_id', '=', clsId).orderBy('bl_id').execute();
      // Issued invoices stay in the archive, cancelled (電子帳簿保存法); the working rows below go as before.
      const cancelled = await cancelVersions(trx, { userId: ctx.userId, call: ctx.call }, invoices.map((b) => b.bl_id),
        reason || `${closingLabel(period.sime_gp, period.sime_ym)}の締め戻し`);
      const ofClosing = sql`(SELECT bl_id FROM billing WHERE bl_cls_id = ${clsId})`;
      const slips = await sql`UPDATE sales SET sl_bli_id = NULL WHERE sl_bli_id IN ${ofClosing}`.execute(trx);
      const payments = await sql`UPDATE payment SET py_bli_id = NULL WHERE py_bli_id IN ${ofClosing}`.execute(trx);
      await sql`DELETE FROM billing_send WHERE bs_bl_id IN ${ofClosing}`.execute(trx);
      await sql`DELETE FROM billing_rate WHERE blr_bl_id IN ${ofClosing}`.execute(trx);
      // The invoices these carried (繰越, migration 0054) are the customers' latest again: open by what is allocated to them.
      await sql`UPDATE billing SET bl_carried_by = NULL, bl_open = bl_total - bl_allocated WHERE bl_carried_by IN ${ofClosing}`.execute(trx);
      await trx.deleteFrom('billing').where('bl_cls_id', '=', clsId).execute();
      await trx.deleteFrom('closing').where('cls_id', '=', clsId).execute();

      const stamp = nextStamp();
      const counts = { slips: Number(slips.numAffectedRows ?? 0), payments: Number(payments.numAffectedRows ?? 0) };
      await writeAudits(trx, invoices.map((b) => ({
        userId: ctx.userId, call: ctx.call, table: 'billing', recordId: b.bl_id, at: stamp,
        changes: { bl_number: [b.bl_number, null], bl_cl_id: [b.bl_cl_id, null], bl_total: [b.bl_total, null] },
      })));
      await writeAudit(trx, {
        userId: ctx.userId, call: ctx.call, table: 'closing', recordId: clsId, at: stamp,
        changes: {
          cls_sime_gp: [closing.cls_sime_gp, null], cls_sime_ym: [closing.cls_sime_ym, null], cls_closing_date: [closing.cls_closing_date, null],
          cls_invoices: [closing.cls_invoices, null], cls_total: [closing.cls_total, null], slips: [counts.slips, null], payments: [counts.payments, null],
        },
      });
      return { cls_id: clsId, sime_gp: period.sime_gp, sime_ym: period.sime_ym, invoices: invoices.length, ...counts, cancelled };
    });
    void mergeDeferredKeywordIndexes(ctx.db, ['sales', 'payment', 'audit_log']).catch(() => undefined);
    return result;
  } catch (error) {
    throw refusalOf(error);
  }
}
