/**
 * 受注取込's natural key (issue 14): `od_import_key`, the 受注キー of the file an order was imported from (NULL for an
 * order entered by hand or generated), unique among live orders — so the same file imported twice creates nothing twice
 * (server/imports/kinds/order.ts skips a key that is there) and two imports at once cannot both write one key.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('od_import_key', 'text').execute();
  await sql`CREATE UNIQUE INDEX orders_import_key_idx ON orders (od_import_key) WHERE deleted = 0 AND od_import_key IS NOT NULL`.execute(db);
}
