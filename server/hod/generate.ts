/**
 * 定期配送の受注生成: the regular deliveries due in a range (the engine, via `dueByClient`) become
 * orders, in ONE transaction for the run (all or nothing; the audit rows with it). The orders are saved through
 * the order's one write path as a batch (`saveBatch`: its validation, its policy — shipping address, warehouse,
 * time slot, the line's price, tax and totals, the number —, its lines and audit rows), for the customer's regular
 * item (`haiso_item`, else the first live returnable item) × the scheduled bottles, delivered on the
 * delivery's (moved) day, 未処理 — or 保留 with the reason when the credit limit would be passed, counting
 * the orders the run created before it for the same customer (`creditHoldReason`).
 * A customer gets at most one live generated order per scheduled day (`od_hod_date`; checked here, and
 * a unique index of migration 0011 stands behind it), so running a range twice creates nothing twice;
 * runs at the same time take turns, so the later one finds the earlier one's orders.
 * Skipped deliveries create nothing. `next_shipping_date` advances to the engine's anchor after the range
 * (never back).
 *
 * The run reads what it needs in a handful of queries; the batch checks and writes in set-based statements
 * (`bench/hod-month.ts`: a month for 20,000 customers). Run as a job, every row it writes carries the job's id.
 */
import type { Transaction } from 'kysely';
import type { HodGenerateResult } from '../../lib/hod/kinds';
import type { DueDelivery } from '../../lib/hod/schedule';
import { orderResource } from '../../lib/resources/order';
import { diff, preparedAudits, type AuditEntry } from '../audit/audit-log';
import { serialize } from '../db/concurrency';
import { deferKeywordIndexing, mergeDeferredKeywordIndexes, rowsByIds, updateTextEach } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { refusalOf, saveBatch, type BulkEntry, type WriteContext } from '../resources';
import { japanToday, nextStamp } from '../http/clock';
import { dueByClient, type ClientDue } from './preview';

/** The first live returnable item (by code), the regular item of customers who chose none. */
async function defaultItem(trx: Transaction<Database>): Promise<number | null> {
  const row = await trx.selectFrom('item').select('it_id').where('deleted', '=', 0).where('it_returnable', '=', 1).orderBy('it_code').orderBy('it_id').executeTakeFirst();
  return row ? row.it_id : null;
}

/** The (customer, scheduled day) pairs that already have a live generated order in the range. */
async function generatedKeys(trx: Transaction<Database>, from: string, to: string): Promise<Set<string>> {
  const rows = await trx.selectFrom('orders').select(['od_cl_id', 'od_hod_date'])
    .where('deleted', '=', 0).where('od_hod_date', '>=', from).where('od_hod_date', '<=', to).execute();
  return new Set(rows.map((r) => keyOf(r.od_cl_id, r.od_hod_date)));
}

const keyOf = (clientId: number, hodDate: string): string => `${clientId}|${hodDate}`;

/**
 * How many of the run's new orders the order's rules held (保留) past the credit limit: one count over the range of
 * their ids. Only generated orders have a scheduled day (`od_hod_date`), and runs take turns, so the range's generated
 * orders of these days are the run's own.
 */
async function heldAmong(trx: Transaction<Database>, ids: readonly number[], from: string, to: string): Promise<number> {
  if (ids.length === 0) return 0;
  const [first, last] = ids.reduce(([lo, hi], id) => [Math.min(lo, id), Math.max(hi, id)], [ids[0], ids[0]]);
  const row = await trx.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('held'))
    .where('od_id', '>=', first).where('od_id', '<=', last).where('deleted', '=', 0)
    .where('od_status', '=', 'pending').where('od_hod_date', '>=', from).where('od_hod_date', '<=', to).executeTakeFirstOrThrow();
  return row.held;
}

/** One order the run creates. */
interface Planned {
  client: ClientDue;
  delivery: DueDelivery;
  item: number;
}

/**
 * A planned order as the order's save takes it: the customer, today's date, 未処理, the delivery's (moved) day,
 * a note naming the scheduled day, one line of the regular item × the scheduled bottles; the scheduled day is
 * the run's own fact (`fixed`), which also tells the order's rules to hold it past the credit limit.
 */
const entryOf = (plan: Planned, orderDate: string): BulkEntry => ({
  values: {
    cl_id: plan.client.cl_id,
    date: orderDate,
    status: 'untreated',
    delivery_date: plan.delivery.date,
    biko: plan.delivery.note ? `定期配送（予定日 ${plan.delivery.original_date}・${plan.delivery.note}）` : `定期配送（予定日 ${plan.delivery.original_date}）`,
    lines: [{ it_id: plan.item, quantity: plan.delivery.quantity }],
  },
  fixed: { od_hod_date: plan.delivery.original_date },
});

