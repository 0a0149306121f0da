/**
 * The delivery fee as a line of its own on orders (issue 12: "so that every yen of a slip is in a line with its
 * class and rate"): an order's 送料 becomes a stored line of `order_detail` marked `odd_fee = 1` — no item
 * (`odd_it_id` may now be NULL, and only on the fee line: a CHECK), name 送料, one of it at the fee's unit price
 * (tax-exclusive, ×(100 + rate)/100 for 内税), class standard, the standard rate of the order date. The order's
 * save derives it from `od_delivery_fee` (server/orders/order-policy.ts); its totals, its sales slip and the
 * invoice sum the same lines.
 *
 * Existing orders (live or deleted) with a fee get their fee line after their last line. A processed order whose
 * slip carries a 送料 line gets exactly that line's price, amount and rate (what was billed); any other order the
 * line the save would derive now (`feeLine` in the customer's terms, the standard rate of the order date — the
 * rule the stored totals were computed by). Idempotent: an order that has its fee line is left alone.
 *
 * SQLite cannot drop a NOT NULL: the table is rebuilt (same columns, ids and indexes; nothing references it).
 */
import { sql, type Kysely } from 'kysely';
import { moneyTermsOf } from '../../../lib/money/totals';
import { FEE_LINE_NAME, feeLine } from '../../../lib/orders/totals';
import { rateOn, taxPeriodOf } from '../../../lib/tax';
import type { DialectName } from '../../config';
import { withId } from './resource-table';

/** Orders read and fee lines written per statement. */
const CHUNK = 1000;

async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  await withId(db.schema.createTable('order_detail_0046'), 'odd_id', 'sqlite')
    .addColumn('odd_od_id', 'integer', (c) => c.notNull().references('orders.od_id'))
    .addColumn('odd_sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('odd_it_id', 'integer', (c) => c.references('item.it_id'))
    .addColumn('odd_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('odd_quantity', 'integer', (c) => c.notNull())
    .addColumn('odd_price', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('odd_amount', 'integer', (c) => c.notNull())
    .addColumn('odd_tax_class', 'text', (c) => c.notNull())
    .addColumn('odd_tax_rate', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('odd_job_id', 'integer')
    .addColumn('odd_fee', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('order_detail_item_or_fee', sql`odd_it_id IS NOT NULL OR odd_fee = 1`)
    .execute();
  const columns = sql.raw('odd_id, odd_od_id, odd_sort, odd_it_id, odd_name, odd_quantity, odd_price, odd_amount, odd_tax_class, odd_tax_rate, created, odd_job_id');
  await sql`INSERT INTO order_detail_0046 (${columns}) SELECT ${columns} FROM order_detail`.execute(db);
  await sql`DROP TABLE order_detail`.execute(db);
  await sql`ALTER TABLE order_detail_0046 RENAME TO order_detail`.execute(db);
  await db.schema.createIndex('order_detail_od_idx').on('order_detail').columns(['odd_od_id', 'odd_sort']).execute();
  await db.schema.createIndex('order_detail_it_idx').on('order_detail').columns(['odd_it_id']).execute();
  await sql`CREATE INDEX order_detail_job_idx ON order_detail (odd_job_id) WHERE odd_job_id IS NOT NULL`.execute(db);
}

type FeeOrder = {
  od_id: number;
  od_date: string;
  od_delivery_fee: number;
  created: string;
  last_sort: number | null;
  cl_tanka_type: string | null;
  cl_kake_ritu: number | null;
  cl_kin_kiri: string | null;
  cl_zei_kiri: string | null;
  cl_zei_ten: string | null;
};

/** Adds the fee line of every order with a fee that has none. */
export async function addFeeLines(db: Kysely<unknown>): Promise<void> {
  const taxRows = await sql<Record<string, unknown>>`SELECT * FROM tax_rate WHERE deleted = 0 ORDER BY tx_valid_from, tx_id`.execute(db);
  const periods = taxRows.rows.flatMap((row) => taxPeriodOf(row) ?? []);
  for (let after = 0; ;) {
    const { rows } = await sql<FeeOrder>`SELECT o.od_id, o.od_date, o.od_delivery_fee, o.created,
        (SELECT MAX(d.odd_sort) FROM order_detail d WHERE d.odd_od_id = o.od_id) AS last_sort,
        c.cl_tanka_type, c.cl_kake_ritu, c.cl_kin_kiri, c.cl_zei_kiri, c.cl_zei_ten
      FROM orders o LEFT JOIN client c ON c.cl_id = o.od_cl_id
      WHERE o.od_id > ${after} AND o.od_delivery_fee IS NOT NULL AND o.od_delivery_fee <> 0
        AND NOT EXISTS (SELECT 1 FROM order_detail f WHERE f.odd_od_id = o.od_id AND f.odd_fee = 1)
      ORDER BY o.od_id LIMIT ${CHUNK}`.execute(db);
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1].od_id);
    const billed = await sql<{ sl_od_id: number; sld_price: number; sld_amount: number; sld_tax_rate: number }>`
      SELECT s.sl_od_id, d.sld_price, d.sld_amount, d.sld_tax_rate FROM sales s JOIN sales_detail d ON d.sld_sl_id = s.sl_id
      WHERE s.deleted = 0 AND s.sl_od_id IN (${sql.join(rows.map((r) => Number(r.od_id)))}) AND d.sld_it_id IS NULL AND d.sld_name = ${FEE_LINE_NAME}`.execute(db);
    const onSlip = new Map(billed.rows.map((r) => [Number(r.sl_od_id), r]));
    const lines = rows.map((order) => {
      const slip = onSlip.get(Number(order.od_id));
      const line = slip
        ? { price: Number(slip.sld_price), amount: Number(slip.sld_amount), taxRate: Number(slip.sld_tax_rate) }
        : feeLine(Number(order.od_delivery_fee), rateOn(periods, 'standard', String(order.od_date)) ?? 0, moneyTermsOf(order));
      return sql`(${Number(order.od_id)}, ${Number(order.last_sort ?? 0) + 1}, NULL, ${FEE_LINE_NAME}, 1, ${line.price}, ${line.amount}, 'standard', ${line.taxRate}, ${String(order.created)}, 1)`;
    });
    await sql`INSERT INTO order_detail (odd_od_id, odd_sort, odd_it_id, odd_name, odd_quantity, odd_price, odd_amount, odd_tax_class, odd_tax_rate, created, odd_fee)
      VALUES ${sql.join(lines)}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE order_detail ALTER COLUMN odd_it_id DROP NOT NULL`.execute(db);
    await sql`ALTER TABLE order_detail ADD COLUMN odd_fee integer NOT NULL DEFAULT 0`.execute(db);
    await sql`ALTER TABLE order_detail ADD CONSTRAINT order_detail_item_or_fee CHECK (odd_it_id IS NOT NULL OR odd_fee = 1)`.execute(db);
  } else {
    await rebuildSqlite(db);
  }
  await addFeeLines(db);
}
