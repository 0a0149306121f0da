/**
 * Moving orders through their lifecycle (lib/orders/status TRANSITIONS), one transaction per order:
 * what the target status needs (every missing field named at once), the credit-limit hold, the
 * tracking number, the stock taken out on shipping (and put back when an order returns from
 * shipped), the audit row, and the sales slip of a processed order (made on 処理済, deleted when moved back:
 * server/sales/from-order.ts).
 */
import { MESSAGES } from '../../lib/protocol';
import { isOrderStatus, stockIsOut, statusText, TRANSITIONS, type StatusResult } from '../../lib/orders/status';
import { trackingNoProblem } from '../../lib/orders/tracking';
import { orderResource, type OrderStatus } from '../../lib/resources/order';
import { billingGroupsOf } from '../clients';
import { resourceView, type ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { storedChildren, type WriteActor, type WriteContext, systemUpdate } from '../resources';
import { adjustStockIn } from '../stock';
import { dropOrderSlip, slipFromOrder } from '../sales';
import { creditHoldReason } from './pricing';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** Why a customer's order is held: its billing group's receivable plus this order would pass the credit limit (`creditHoldReason`). */
export async function creditHold(trx: Transaction<Database>, order: ResourceRow): Promise<string | undefined> {
  const clientId = Number(order.od_cl_id);
  const group = (await billingGroupsOf(trx, [clientId])).get(clientId);
  return group && creditHoldReason(group, clientId, Number(order.od_uriage_total ?? 0));
}

/** The order's stock-tracked items and their quantities (what shipping takes out of the warehouse). */
async function trackedQuantities(trx: Transaction<Database>, orderId: number): Promise<Map<number, number>> {
  // The fee line has no item.
  const lines = ((await storedChildren(trx, orderResource.children, [orderId])).get(orderId) ?? [])
    .flatMap((l) => (l.odd_it_id === null ? [] : [{ item: Number(l.odd_it_id), quantity: Number(l.odd_quantity) }]));
  const perItem = new Map<number, number>();
  if (lines.length === 0) return perItem;
  const tracked = await trx.selectFrom('item').select('it_id').where('it_id', 'in', lines.map((l) => l.item)).where('it_stock_tracked', '=', 1).execute();
  const trackedIds = new Set(tracked.map((t) => t.it_id));
  for (const line of lines) if (trackedIds.has(line.item)) perItem.set(line.item, (perItem.get(line.item) ?? 0) + line.quantity);
  return perItem;
}

/** Takes the order's stock-tracked items out of its warehouse (`out`), or puts them back (`in`). */
async function moveStock(trx: Transaction<Database>, ctx: WriteActor, order: ResourceRow, perItem: ReadonlyMap<number, number>, direction: 'out' | 'in'): Promise<void> {
  const reason = `受注 ${String(order.od_number || order.od_id)} ${direction === 'out' ? '出荷' : '出荷取消'}`;
  // Lowest item first: every shipment locks stock rows in one order, so two at once queue instead of deadlocking.
  for (const [itemId, quantity] of [...perItem].sort(([a], [b]) => a - b)) {
    if (quantity === 0) continue;
    const kind = (quantity > 0) === (direction === 'out') ? 'out' : 'in';
    await adjustStockIn(trx, ctx, Number(order.od_sk_id), { it_id: itemId, kind, quantity: Math.abs(quantity), reason });
  }
}

/** Whether the customer's orders are delivered by the company's own driver (a 配送担当者, as on the route sheet /hod/list). */
async function deliveredByOwnDriver(trx: Transaction<Database>, clientId: number): Promise<boolean> {
  const client = await trx.selectFrom('client').select('cl_delivery_usr_id').where('cl_id', '=', clientId).executeTakeFirst();
  return (client?.cl_delivery_usr_id ?? 0) > 0;
}

/** What a move asks of the caller beyond the order itself: the tracking number (出荷済), the hold reason (保留). */
export interface MoveInput {
  trackingNo?: string;
  reason?: string;
  /** The warehouse an order without one ships from (送り状取込: 受注設定's 既定の出荷倉庫), stored on the order. */
  warehouseId?: number;
}

/**
 * Moves one order to a status, or refuses (ApiError) naming every missing field at once: 出荷済 needs a
 * tracking number unless the company's own driver delivers it, and a warehouse when stock-tracked items
 * leave; 保留 by hand needs its reason. A move to 出荷待ち of a customer over the credit limit puts the
 * order on 保留 with the reason instead.
 * @example await moveOrder(ctx, 12, 'shipped', { trackingNo: '1234-5678-9012' })
 */
export async function moveOrder(ctx: WriteContext, orderId: number, target: OrderStatus, input: MoveInput = {}): Promise<StatusResult> {
  return ctx.db.transaction().execute((trx) => moveOrderIn(trx, ctx, orderId, target, input));
}

/**
 * `moveOrder` inside a transaction that is already running (an import of tracking numbers moves its orders in the
 * import's one transaction): the same rule, the caller commits or rolls back.
 */
export async function moveOrderIn(trx: Transaction<Database>, ctx: WriteActor, orderId: number, target: OrderStatus, input: MoveInput = {}): Promise<StatusResult> {
  const view = resourceView(trx);
  const order = await view.selectFrom('orders').selectAll().where('od_id', '=', orderId).where('deleted', '=', 0).executeTakeFirst();
  if (!order) throw new ApiError(404, MESSAGES.notFound);
  const from = String(order.od_status);
  if (!isOrderStatus(from) || !TRANSITIONS[from].includes(target)) {
    throw badRequest(`「${statusText(from)}」の受注は「${statusText(target)}」にできません。`);
  }
  const set: ResourceRow = {};
  const missing: Record<string, string> = {};
  const perItem = stockIsOut(from) !== stockIsOut(target) ? await trackedQuantities(trx, orderId) : new Map<number, number>();
  if (target === 'shipped') {
    const typed = (input.trackingNo ?? '').trim();
    const tracking = typed || String(order.od_tracking_no ?? '');
    // A number typed with the move is checked as the order's field and 送り状取込 check it (one rule and wording).
    const wrong = typed ? trackingNoProblem(orderResource.fields.find((f) => f.name === 'tracking_no')?.label ?? '送り状番号', typed) : undefined;
    if (wrong) missing.tracking_no = wrong;
    else if (tracking.length > 50) missing.tracking_no = '送り状番号は50文字以内で入力してください。';
    else if (tracking) set.od_tracking_no = tracking;
    else if (!(await deliveredByOwnDriver(trx, Number(order.od_cl_id)))) missing.tracking_no = '送り状番号を入力してください（宅配便で送る受注です。自社の配送担当者が届ける顧客には不要です）。';
  }
  let warehouseId = Number(order.od_sk_id);
  if (!(Number.isInteger(warehouseId) && warehouseId > 0) && target === 'shipped' && input.warehouseId) {
    warehouseId = input.warehouseId;
    set.od_sk_id = String(warehouseId);
  }
  if (perItem.size > 0 && !(Number.isInteger(warehouseId) && warehouseId > 0)) missing.sk_id = '出荷倉庫を選んでください（在庫を動かす倉庫です）。';
  const reason = (input.reason ?? '').trim();
  if (target === 'pending') {
    if (!reason) missing.hold_reason = '保留理由を入力してください。';
    else if (reason.length > 200) missing.hold_reason = '保留理由は200文字以内で入力してください。';
  }
  const names = Object.keys(missing);
  if (names.length > 0) {
    const labels = names.map((name) => orderResource.fields.find((f) => f.name === name)?.label ?? name);
    throw badRequest(names.length === 1 ? (missing[names[0]] ?? '') : `「${statusText(target)}」にするには次を入力してください: ${labels.join('、')}。`, { fields: missing });
  }
  let status: OrderStatus = target;
  let message: string | undefined;
  if (target === 'waitshipping' && !stockIsOut(from)) {
    message = await creditHold(trx, order);
    if (message) status = 'pending';
  }
  set.od_hold_reason = status !== 'pending' ? '' : target === 'pending' ? reason : message ?? String(order.od_hold_reason ?? '');
  if (!stockIsOut(from) && stockIsOut(status)) await moveStock(trx, ctx, { ...order, od_sk_id: String(warehouseId) }, perItem, 'out');
  if (stockIsOut(from) && !stockIsOut(status)) await moveStock(trx, ctx, order, perItem, 'in');
  set.od_status = status;
  await systemUpdate(trx, ctx, orderResource, [{ id: orderId, before: order, set }], { modified: 'check' });
  // The sales slip follows 処理済 in the same transaction (after the status, so the slip's rules see the order as it now is).
  const slipId = status === 'processed' ? await slipFromOrder(trx, ctx, { ...order, ...set }) : undefined;
  if (from === 'processed') await dropOrderSlip(trx, ctx, orderId);
  const slip = slipId === undefined ? undefined : await trx.selectFrom('sales').select(['sl_id', 'sl_number']).where('sl_id', '=', slipId).executeTakeFirstOrThrow();
  return {
    od_id: orderId, od_number: String(order.od_number ?? ''), ok: status === target, status, ...(message ? { message } : {}),
    ...(slip ? { slip: { sl_id: slip.sl_id, sl_number: (slip.sl_number ?? '') } } : {}),
  };
}

/**
 * Moves several orders, each in its own transaction: answers per order whether it moved and why
 * not (a refusal of one does not stop the others).
 */
export async function moveOrders(ctx: WriteContext, orderIds: readonly number[], target: OrderStatus, input: MoveInput = {}): Promise<StatusResult[]> {
  const results: StatusResult[] = [];
  for (const id of orderIds) {
    try {
      results.push(await moveOrder(ctx, id, target, input));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const row = await resourceView(ctx.db).selectFrom('orders').select(['od_status', 'od_number']).where('od_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
      results.push({ od_id: id, od_number: String(row?.od_number ?? ''), ok: false, status: String(row?.od_status ?? ''), message: error.message });
    }
  }
  return results;
}