/** A refused order, naming the customer and the delivery (the run creates nothing then). */
function aboutDelivery(plan: Planned, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  return badRequest(`${plan.client.label}（予定日 ${plan.delivery.original_date}）の受注を作成できません。${error.message} 受注は1件も作成していません。`, error.extra);
}

/** Where a run reports how many of its orders it has built (`done` of `total`); a throw stops the run, which then rolls back. */
export type GenerateProgress = (done: number, total: number) => Promise<void>;

/**
 * Creates the orders of the regular deliveries due from `from` to `to` (one transaction), reporting progress between
 * its chunks (`progress`: the `hod_generate` job, server/jobs); answers the counts. `awaitIndexes` waits for the keyword
 * indexes' merge (a first-start seed that closes the database after it).
 * @example await hodGenerate(ctx, '2026-05-11', '2026-05-17') // { created: 12, existed: 0, held: 1, … }
 */
export async function hodGenerate(
  ctx: WriteContext, from: string, to: string,
  { awaitIndexes = false, progress = async () => undefined, chunk }: { awaitIndexes?: boolean; progress?: GenerateProgress; chunk?: number } = {},
): Promise<HodGenerateResult> {
  const orderDate = japanToday();
  try {
    const result = await ctx.db.transaction().execute(async (trx) => {
      // Runs take turns: one that read before another committed would make its orders again (refused
      // by the unique index) or move next_shipping_date back over the other's.
      await serialize(trx, 'hod_generate');
      await deferKeywordIndexing(trx);
      const [due, existing, fallbackItem] = await Promise.all([dueByClient(trx, from, to), generatedKeys(trx, from, to), defaultItem(trx)]);
      const answer: HodGenerateResult = { from, to, created: 0, existed: 0, held: 0, skipped: 0, advanced: 0, orders: [] };
      const planned: Planned[] = [];
      for (const client of due) {
        for (const delivery of client.result.deliveries) {
          if (delivery.status !== 'deliver' || delivery.quantity <= 0) answer.skipped++;
          else if (existing.has(keyOf(client.cl_id, delivery.original_date))) answer.existed++;
          else {
            const item = client.item ?? fallbackItem;
            if (item === null) throw badRequest('定期配送の商品がありません。顧客の「定期配送商品」を選ぶか、リターナブルボトルの商品を登録してください。');
            planned.push({ client, delivery, item });
          }
        }
      }
      const advancing = due.filter((c) => c.result.next_shipping_date && c.stored_next < c.result.next_shipping_date);
      const clients = await rowsByIds(trx, 'client', 'cl_id', advancing.map((c) => c.cl_id), ['cl_id', 'cl_next_shipping_date', 'modified']);
      await progress(0, planned.length);

      // next_shipping_date moves forward (never back), audit-logged. The customers' UPDATE starts now: on PostgreSQL the
      // database updates them while JavaScript validates the orders. Their audit rows go with the batch's writes
      // (`alongside`), after its checks have read. Both are waited for before anything is answered or thrown, so nothing
      // touches the transaction once it ends.
      const clientStamp = nextStamp(advancing.reduce((max, c) => (String(clients.get(c.cl_id)!.modified) > max ? String(clients.get(c.cl_id)!.modified) : max), nextStamp()));
      const moved = updateTextEach(trx, 'client', 'cl_id', new Map(advancing.map((c) => [c.cl_id, { cl_next_shipping_date: String(c.result.next_shipping_date), modified: clientStamp }])));
      const audits = preparedAudits(trx, advancing.map((c): AuditEntry => ({
        userId: ctx.userId, call: ctx.call, table: 'client', recordId: c.cl_id, at: clientStamp, jobId: ctx.jobId,
        changes: diff(clients.get(c.cl_id), { cl_next_shipping_date: String(c.result.next_shipping_date) }),
      })));

      // The orders, through the order's one write path as a batch (its rules, lines, numbers, audit rows).
      const [batch, advance] = await Promise.allSettled([
        saveBatch(trx, ctx, orderResource, planned.map((plan) => entryOf(plan, orderDate)), { answer: false, progress, chunk, name: (i, error) => aboutDelivery(planned[i], error), alongside: [audits] }),
        moved,
      ]);
      if (batch.status === 'rejected') throw batch.reason;
      if (advance.status === 'rejected') throw advance.reason;
      const { ids } = batch.value;
      answer.advanced = advancing.length;
      answer.orders = ids;
      // The rows are written: a cancel asked meanwhile still rolls the run back.
      await progress(planned.length, planned.length);
      answer.held = await heldAmong(trx, ids, from, to);
      answer.created = planned.length;
      return answer;
    });
    // In the background, once something was written: the answer does not wait, and a failure leaves the
    // entries for autovacuum.
    if (result.created > 0 || result.advanced > 0) {
      const merged = mergeDeferredKeywordIndexes(ctx.db, ['orders', 'audit_log', 'client']).catch(() => undefined);
      if (awaitIndexes) await merged;
    }
    return result;
  } catch (error) {
    throw refusalOf(error);
  }
}
