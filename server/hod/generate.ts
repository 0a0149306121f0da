/**
 * 定期配送の受注生成: the regular deliveries due in a range (the engine, via `dueByClient`) become
 * orders, in ONE transaction for the run (all or nothing; the audit rows with it). Each order is built
 * exactly as a hand-entered one (`prepareSave`: the order's validation and columns; server/orders/pricing:
 * shipping address, warehouse, time slot, the line's price, tax and totals), for the customer's regular
 * item (`haiso_item`, else the first live returnable item) × the scheduled bottles, delivered on the
 * delivery's (moved) day, 未処理 — or 保留 with the reason when the credit limit would be passed, counting
 * the orders the run created before it for the same customer (`creditHoldReason`).
 * A customer gets at most one live generated order per scheduled day (`od_hod_date`; checked here, and
 * a unique index of migration 0011 stands behind it), so running a range twice creates nothing twice;
 * runs at the same time take turns, so the later one finds the earlier one's orders.
 * Skipped deliveries create nothing. `next_shipping_date` advances to the engine's anchor after the range
 * (never back).
 *
 * The run reads what it needs in a handful of queries and writes in multi-row statements
 * (server/db/bulk-write.ts): a month for 20,000 customers is a few seconds (`bench/hod-month.ts`).
 */
import type { Transaction } from 'kysely';
import { todayJst } from '../../lib/format';
import type { HodGenerateResult } from '../../lib/hod/kinds';
import type { DueDelivery } from '../../lib/hod/schedule';
import { formatOrderNumber } from '../../lib/orders/number';
import { orderResource } from '../../lib/resources/order';
import { diff, writeAudits, type AuditEntry } from '../audit/audit-log';
import { serialize } from '../db/concurrency';
import { chunksOf, deferKeywordIndexing, insertMany, mergeDeferredKeywordIndexes, reserveIds, rowsByIds, updateTextEach, writeQueue } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { creditHoldReason, PRICING_CLIENT_COLUMNS, priceNewOrder, pricingBook, type PricingBook } from '../orders/pricing';
import { searchText } from '../resources/columns';
import { lineSummary } from '../resources/policies/order';
import { prepareSave, refusalOf, type WriteContext } from '../resources/records';
import { dueByClient, type ClientDue } from './preview';

/** The first live returnable item (by code), the regular item of customers who chose none. */
async function defaultItem(trx: Transaction<Database>): Promise<number | null> {
  const row = await trx.selectFrom('item').select('it_id').where('deleted', '=', 0).where('it_returnable', '=', 1).orderBy('it_code').orderBy('it_id').executeTakeFirst();
  return row ? Number(row.it_id) : null;
}

/** The (customer, scheduled day) pairs that already have a live generated order in the range. */
async function generatedKeys(trx: Transaction<Database>, from: string, to: string): Promise<Set<string>> {
  const rows = await trx.selectFrom('orders').select(['od_cl_id', 'od_hod_date'])
    .where('deleted', '=', 0).where('od_hod_date', '>=', from).where('od_hod_date', '<=', to).execute();
  return new Set(rows.map((r) => keyOf(Number(r.od_cl_id), String(r.od_hod_date))));
}

/** Orders built and written per chunk: small enough that the database never waits long for the next. */
const ORDERS_PER_CHUNK = 2000;

const keyOf = (clientId: number, hodDate: string): string => `${clientId}|${hodDate}`;

/** One order the run creates. */
interface Planned {
  client: ClientDue;
  delivery: DueDelivery;
  item: number;
}

/**
 * A planned order's columns (as a hand-entered order's) and lines. `template` holds the columns every
 * generated order shares, validated once by the order's own `prepareSave`; the customer, delivery date and
 * note are the engine's and the customer's own (known to be valid).
 */
function buildOrder(plan: Planned, client: ResourceRow, book: PricingBook, template: ResourceRow, now: Date) {
  const { delivery } = plan;
  const columns: ResourceRow = {
    ...template,
    od_cl_id: plan.client.cl_id,
    od_delivery_date: delivery.date,
    od_biko: delivery.note ? `定期配送（予定日 ${delivery.original_date}・${delivery.note}）` : `定期配送（予定日 ${delivery.original_date}）`,
  };
  const { row, lines } = priceNewOrder(book, client, { ...columns, od_delivery_fee: null }, [{ it_id: plan.item, quantity: delivery.quantity }], now);
  Object.assign(row, { od_hod_date: delivery.original_date, od_hold_reason: '' });
  return { row, lines };
}

/** `buildOrder`, its refusal naming the customer and the delivery (the run creates nothing then). */
function orderOf(...args: Parameters<typeof buildOrder>): ReturnType<typeof buildOrder> {
  try {
    return buildOrder(...args);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const [{ client, delivery }] = args;
    throw badRequest(`${client.label}（予定日 ${delivery.original_date}）の受注を作成できません。${error.message} 受注は1件も作成していません。`);
  }
}

