/**
 * Stock per warehouse × item and its movement history. A quantity changes only through
 * `adjustStock`: one transaction writes the new quantity, the movement (入庫 / 出庫 / 棚卸調整, with
 * who, when and why) and the audit row; a quantity never goes below zero.
 */
import type { Kysely, Transaction } from 'kysely';
import { quantityAfter, stockAdjustSchema, type StockAnswer, type StockMoveAnswer, type StockMoveKind } from '../../lib/stock';
import { writeAudit } from '../audit/audit-log';
import { locking } from '../db/concurrency';
import type { Database } from '../db/schema';
import { badRequest, notFound } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { type WriteActor, type WriteContext, validateForm } from '../resources';

/** Whose stock: one warehouse's items, or one item's warehouses. */
export type StockOwner = { sk_id: number } | { it_id: number };

/**
 * The stock rows of a warehouse (by item code) or of an item (by warehouse code); deleted
 * warehouses and items are left out.
 * @example await stockOf(db, { sk_id: 1 }) // [{ st_it_id: 3, it_name: '天然水 12L', st_quantity: 120, … }]
 */
export async function stockOf(db: Kysely<Database>, owner: StockOwner): Promise<StockAnswer[]> {
  let query = db
    .selectFrom('stock')
    .innerJoin('item', 'item.it_id', 'stock.st_it_id')
    .innerJoin('warehouse', 'warehouse.sk_id', 'stock.st_sk_id')
    .select(['stock.st_id', 'stock.st_sk_id', 'stock.st_it_id', 'stock.st_quantity', 'stock.modified', 'item.it_code', 'item.it_name', 'item.it_unit', 'item.it_reorder_point', 'warehouse.sk_code', 'warehouse.sk_name'])
    .where('item.deleted', '=', 0)
    .where('warehouse.deleted', '=', 0);
  query = 'sk_id' in owner
    ? query.where('stock.st_sk_id', '=', owner.sk_id).orderBy('item.it_code').orderBy('stock.st_it_id')
    : query.where('stock.st_it_id', '=', owner.it_id).orderBy('warehouse.sk_code').orderBy('stock.st_sk_id');
  return (await query.execute()) as StockAnswer[];
}

/**
 * The movements of a warehouse or an item, newest first, one page.
 * @example await stockMoves(db, { it_id: 3 }, 20, 1)
 */
export async function stockMoves(db: Kysely<Database>, owner: StockOwner, n: number, p: number): Promise<StockMoveAnswer[]> {
  let query = db
    .selectFrom('stock_move')
    .innerJoin('item', 'item.it_id', 'stock_move.sm_it_id')
    .innerJoin('warehouse', 'warehouse.sk_id', 'stock_move.sm_sk_id')
    .leftJoin('user', 'user.user_id', 'stock_move.sm_usr_id')
    .select([
      'stock_move.sm_id', 'stock_move.sm_sk_id', 'stock_move.sm_it_id', 'stock_move.sm_kind', 'stock_move.sm_quantity', 'stock_move.sm_before',
      'stock_move.sm_after', 'stock_move.sm_reason', 'stock_move.sm_usr_id', 'stock_move.created', 'item.it_name', 'warehouse.sk_name', 'user.user_name',
    ]);
  query = 'sk_id' in owner ? query.where('stock_move.sm_sk_id', '=', owner.sk_id) : query.where('stock_move.sm_it_id', '=', owner.it_id);
  return (await query.orderBy('stock_move.sm_id', 'desc').limit(n).offset((p - 1) * n).execute()) as StockMoveAnswer[];
}

/** What an adjustment answers: the stock row after it and the movement's id. */
export interface AdjustAnswer {
  st_id: number;
  st_sk_id: number;
  st_it_id: number;
  st_quantity: number;
  sm_id: number;
}

/**
 * Adjusts one warehouse's stock of one item (form values `it_id`, `kind`, `quantity`, `reason`),
 * in one transaction with its movement and audit row. Refused (400, nothing written) when the
 * values are bad, the item is not stock-tracked, or the quantity would go below zero; 404 when the
 * warehouse is missing.
 * @example await adjustStock(ctx, 1, { it_id: 3, kind: 'out', quantity: 2, reason: '配送出荷' })
 */
