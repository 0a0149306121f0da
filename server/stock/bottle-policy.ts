/**
 * ボトル台帳: 預け本数 is the running balance of a customer × item in date order (previous +
 * delivered − collected). Every save and delete re-computes the balances of the pairs it touches,
 * in its own transaction, and is refused when any balance would go below zero. Writes for one
 * customer are queued (its row is locked) so two saves cannot compute from the same old rows.
 *
 * 容器保証金 follows the bottles (issue 12 "Deposits"): a movement takes (delivered − collected) × the item's deposit
 * (`it_deposit`; `bt_deposit`, derived — read-only on the form, 0 for an item without one), and that sum is the movement's own 保証金 slip — one
 * 不課税 line, negative when more came back than went out (a refund) — written, corrected or deleted with the
 * movement through the sales save (`writer`), so the slips' sum is 預け本数 × deposit and the 売掛残高 moves.
 */
import type { Kysely, Transaction } from 'kysely';
import { bottleResource, type BottleBalance } from '../../lib/resources/bottle';
import { salesResource } from '../../lib/resources/sales';
import { chunksOf, isPostgres } from '../db/bulk-write';
import { locking } from '../db/concurrency';
import type { Database, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { type ResourcePolicy, type WriteActor, type Writer, systemUpdate, type SystemChange } from '../resources';

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0) || 0);

/**
 * Locks the customers' rows until the transaction ends (PostgreSQL; SQLite has one writer anyway), lowest id first: the
 * lock an UPDATE takes (`noKeyUpdate`), without writing a new version of each row — a rental run locks 20,000 customers,
 * and an UPDATE of the row (even to the same values) would write each again with all its index entries.
 */
export async function lockCustomers(trx: Transaction<Database>, ids: readonly unknown[]): Promise<void> {
  if (!isPostgres(trx)) return;
  const unique = [...new Set(ids.map(num).filter((id) => id > 0))].sort((a, b) => a - b);
  // One statement per thousand, in id order.
  for (const chunk of chunksOf(unique, 1000)) {
    await locking(trx, trx.selectFrom('client').select('cl_id').where('cl_id', 'in', chunk).orderBy('cl_id'), 'noKeyUpdate').execute();
  }
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
  const changed: SystemChange[] = [];
  for (const row of rows) {
    held += num(row.bt_delivered) - num(row.bt_collected);
    if (held < 0) {
      const message = `${row.bt_move_date} の時点で預け本数が ${held} 本になるため、この変更はできません。回収本数と日付を確認してください。`;
      throw badRequest(message, { fields: { collected: message } });
    }
    if (row.bt_held !== held) changed.push({ id: row.bt_id, before: row, set: { bt_held: held } });
  }
  // The balance is derived, no field a form edits: the movements' edit-conflict tokens stay.
  await systemUpdate(trx, actor, bottleResource, changed, { modified: 'keep' });
}

/** The customer × item pairs a write touches: the stored one and the new one. */
const pairsOf = (...rows: (ResourceRow | undefined)[]): [number, number][] => {
  const pairs = new Map<string, [number, number]>();
  for (const row of rows) if (row) pairs.set(`${num(row.bt_cl_id)}:${num(row.bt_it_id)}`, [num(row.bt_cl_id), num(row.bt_it_id)]);
  return [...pairs.values()];
};

/** The item's name and 容器保証金 per bottle (0 when it holds none). */
async function itemDeposit(trx: Transaction<Database>, itemId: number): Promise<{ name: string; returnable: boolean; deposit: number } | undefined> {
  const item = await trx.selectFrom('item').select(['it_name', 'it_returnable', 'it_deposit']).where('it_id', '=', itemId).executeTakeFirst();
  return item && { name: item.it_name, returnable: item.it_returnable === 1, deposit: num(item.it_deposit) };
}

/** The bottles a movement leaves at the customer beyond those it takes back (negative: more came back). */
const netBottles = (row: ResourceRow): number => num(row.bt_delivered) - num(row.bt_collected);

/** The name of a deposit slip's line: 「容器保証金 天然水 12L（リターナブル）」. */
export const depositLineName = (itemName: string): string => `容器保証金 ${itemName}`;

/**
 * Writes, corrects or deletes the 保証金 slip of one movement (`sl_bt_id`) to match it: none when the movement is
 * gone, its item holds no deposit or as many bottles came back as went out.
 * @example await followDeposit(trx, writer, savedMovement)
 */
async function followDeposit(trx: Transaction<Database>, writer: Writer, bottleId: number, movement: ResourceRow | undefined): Promise<void> {
  const slip = await trx.selectFrom('sales').select(['sl_id', 'modified']).where('sl_bt_id', '=', bottleId).where('deleted', '=', 0).executeTakeFirst();
  const item = movement && await itemDeposit(trx, num(movement.bt_it_id));
  const quantity = movement ? netBottles(movement) : 0;
  if (!movement || !item || item.deposit === 0 || quantity === 0) {
    if (slip) await writer.delete(salesResource, num(slip.sl_id));
    return;
  }
  const values = {
    cl_id: movement.bt_cl_id, date: movement.bt_move_date, kind: 'deposit',
    biko: quantity > 0 ? '容器保証金のお預かり' : '容器保証金のご返金（空ボトル回収）',
    lines: [{ name: depositLineName(item.name), quantity, price: item.deposit, tax_class: 'outside' }],
    ...(slip ? { modified: slip.modified } : {}),
  };
  await writer.save(salesResource, slip ? num(slip.sl_id) : undefined, values, { sl_bt_id: bottleId });
}

export const bottlePolicy: ResourcePolicy = {
  async beforeSave({ trx, current, columns }) {
    await lockCustomers(trx, [current?.bt_cl_id, columns.bt_cl_id]);
    const itemId = num(columns.bt_it_id ?? current?.bt_it_id);
    const item = await itemDeposit(trx, itemId);
    if (item && !item.returnable && columns.bt_it_id !== undefined && columns.bt_it_id !== current?.bt_it_id) {
      const message = `「${item.name}」はリターナブルボトルの商品ではありません。ボトル台帳にはリターナブルボトルの商品を選んでください。`;
      throw badRequest(message, { fields: { it_id: message } });
    }
    // The movement's deposit is its bottles' (what its slip charges or refunds), never typed: 0 for an item without one.
    if (item) return { bt_deposit: netBottles({ ...current, ...columns }) * item.deposit };
  },
  async afterSave({ trx, actor, writer, current, saved }) {
    for (const [clientId, itemId] of pairsOf(current, saved)) await recompute(trx, actor, clientId, itemId);
    await followDeposit(trx, writer, num(saved.bt_id), saved);
  },
  async beforeDelete({ trx, current }) {
    await lockCustomers(trx, [current.bt_cl_id]);
  },
  async afterDelete({ trx, actor, writer, current }) {
    for (const [clientId, itemId] of pairsOf(current)) await recompute(trx, actor, clientId, itemId);
    await followDeposit(trx, writer, num(current.bt_id), undefined);
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
    const balance = balances.get(id) ?? { bt_it_id: id, it_name: row.it_name, bt_held: 0, deposit_total: 0, last_date: '' };
    balance.bt_held = num(row.bt_held);
    balance.deposit_total += num(row.bt_deposit);
    balance.last_date = row.bt_move_date;
    balances.set(id, balance);
  }
  return [...balances.values()];
}