/**
 * What the audit row of a generated order records: who it is for, when, its number, status and total, and its
 * lines. The rest (address, warehouse, slot …) is the customer's and the settings' at the time, kept in the
 * order itself; a later edit records every changed field's value before and after, so nothing is lost.
 */
const AUDITED = ['od_number', 'od_cl_id', 'od_date', 'od_delivery_date', 'od_hod_date', 'od_status', 'od_hold_reason', 'od_uriage_total'] as const;
const audited = (row: ResourceRow): ResourceRow => Object.fromEntries(AUDITED.filter((c) => row[c] !== '' && row[c] !== null).map((c) => [c, row[c]]));

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
  { awaitIndexes = false, progress = async () => undefined }: { awaitIndexes?: boolean; progress?: GenerateProgress } = {},
): Promise<HodGenerateResult> {
  const orderDate = todayJst();
  const now = new Date();
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
      const clients = await rowsByIds(trx, 'client', 'cl_id', [...planned.map((p) => p.client.cl_id), ...advancing.map((c) => c.cl_id)], [
        'cl_id', 'cl_next_shipping_date', 'modified', ...PRICING_CLIENT_COLUMNS,
      ]);
      const book = await pricingBook(trx, planned.map((p) => p.item));
      const template = planned.length === 0 ? {} : (await prepareSave(orderResource, undefined, { cl_id: planned[0].client.cl_id, date: orderDate, status: 'untreated' })).columns;
      await progress(0, planned.length);

      // next_shipping_date moves forward (never back), audit-logged. Written first: it needs nothing the
      // orders do, so the database works on it while the orders are built.
      const queue = writeQueue();
      try {
        const stamp = nextStamp();
        const clientStamp = nextStamp(advancing.reduce((max, c) => (String(clients.get(c.cl_id)!.modified) > max ? String(clients.get(c.cl_id)!.modified) : max), stamp));
        queue.add(() => updateTextEach(trx, 'client', 'cl_id', new Map(advancing.map((c) => [c.cl_id, { cl_next_shipping_date: String(c.result.next_shipping_date), modified: clientStamp }]))));
        const clientAudits = advancing.map((c): AuditEntry => ({
          userId: ctx.userId, call: ctx.call, table: 'client', recordId: c.cl_id, at: clientStamp,
          changes: diff(clients.get(c.cl_id), { cl_next_shipping_date: String(c.result.next_shipping_date) }),
        }));
        queue.add(() => writeAudits(trx, clientAudits));
        answer.advanced = advancing.length;

        // The orders, a chunk at a time (each chunk's rows are written while the next is built), with their
        // reserved ids and numbers, lines and audit rows. The credit limit counts the run's earlier orders
        // of the same customer.
        const ids = await reserveIds(trx, 'orders', 'od_id', planned.length);
        const committed = new Map<number, number>();
        for (const [c, chunk] of chunksOf(planned, ORDERS_PER_CHUNK).entries()) {
          const orderRows: ResourceRow[] = [];
          const lineRows: ResourceRow[] = [];
          const audits: AuditEntry[] = [];
          for (const [i, plan] of chunk.entries()) {
            const client = clients.get(plan.client.cl_id)!;
            const { row, lines } = orderOf(plan, client, book, template, now);
            const total = Number(row.od_uriage_total);
            const earlier = committed.get(plan.client.cl_id) ?? 0;
            const hold = creditHoldReason(Number(client.cl_yoshin_gendo ?? 0), Number(client.cl_uri_zan ?? 0), total, earlier);
            if (hold) Object.assign(row, { od_status: 'pending', od_hold_reason: hold });
            else committed.set(plan.client.cl_id, earlier + total);
            const orderId = ids[c * ORDERS_PER_CHUNK + i];
            row.od_number = formatOrderNumber(book.settings.numberFormat, orderDate, orderId);
            Object.assign(row, { od_id: orderId, od_search: searchText(orderResource, row), created: stamp, modified: stamp, deleted: 0 });
            lines.forEach((line, n) => lineRows.push({ ...line, odd_od_id: orderId, odd_sort: n + 1, created: stamp }));
            audits.push({ userId: ctx.userId, call: ctx.call, table: 'orders', recordId: orderId, at: stamp, changes: { ...diff(undefined, audited(row)), lines: ['', lines.map(lineSummary).join('\n')] } });
            orderRows.push(row);
            answer.orders.push(orderId);
            if (hold) answer.held++;
          }
          queue.add(() => insertMany(trx, 'orders', orderRows));
          queue.add(() => insertMany(trx, 'order_detail', lineRows));
          queue.add(() => writeAudits(trx, audits));
          await queue.breathe();
          await progress(Math.min(planned.length, (c + 1) * ORDERS_PER_CHUNK), planned.length);
        }
        await queue.done();
        // The queued writes lag behind the building: a cancel asked while they finished still rolls the run back.
        await progress(planned.length, planned.length);
      } catch (error) {
        await queue.abandon();
        throw error;
      }
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
