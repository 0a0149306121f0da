/**
 * ボトル台帳: 預け本数 is the running balance of a customer × item in date order (previous +
 * delivered − collected). Every save and delete re-computes the balances of the pairs it touches,
 * in its own transaction, and is refused when any balance would go below zero. Writes for one
 * customer are queued (its row is locked) so two saves cannot compute from the same old rows.
 */
import type { Kysely, Transaction } from 'kysely';
import type { BottleBalance } from '../../../lib/resources/bottle';
import { writeAudit } from '../../audit/audit-log';
import type { Database, ResourceRow } from '../../db/schema';
import { badRequest } from '../../http/api-error';
import type { ResourcePolicy, WriteActor } from '../policy';

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0) || 0);

/** Locks the customers' rows until the transaction ends (PostgreSQL; SQLite has one writer anyway), lowest id first. */
export async function lockCustomers(trx: Transaction<Database>, ids: readonly unknown[]): Promise<void> {
  const unique = [...new Set(ids.map(num).filter((id) => id > 0))].sort((a, b) => a - b);
  for (const id of unique) await trx.updateTable('client').set({ cl_id: id }).where('cl_id', '=', id).execute();
}

/**
 * Re-computes 預け本数 of one customer × item in date order; refuses a negative balance.
 * @example await recompute(trx, actor, 12, 3)
 */
async function recompute(trx: Transaction<Database>, actor: WriteActor, clientId: number, itemId: number): Promise<void> {
  const rows = await trx.selectFrom('bottle')
    .select(['bt_id', 'bt_move_date', 'bt_delivered', 'bt_collected', 'bt_held'])
    .where('bt_cl_id', '=', clientId).where('bt_it_id', '=', itemId).where('deleted', '=', 0)
    .orderBy('bt_move_date').orderBy('bt_id')
    .execute();
  let held = 0;
  for (const row of rows) {
    held += num(row.bt_delivered) - num(row.bt_collected);
    if (held < 0) {
      const message = `${String(row.bt_move_date)} の時点で預け本数が ${held} 本になるため、この変更はできません。回収本数と日付を確認してください。`;
      throw badRequest(message, { fields: { collected: message } });
    }
    if (row.bt_held === held) continue;
    await trx.updateTable('bottle').set({ bt_held: held }).where('bt_id', '=', row.bt_id).execute();
    await writeAudit(trx, { userId: actor.userId, call: actor.call, table: 'bottle', recordId: Number(row.bt_id), changes: { bt_held: [row.bt_held, held] } });
  }
}

/** The customer × item pairs a write touches: the stored one and the new one. */
const pairsOf = (...rows: (ResourceRow | undefined)[]): [number, number][] => {
  const pairs = new Map<string, [number, number]>();
  for (const row of rows) if (row) pairs.set(`${num(row.bt_cl_id)}:${num(row.bt_it_id)}`, [num(row.bt_cl_id), num(row.bt_it_id)]);
  return [...pairs.values()];
};

export const bottlePolicy: ResourcePolicy = {
  async beforeSave({ trx, current, columns }) {
    await lockCustomers(trx, [current?.bt_cl_id, columns.bt_cl_id]);
    const itemId = columns.bt_it_id;
    if (itemId === undefined || itemId === null || itemId === current?.bt_it_id) return;
    const item = await trx.selectFrom('item').select(['it_name', 'it_returnable']).where('it_id', '=', num(itemId)).executeTakeFirst();
    if (item && item.it_returnable !== 1) {
      const message = `「${String(item.it_name)}」はリターナブルボトルの商品ではありません。ボトル台帳にはリターナブルボトルの商品を選んでください。`;
      throw badRequest(message, { fields: { it_id: message } });
    }
  },
  async afterSave({ trx, actor, current, saved }) {
    for (const [clientId, itemId] of pairsOf(current, saved)) await recompute(trx, actor, clientId, itemId);
  },
  async beforeDelete({ trx, current }) {
    await lockCustomers(trx, [current.bt_cl_id]);
  },
  async afterDelete({ trx, actor, current }) {
    for (const [clientId, itemId] of pairsOf(current)) await recompute(trx, actor, clientId, itemId);
  },
};

/**
 * The bottle balance of a customer per returnable item (from the ledger, in date order).
 * @example await bottleBalance(db, 12) // [{ bt_it_id: 3, it_name: '天然水 12L', bt_held: 4, deposit_total: 4000, last_date: '2026-05-01' }]
 */
export async function bottleBalance(db: Kysely<Database>, clientId: number): Promise<BottleBalance[]> {
  const rows = await db.selectFrom('bottle')
    .innerJoin('item', 'item.it_id', 'bottle.bt_it_id')
    .select(['bottle.bt_it_id', 'item.it_name', 'bottle.bt_move_date', 'bottle.bt_held', 'bottle.bt_deposit'])
    .where('bottle.bt_cl_id', '=', clientId).where('bottle.deleted', '=', 0)
    .orderBy('bottle.bt_move_date').orderBy('bottle.bt_id')
    .execute();
  const balances = new Map<number, BottleBalance>();
  for (const row of rows) {
    const id = num(row.bt_it_id);
    const balance = balances.get(id) ?? { bt_it_id: id, it_name: String(row.it_name), bt_held: 0, deposit_total: 0, last_date: '' };
    balance.bt_held = num(row.bt_held);
    balance.deposit_total += num(row.bt_deposit);
    balance.last_date = String(row.bt_move_date);
    balances.set(id, balance);
  }
  return [...balances.values()];
}
