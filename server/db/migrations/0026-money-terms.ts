/**
 * The exact money computation (issue 12, lib/money/totals): unit prices carry two decimals (86.40円 from a 掛率),
 * so an order line's `odd_price` becomes a double (yen with two decimals; computed in integer sen), and the
 * customer gets 開始売掛残高 (`cl_opening_balance`, money, may be negative) and its date.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('client').addColumn('cl_opening_balance', 'integer').execute();
  await db.schema.alterTable('client').addColumn('cl_opening_balance_date', 'text', (c) => c.notNull().defaultTo('')).execute();

  if (dialect === 'postgres') {
    await sql`ALTER TABLE order_detail ALTER COLUMN odd_price TYPE double precision`.execute(db);
    return;
  }
  // SQLite changes a column's type by a new column: odd_price is in no index, constraint or trigger, so it drops.
  await db.schema.alterTable('order_detail').addColumn('odd_price_real', 'real', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE order_detail SET odd_price_real = odd_price`.execute(db);
  await db.schema.alterTable('order_detail').dropColumn('odd_price').execute();
  await db.schema.alterTable('order_detail').renameColumn('odd_price_real', 'odd_price').execute();
}
