/**
 * 締切 (`closing_run`, a job): a group's month closed in ONE transaction — the `closing` row, one invoice per billing
 * customer the plan issues (server/closing/plan.ts, the preview's own computation), their rows per rate, and every slip
 * and payment the invoices took stamped with its invoice (`sl_bli_id`, `py_bli_id`, read by the plan's own conditions
 * and written by id; the stamp changes neither the row's `modified` nor its audit trail: like 売掛残高 it is closing's
 * fact, undone exactly by the restore).
 *
 * The invoices are written through the one write path (`saveBatch` of the `billing` resource, as the system: its users
 * cannot create invoices): numbers (`BL{yyyy}{mm}-{id:6}`), the job's id (`bl_job_id`) and one audit row each, as
 * every write. The closing takes the closing lock exclusively (server/closing/closed.ts): a slip or payment being
 * saved meanwhile waits and is then refused in the closed period, and two closings never run side by side; under it the
 * refusals are checked again (another process may have closed the month since the call was answered).
 */
import { sql, type Transaction } from 'kysely';
import type { ClosingRunResult } from '../../lib/closing/answers';
import type { ClosingPeriod } from '../../lib/closing/period';
import { billingResource } from '../../lib/resources/billing';
import { writeAudit } from '../audit/audit-log';
import { chunksOf, deferKeywordIndexing, insertMany, mergeDeferredKeywordIndexes, updateIntegersEach } from '../db/bulk-write';
import { serialize } from '../db/concurrency';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { refusalOf, saveBatch, type BulkEntry, type WriteContext } from '../resources';
import { CLOSING_LOCK } from './closed';
import { closingPlan, closingRefusal, groupOf, takenOf, type PlannedInvoice } from './plan';

/** An invoice as the billing resource's save takes it: every column is the closing's own (`fixed`). */
const entryOf = (period: ClosingPeriod, clsId: number, invoice: PlannedInvoice): BulkEntry => {
  const { row } = invoice;
  return {
    values: {},
    fixed: {
      bl_cl_id: row.cl_id, bl_cls_id: clsId, bl_name: row.name, bl_sime_gp: period.sime_gp, bl_sime_ym: period.sime_ym,
      bl_closing_date: period.closing_date, bl_period_from: row.period_from, bl_period_to: row.period_to,
      bl_prev_total: row.prev_total, bl_paid: row.paid, bl_carry: row.carry, bl_sales_net: row.sales_net, bl_tax_total: row.tax_total,
      bl_total: row.total, bl_due_date: invoice.due_date, bl_allocated: 0, bl_open: row.total, bl_print_count: 0, bl_reissued: '',
    },
  };
};

/**
 * Stamps the slips or payments the plan took (`takenOf`: the same conditions) with their billing customer's invoice of
 * the closing: their ids read per customer, then updated by id (`updateIntegersEach`: the primary key, whatever the
 * statistics say of the rows just written). Answers how many. Under the closing lock nothing can join or leave that set
 * since the plan read it: a count that differs from the plan's is refused (409) and the closing rolls back.
 */
async function stampTaken(trx: Transaction<Database>, period: ClosingPeriod, invoiceOf: ReadonlyMap<number, number>, table: 'sales' | 'payment', planned: number): Promise<number> {
  const [id, column] = table === 'sales' ? ['s.sl_id', 'sl_bli_id'] : ['p.py_id', 'py_bli_id'];
  const taken = takenOf(trx, table, period.to);
  const { rows } = await sql<{ id: number; top_id: number }>`${groupOf(period.sime_gp)}
    SELECT ${sql.ref(id)} AS id, grp.top_id FROM grp ${taken.from} WHERE ${taken.where}`.execute(trx);
  if (rows.length !== planned) throw new ApiError(409, `締め処理の途中で${table === 'sales' ? '売上伝票' : '入金伝票'}が変わりました（${planned}件のはずが${rows.length}件）。もう一度実行してください。`);
  await updateIntegersEach(trx, table, table === 'sales' ? 'sl_id' : 'py_id', new Map(rows.map((r) => [Number(r.id), { [column]: invoiceOf.get(Number(r.top_id))! }])));
  return rows.length;
}

/**
 * The customers' previous invoices are carried by the new ones (繰越, migration 0054): each new invoice's 前回請求額 holds
 * what the previous left unpaid, so the previous is settled by it — `bl_carried_by` the new invoice, 残額 0 — and only the
 * latest invoice stays open to 消込 and the open items. Written by id like the stamps (`updateIntegersEach`); the restore
 * undoes it (server/closing/restore.ts).
 */
