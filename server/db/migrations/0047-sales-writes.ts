/**
 * Sales writes (issue 12). One live sales slip per order ("From orders"): a partial unique index on `sales (sl_od_id)` over the live
 * slips that name an order, so the order's move to 処理済 (server/sales/from-order.ts) can never leave two — until now
 * that rested on the order's status update alone. It replaces the plain `sl_od_id` index of 0032 (every lookup of an
 * order's slip asks for the live one).
 *
 * Duplicates are settled first (`settleDuplicates`): of an order's live slips the billed one stays (else the first
 * made), the others are deleted softly with an audit row, and their customers' 売掛残高 are summed again. Two billed
 * slips of one order cannot be settled here: the migration stops and names them.
 *
 * The customer's balance written by every slip and payment: PostgreSQL's `client` table gets a fill factor
 * (`CLIENT_FILLFACTOR`), so those updates stay heap-only (no index entries) where pages have room; existing pages get
 * the room when the table is next rewritten (VACUUM FULL), new ones at once.
 *
 * A customer's payments (`payment_customer_idx`, in place of 0030's `(deleted, py_cl_id, py_date)`): `(deleted, py_cl_id,
 * py_date, py_id, py_amount)` holds the ledger's sum of a customer's payments (index only, as `sales (sl_cl_id, deleted,
 * sl_total)` holds its slips') and `payment_lst` of one customer in its order (date, then id: no sort), as the last
 * payment of `sales_receivable` asks.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { writeAudit } from '../../audit/audit-log';
import { recomputeReceivables } from '../../sales';
import type { DialectName } from '../../config';
import type { Database } from '../schema';

/**
 * PostgreSQL fills new pages of `client` to 70 % only: a customer's 売掛残高 (`cl_uri_zan`, in no index) changes with
 * every slip and payment, and an UPDATE that changes no indexed column is written as a heap-only tuple (no index
 * entry) when its page has room — otherwise every one of the customer's 17 indexes gets a new entry. A rental run
 * updates the balance of every customer it bills (`bench/rental-month.ts`).
 */
export const CLIENT_FILLFACTOR = 70;

/** The call the audit rows of this migration name. */
export const MIGRATION_CALL = 'migration_0047';

interface LiveSlip {
  sl_id: number;
  sl_od_id: number;
  sl_cl_id: number;
  sl_number: string;
  sl_bli_id: number | null;
  modified: string;
}

/**
 * Deletes (softly) every live slip of an order beyond the one that stays, each with its audit row, and sums their
 * customers' 売掛残高 again (the ledger's `recomputeReceivables`); answers how many. Throws, naming them, when an order
 * has two billed slips. Runs inside the migration's transaction.
 * @example await settleDuplicates(db) // 0
 */
export async function settleDuplicates(db: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<LiveSlip>`SELECT sl_id, sl_od_id, sl_cl_id, sl_number, sl_bli_id, modified FROM sales
    WHERE deleted = 0 AND sl_od_id IN (SELECT sl_od_id FROM sales WHERE deleted = 0 AND sl_od_id IS NOT NULL GROUP BY sl_od_id HAVING COUNT(*) > 1)
    ORDER BY sl_od_id, sl_id`.execute(db);
  const byOrder = new Map<number, LiveSlip[]>();
  for (const row of rows) byOrder.set(Number(row.sl_od_id), [...(byOrder.get(Number(row.sl_od_id)) ?? []), row]);
  const extra: LiveSlip[] = [];
  for (const [orderId, slips] of byOrder) {
    const billed = slips.filter((s) => s.sl_bli_id !== null);
    if (billed.length > 1) {
      throw new Error(`受注 ID ${orderId} に請求済みの売上伝票が複数あります（${billed.map((s) => s.sl_number).join('、')}）。どちらかの請求を取り消してから移行してください。`);
    }
    const kept = billed[0] ?? slips[0];
    extra.push(...slips.filter((s) => s !== kept));
  }
  const at = new Date().toISOString();
  const trx = db as unknown as Transaction<Database>;
  for (const slip of extra) {
    await sql`UPDATE sales SET deleted = 1, modified = ${at} WHERE sl_id = ${slip.sl_id}`.execute(db);
    await writeAudit(trx, { userId: null, call: MIGRATION_CALL, table: 'sales', recordId: Number(slip.sl_id), changes: { deleted: [0, 1], modified: [slip.modified, at] }, at });
  }
  await recomputeReceivables(trx, extra.map((s) => s.sl_cl_id));
  return extra.length;
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await sql`ALTER TABLE client SET (fillfactor = ${sql.raw(String(CLIENT_FILLFACTOR))})`.execute(db);
  await settleDuplicates(db);
  await sql`CREATE UNIQUE INDEX sales_order_once_idx ON sales (sl_od_id) WHERE deleted = 0 AND sl_od_id IS NOT NULL`.execute(db);
  await db.schema.dropIndex('sales_sl_od_id_idx').ifExists().execute();
  await db.schema.createIndex('payment_customer_idx').ifNotExists().on('payment').columns(['deleted', 'py_cl_id', 'py_date', 'py_id', 'py_amount']).execute();
  await db.schema.dropIndex('payment_deleted_py_cl_id_py_date_idx').ifExists().execute();
}
