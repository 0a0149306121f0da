/**
 * 定期配送の受注生成: the regular deliveries due in a range (the engine, via `dueByClient`) become
 * orders, in ONE transaction for the run (all or nothing; the audit rows with it). Each order is saved
 * through the order's own save (`saveInTransaction` + the order policy: shipping address, warehouse, time
 * slot, the line's price, tax and totals), for the customer's regular item (`haiso_item`, else the first
 * live returnable item) × the scheduled bottles, delivered on the delivery's (moved) day, 未処理 — or
 * 保留 with the reason when the credit limit would be passed (`creditHold`, the order rules).
 * A customer gets at most one live generated order per scheduled day (`od_hod_date`; checked here, and
 * a unique index of migration 0011 catches a race), so running a range twice creates nothing twice.
 * Skipped deliveries create nothing. `next_shipping_date` advances to the engine's anchor after the range
 * (never back).
 */
import type { Transaction } from 'kysely';
import { todayJst } from '../../lib/format';
import type { HodGenerateResult } from '../../lib/hod/kinds';
import { orderResource } from '../../lib/resources/order';
import { diff, writeAudit } from '../audit/audit-log';
import { resourceView, type Database } from '../db/schema';
import { badRequest } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { creditHold } from '../orders/status';
import { refusalOf, saveInTransaction, type WriteContext } from '../resources/records';
import { dueByClient } from './preview';

/** The first live returnable item (by code), the regular item of customers who chose none. */
async function defaultItem(trx: Transaction<Database>): Promise<number | null> {
  const row = await trx.selectFrom('item').select('it_id').where('deleted', '=', 0).where('it_returnable', '=', 1).orderBy('it_code').orderBy('it_id').executeTakeFirst();
  return row ? Number(row.it_id) : null;
}

/** The (customer, scheduled day) pairs that already have a live generated order in the range. */
async function generatedKeys(trx: Transaction<Database>, from: string, to: string): Promise<Set<string>> {
  const rows = await trx.selectFrom('orders').select(['od_cl_id', 'od_hod_date'])
    .where('deleted', '=', 0).where('od_hod_date', '>=', from).where('od_hod_date', '<=', to).execute();
  return new Set(rows.map((r) => `${Number(r.od_cl_id)}|${String(r.od_hod_date)}`));
}

/** Moves the customer's next_shipping_date forward to `next` (audit-logged), never back. */
async function advanceNext(trx: Transaction<Database>, ctx: WriteContext, clientId: number, next: string): Promise<boolean> {
  const view = resourceView(trx);
  const client = await view.selectFrom('client').select(['cl_next_shipping_date', 'modified']).where('cl_id', '=', clientId).executeTakeFirstOrThrow();
  if (String(client.cl_next_shipping_date ?? '') >= next) return false;
  const set = { cl_next_shipping_date: next };
  const stamp = nextStamp(String(client.modified));
  await view.updateTable('client').set({ ...set, modified: stamp }).where('cl_id', '=', clientId).execute();
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: 'client', recordId: clientId, at: stamp, changes: diff(client, set) });
  return true;
}

/**
 * Creates the orders of the regular deliveries due from `from` to `to` (one transaction); answers the counts.
 * @example await hodGenerate(ctx, '2026-05-11', '2026-05-17') // { created: 12, existed: 0, held: 1, … }
 */
export async function hodGenerate(ctx: WriteContext, from: string, to: string): Promise<HodGenerateResult> {
  const orderDate = todayJst();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const inRun: WriteContext = { ...ctx, db: trx };
      const view = resourceView(trx);
      const [due, existing, fallbackItem] = await Promise.all([dueByClient(trx, from, to), generatedKeys(trx, from, to), defaultItem(trx)]);
      const answer: HodGenerateResult = { from, to, created: 0, existed: 0, held: 0, skipped: 0, advanced: 0, orders: [] };
      for (const client of due) {
        for (const delivery of client.result.deliveries) {
          if (delivery.status !== 'deliver' || delivery.quantity <= 0) {
            answer.skipped++;
            continue;
          }
          if (existing.has(`${client.cl_id}|${delivery.original_date}`)) {
            answer.existed++;
            continue;
          }
          const item = client.item ?? fallbackItem;
          if (item === null) throw badRequest('定期配送の商品がありません。顧客の「定期配送商品」を選ぶか、リターナブルボトルの商品を登録してください。');
          const saved = await saveInTransaction(trx, inRun, orderResource, undefined, {
            cl_id: client.cl_id, date: orderDate, delivery_date: delivery.date, status: 'untreated',
            biko: delivery.note ? `定期配送（予定日 ${delivery.original_date}・${delivery.note}）` : `定期配送（予定日 ${delivery.original_date}）`,
            lines: [{ it_id: item, quantity: delivery.quantity }],
          });
          const orderId = Number(saved.od_id);
          const hold = await creditHold(trx, saved);
          const set = { od_hod_date: delivery.original_date, ...(hold ? { od_status: 'pending', od_hold_reason: hold } : {}) };
          const stamp = nextStamp(String(saved.modified));
          await view.updateTable('orders').set({ ...set, modified: stamp }).where('od_id', '=', orderId).execute();
          await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: 'orders', recordId: orderId, at: stamp, changes: diff(saved, set) });
          existing.add(`${client.cl_id}|${delivery.original_date}`);
          answer.created++;
          if (hold) answer.held++;
          answer.orders.push(orderId);
        }
        const next = client.result.next_shipping_date;
        if (next && (await advanceNext(trx, inRun, client.cl_id, next))) answer.advanced++;
      }
      return answer;
    });
  } catch (error) {
    throw refusalOf(error);
  }
}
