/**
 * The calls of the stock area beside the generic resource calls: a warehouse's or an item's stock
 * (`stock_lst`), its movement history (`stock_move_lst`), the one way to change it
 * (`stock_adjust`), and a customer's bottle balance per item (`bottle_balance`).
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { STOCK_ADJUST_FIELDS } from '../../lib/stock';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { jsonObject, optionalId, pageParam, positiveId, type Params } from '../http/params';
import { bottleBalance } from './bottle-policy';
import { adjustStock, stockMoves, stockOf, type StockOwner } from './stock';

/** `sk_id` (a warehouse) or `it_id` (an item): exactly one. */
function ownerParam(params: Params): StockOwner {
  const sk = optionalId(params.sk_id);
  const it = optionalId(params.it_id);
  if ((sk === undefined) === (it === undefined)) throw badRequest('倉庫（sk_id）か商品（it_id）のどちらか一方を指定してください。');
  return sk !== undefined ? { sk_id: sk } : { it_id: it! };
}

/** Registers the stock calls. */
export async function stockPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'stock_lst', {
    handler: async ({ params }) => stockOf(db, ownerParam(params)),
  });
  addCall(calls, 'stock_move_lst', {
    handler: async ({ params }) => {
      const owner = ownerParam(params);
      const n = pageParam(params.n, 20, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return stockMoves(db, owner, n, p);
    },
  });
  addCall(calls, 'stock_adjust', {
    handler: async ({ call, params, user }) => [await adjustStock({ db, userId: user.user_id, call, user }, positiveId(params.sk_id), jsonObject(params.postData, (key) => STOCK_ADJUST_FIELDS.find((f) => f.name === key)?.label))],
  });
  addCall(calls, 'bottle_balance', {
    handler: async ({ params }) => bottleBalance(db, positiveId(params.cl_id)),
  });
}
