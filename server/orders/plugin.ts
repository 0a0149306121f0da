/**
 * The order calls beside the generic resource calls (an order's lines, `order_detail_lst`, are its child
 * rows' generic call): 「前回の受注」 (`order_previous`: with `od_id` the customer's order before it, with `cl_id`
 * the customer's latest) and the status moves (`order_status`: `od_id` for one order — a refusal is a 400 — or
 * `ids`, a JSON array, for a bulk move answered per order; `status` the target; `tracking_no`; `reason`
 * of a hold); 出荷倉庫の一括変更 (`order_warehouse`: `ids`, `sk_id`): the chosen orders given one warehouse in ONE
 * transaction through the write path (the order's rules — not an order whose stock is out — and an audit row each).
 */
import type { FastifyInstance } from 'fastify';
import { isOrderStatus } from '../../lib/orders/status';
import { MESSAGES } from '../../lib/protocol';
import { orderResource } from '../../lib/resources/order';
import { addCall, type AreaOptions } from '../calls/call-table';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { positiveId, text, type Params } from '../http/params';
import { saveRecords } from '../resources';
import { previousOrder } from './previous';
import { moveOrder, moveOrders } from './status';

const MAX_BULK = 500;

/** The `ids` parameter of a bulk order call: a JSON array of 1–500 order ids, duplicates dropped. */
export function idsParam(params: Params): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(params.ids ?? '');
  } catch {
    throw badRequest(MESSAGES.badJson);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_BULK) throw badRequest(`受注を1〜${MAX_BULK}件選んでください。`);
  return [...new Set(parsed.map((id) => positiveId(String(id))))];
}

export async function ordersPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'order_warehouse', {
    handler: async ({ call, params, user }) => {
      const ids = idsParam(params);
      if (!(params.sk_id ?? '').trim()) {
        const message = '出荷倉庫を選んでください。';
        throw badRequest(message, { fields: { sk_id: message } });
      }
      const warehouseId = positiveId(params.sk_id);
      const orders = await db.selectFrom('orders').select(['od_id', 'modified']).where('od_id', 'in', ids).where('deleted', '=', 0).execute();
      const missing = ids.filter((id) => !orders.some((o) => o.od_id === id));
      if (missing.length > 0) throw new ApiError(404, `見つからない受注があります（ID ${missing.join('、')}）。一覧を読み込み直してください。`);
      const saved = await saveRecords({ db, userId: user.user_id, call, user }, orderResource,
        orders.map((o) => ({ id: o.od_id, values: { sk_id: String(warehouseId), modified: o.modified } })));
      return saved.map((row) => ({ od_id: Number(row.od_id), od_number: String(row.od_number ?? ''), od_sk_id: Number(row.od_sk_id), modified: row.modified }));
    },
  });
  addCall(calls, 'order_previous', {
    handler: async ({ params }) => {
      if (params.od_id !== undefined) {
        const order = await db.selectFrom('orders').select(['od_id', 'od_cl_id', 'od_date']).where('od_id', '=', positiveId(params.od_id)).where('deleted', '=', 0).executeTakeFirst();
        if (!order) throw notFound();
        return previousOrder(db, order.od_cl_id, { date: (order.od_date ?? ''), id: order.od_id });
      }
      if (params.cl_id === undefined) throw badRequest('受注（od_id）か顧客（cl_id）を指定してください。');
      return previousOrder(db, positiveId(params.cl_id));
    },
  });
  addCall(calls, 'order_status', {
    handler: async ({ call, params, user }) => {
      const status = params.status ?? '';
      if (!isOrderStatus(status)) throw badRequest('変更先の状態が正しくありません。');
      const input = {
        trackingNo: text(params, 'tracking_no', 50, '送り状番号は50文字以内で入力してください。'),
        reason: text(params, 'reason', 200, '保留理由は200文字以内で入力してください。'),
      };
      const ctx = { db, userId: user.user_id, call, user };
      if (params.ids !== undefined) return moveOrders(ctx, idsParam(params), status, input);
      return [await moveOrder(ctx, positiveId(params.od_id), status, input)];
    },
  });
}