async function carryPrevious(trx: Transaction<Database>, invoiceOf: ReadonlyMap<number, number>): Promise<void> {
  const carried = new Map<number, { bl_carried_by: number; bl_open: number }>();
  const issued = new Set(invoiceOf.values());
  for (const chunk of chunksOf([...invoiceOf.keys()], 1000)) {
    const rows = await trx.selectFrom('billing').select(['bl_id', 'bl_cl_id']).where('bl_cl_id', 'in', chunk).where('deleted', '=', 0).where('bl_carried_by', 'is', null).execute();
    for (const r of rows) if (!issued.has(Number(r.bl_id))) carried.set(Number(r.bl_id), { bl_carried_by: invoiceOf.get(Number(r.bl_cl_id))!, bl_open: 0 });
  }
  await updateIntegersEach(trx, 'billing', 'bl_id', carried);
}

/**
 * Closes a group's month (one transaction), reporting progress as the invoices are written.
 * @example await closingRun({ db, userId: 1, call: 'closing_run', jobId: 7 }, closingPeriod('20', '202505')) // { cls_id: 3, invoices: 412, total: 5120330 }
 */
export async function closingRun(
  ctx: WriteContext, period: ClosingPeriod, progress: (done: number, total: number) => Promise<void> = async () => undefined,
): Promise<ClosingRunResult> {
  try {
    const result = await ctx.db.transaction().execute(async (trx: Transaction<Database>) => {
      await serialize(trx, CLOSING_LOCK);
      await deferKeywordIndexing(trx);
      const plan = await closingPlan(trx, period);
      const refusal = await closingRefusal(trx, period, async () => plan);
      if (refusal) throw refusal;
      const { invoices } = plan;
      await progress(0, invoices.length);

      const stamp = nextStamp();
      const total = invoices.reduce((sum, i) => sum + i.row.total, 0);
      const [closing] = await insertMany(trx, 'closing', [{
        cls_sime_gp: period.sime_gp, cls_sime_ym: period.sime_ym, cls_closing_date: period.closing_date, cls_invoices: invoices.length, cls_total: total,
        cls_job_id: ctx.jobId ?? null, cls_usr_id: ctx.userId, cls_jaccs_at: '', cls_export_at: '', created: stamp, modified: stamp,
      }], ['cls_id']);
      const clsId = Number(closing.cls_id);

      const actor = { userId: ctx.userId, call: ctx.call, user: ctx.user, jobId: ctx.jobId, system: true };
      const { ids } = await saveBatch(trx, actor, billingResource, invoices.map((i) => entryOf(period, clsId, i)), { answer: false, progress });

      await insertMany(trx, 'billing_rate', invoices.flatMap((invoice, k) => invoice.row.rates.map((r): ResourceRow => ({
        blr_bl_id: ids[k], blr_key: r.key, blr_tax_class: r.tax_class, blr_rate: r.rate, blr_net: r.net, blr_tax: r.tax, blr_total: r.net + r.tax,
      }))));
      const invoiceOf = new Map(invoices.map((invoice, k) => [invoice.row.cl_id, ids[k]]));
      await carryPrevious(trx, invoiceOf);
      const slips = await stampTaken(trx, period, invoiceOf, 'sales', invoices.reduce((n, i) => n + i.slips, 0));
      const payments = await stampTaken(trx, period, invoiceOf, 'payment', invoices.reduce((n, i) => n + i.payments, 0));
      await writeAudit(trx, {
        userId: ctx.userId, call: ctx.call, table: 'closing', recordId: clsId, at: stamp, jobId: ctx.jobId,
        changes: {
          cls_sime_gp: [null, period.sime_gp], cls_sime_ym: [null, period.sime_ym], cls_closing_date: [null, period.closing_date],
          cls_invoices: [null, invoices.length], cls_total: [null, total], slips: [null, slips], payments: [null, payments],
        },
      });
      await progress(invoices.length, invoices.length);
      return { cls_id: clsId, invoices: invoices.length, total };
    });
    // The keyword indexes' pending entries of what the run wrote (the stamped slips' and payments' new row versions too).
    if (result.invoices > 0) void mergeDeferredKeywordIndexes(ctx.db, ['billing', 'audit_log', 'sales', 'payment']).catch(() => undefined);
    return result;
  } catch (error) {
    throw refusalOf(error);
  }
}
