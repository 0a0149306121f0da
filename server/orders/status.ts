/**
 * Moving orders through their lifecycle (lib/orders/status TRANSITIONS), one transaction per order:
 * the credit-limit hold, the tracking number, the stock taken out on shipping (and put back when an
 * order returns from shipped), and the audit row.
 */
import { MESSAGES } from '../../lib/protocol';
import { isOrderStatus, stockIsOut, statusText, TRANSITIONS, type StatusResult } from '../../lib/orders/status';
import type { OrderStatus } from '../../lib/resources/order';
import { diff, writeAudit } from '../audit/audit-log';
import { resourceView, type ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { orderLines } from '../resources/policies/order';
import type { WriteContext } from '../resources/records';
import { adjustStockIn } from '../stock/stock';
import { creditHoldReason } from './pricing';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** Why a customer's order is held: the receivable plus this order would pass the credit limit (`creditHoldReason`). */
export async function creditHold(trx: Transaction<Database>, order: ResourceRow): Promise<string | undefined> {
  const client = await trx.selectFrom('client').select(['cl_yoshin_gendo', 'cl_uri_zan']).where('cl_id', '=', Number(order.od_cl_id)).executeTakeFirst();
  return client && creditHoldReason(Number(client.cl_yoshin_gendo ?? 0), Number(client.cl_uri_zan ?? 0), Number(order.od_uriage_total ?? 0));
}

/** Takes the order's stock-tracked items out of its warehouse (`out`), or puts them back (`in`). */
async function moveStock(trx: Transaction<Database>, ctx: WriteContext, order: ResourceRow, direction: 'out' | 'in'): Promise<void> {
  const lines = await orderLines(trx, Number(order.od_id));
  if (lines.length === 0) return;
  const tracked = await trx.selectFrom('item').select('it_id').where('it_id', 'in', lines.map((l) => l.odd_it_id)).where('it_stock_tracked', '=', 1).execute();
  const trackedIds = new Set(tracked.map((t) => t.it_id));
  const perItem = new Map<number, number>();
  for (const line of lines) if (trackedIds.has(line.odd_it_id)) perItem.set(line.odd_it_id, (perItem.get(line.odd_it_id) ?? 0) + line.odd_quantity);
  if (perItem.size === 0) return;
  const warehouseId = Number(order.od_sk_id);
  if (!Number.isInteger(warehouseId) || warehouseId < 1) throw badRequest('出荷倉庫が選ばれていないため在庫を動かせません。受注の出荷倉庫を選んでください。');
  const reason = `受注 ${String(order.od_number || order.od_id)} ${direction === 'out' ? '出荷' : '出荷取消'}`;
  // Lowest item first: every shipment locks stock rows in one order, so two at once queue instead of deadlocking.
  for (const [itemId, quantity] of [...perItem].sort(([a], [b]) => a - b)) {
    if (quantity === 0) continue;
    const kind = (quantity > 0) === (direction === 'out') ? 'out' : 'in';
    await adjustStockIn(trx, ctx, warehouseId, { it_id: itemId, kind, quantity: Math.abs(quantity), reason });
  }
}

/**
 * Moves one order to a status, or refuses (ApiError). A move to 出荷待ち of a customer over the
 * credit limit puts the order on 保留 with the reason instead.
 * @example await moveOrder(ctx, 12, 'shipped', '1234-5678-9012')
 */
export async function moveOrder(ctx: WriteContext, orderId: number, target: OrderStatus, trackingNo = ''): Promise<StatusResult> {
  return ctx.db.transaction().execute(async (trx) => {
    const view = resourceView(trx);
    const order = await view.selectFrom('orders').selectAll().where('od_id', '=', orderId).where('deleted', '=', 0).executeTakeFirst();
    if (!order) throw new ApiError(404, MESSAGES.notFound);
    const from = String(order.od_status);
    if (!isOrderStatus(from) || !TRANSITIONS[from].includes(target)) {
      throw badRequest(`「${statusText(from)}」の受注は「${statusText(target)}」にできません。`);
    }
    const set: ResourceRow = {};
    let status: OrderStatus = target;
    let message: string | undefined;
    if (target === 'shipped') {
      const tracking = trackingNo.trim() || String(order.od_tracking_no ?? '');
      if (!tracking) throw badRequest('出荷済にするには送り状番号を入力してください。', { fields: { tracking_no: '送り状番号を入力してください。' } });
      if (tracking.length > 50) throw badRequest('送り状番号は50文字以内で入力してください。', { fields: { tracking_no: '50文字以内で入力してください。' } });
      set.od_tracking_no = tracking;
    }
    if (target === 'waitshipping' && !stockIsOut(from)) {
      message = await creditHold(trx, order);
      if (message) status = 'pending';
    }
    set.od_hold_reason = status === 'pending' ? message ?? String(order.od_hold_reason ?? '') : '';
    if (!stockIsOut(from) && stockIsOut(status)) await moveStock(trx, ctx, order, 'out');
    if (stockIsOut(from) && !stockIsOut(status)) await moveStock(trx, ctx, order, 'in');
    set.od_status = status;
    const stamp = nextStamp(String(order.modified));
    const updated = await view.updateTable('orders').set({ ...set, modified: stamp })
      .where('od_id', '=', orderId).where('modified', '=', order.modified).returning('od_id').executeTakeFirst();
    if (!updated) throw new ApiError(409, MESSAGES.conflict);
    await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: 'orders', recordId: orderId, at: stamp, changes: diff(order, set) });
    return { od_id: orderId, ok: status === target, status, ...(message ? { message } : {}) };
  });
}

/**
 * Moves several orders, each in its own transaction: answers per order whether it moved and why
 * not (a refusal of one does not stop the others).
 */
export async function moveOrders(ctx: WriteContext, orderIds: readonly number[], target: OrderStatus, trackingNo = ''): Promise<StatusResult[]> {
  const results: StatusResult[] = [];
  for (const id of orderIds) {
    try {
      results.push(await moveOrder(ctx, id, target, trackingNo));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const row = await resourceView(ctx.db).selectFrom('orders').select('od_status').where('od_id', '=', id).executeTakeFirst();
      results.push({ od_id: id, ok: false, status: String(row?.od_status ?? ''), message: error.message });
    }
  }
  return results;
}
