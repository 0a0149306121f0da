/**
 * Regular-delivery orders (issue 4): the customer's regular item (`cl_haiso_item`, the item a
 * generated order carries), and the scheduled day a generated order was made for (`od_hod_date`).
 * A customer has at most one live generated order per scheduled day: generating twice creates
 * nothing twice (server/hod/generate.ts checks first; this index catches a race).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('client').addColumn('cl_haiso_item', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('od_hod_date', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`CREATE UNIQUE INDEX orders_hod_once_idx ON orders (od_cl_id, od_hod_date) WHERE deleted = 0 AND od_hod_date <> ''`.execute(db);
  await db.schema.createIndex('orders_delivery_list_idx').on('orders').columns(['deleted', 'od_delivery_date', 'od_cl_id']).execute();
}