export async function adjustStock(ctx: WriteContext, warehouseId: number, input: Record<string, unknown>): Promise<AdjustAnswer> {
  return ctx.db.transaction().execute((trx) => adjustStockIn(trx, ctx, warehouseId, input));
}

/**
 * `adjustStock` inside a caller's transaction (an order's shipping moves several items at once,
 * all or none).
 */
export async function adjustStockIn(trx: Transaction<Database>, actor: WriteActor, warehouseId: number, input: Record<string, unknown>): Promise<AdjustAnswer> {
  const values = validateForm(stockAdjustSchema, { it_id: '', kind: '', quantity: '', reason: '', ...input });
  const itemId = Number(values.it_id);
  const kind = values.kind as StockMoveKind;
  const quantity = Number(values.quantity);
  const reason = String(values.reason);
  // Both stay locked until the adjustment commits: deleting either (which checks the stock on hand) waits for it.
  const warehouse = await locking(trx, trx.selectFrom('warehouse').select(['sk_id', 'sk_name']).where('sk_id', '=', warehouseId).where('deleted', '=', 0), 'keyShare').executeTakeFirst();
  if (!warehouse) throw notFound();
  const item = await locking(trx, trx.selectFrom('item').select(['it_id', 'it_name', 'it_unit', 'it_stock_tracked']).where('it_id', '=', itemId).where('deleted', '=', 0), 'keyShare').executeTakeFirst();
  if (!item) throw badRequest(`商品が見つかりません（ID ${itemId}）。選び直してください。`, { fields: { it_id: `商品が見つかりません（ID ${itemId}）。選び直してください。` } });
  if (item.it_stock_tracked === 0) {
    const message = `「${String(item.it_name)}」は在庫管理しない商品です。商品の「在庫管理する」を確認してください。`;
    throw badRequest(message, { fields: { it_id: message } });
  }
  const stamp = nextStamp();
  await trx.insertInto('stock')
    .values({ st_sk_id: warehouseId, st_it_id: itemId, st_quantity: 0, created: stamp, modified: stamp })
    .onConflict((oc) => oc.columns(['st_sk_id', 'st_it_id']).doNothing())
    .execute();
  // Touching the row first locks it (PostgreSQL) until the transaction ends, so concurrent adjustments queue.
  const row = await trx.updateTable('stock').set({ modified: stamp })
    .where('st_sk_id', '=', warehouseId).where('st_it_id', '=', itemId)
    .returning(['st_id', 'st_quantity']).executeTakeFirstOrThrow();
  const before = row.st_quantity;
  const after = quantityAfter(before, kind, quantity);
  if (after < 0) {
    const message = `在庫が足りません（${warehouse.sk_name}の「${String(item.it_name)}」は ${before}${String(item.it_unit || '')}、出庫 ${quantity}${String(item.it_unit || '')}）。在庫を下回る数量は出庫できません。`;
    throw badRequest(message, { fields: { quantity: message } });
  }
  await trx.updateTable('stock').set({ st_quantity: after }).where('st_id', '=', row.st_id).execute();
  const move = await trx.insertInto('stock_move')
    .values({ sm_sk_id: warehouseId, sm_it_id: itemId, sm_kind: kind, sm_quantity: after - before, sm_before: before, sm_after: after, sm_reason: reason, sm_usr_id: actor.userId, created: stamp })
    .returning('sm_id').executeTakeFirstOrThrow();
  await writeAudit(trx, {
    userId: actor.userId, call: actor.call, table: 'stock', recordId: row.st_id, at: stamp,
    changes: { st_quantity: [before, after], sm_kind: [null, kind], sm_reason: [null, reason], sm_id: [null, move.sm_id] },
  });
  return { st_id: row.st_id, st_sk_id: warehouseId, st_it_id: itemId, st_quantity: after, sm_id: move.sm_id };
}

/** Total stock of an item, and where it lies (warehouses holding any), for delete refusals. */
export async function stockOnHand(db: Kysely<Database>, owner: StockOwner): Promise<{ total: number; places: string[] }> {
  const rows = (await stockOf(db, owner)).filter((r) => r.st_quantity > 0);
  return {
    total: rows.reduce((sum, r) => sum + r.st_quantity, 0),
    places: rows.map((r) => ('sk_id' in owner ? `${r.it_name} ${r.st_quantity}${r.it_unit}` : `${r.sk_name} ${r.st_quantity}${r.it_unit}`)),
  };
}
