/**
 * Two order indexes that repeat others: `orders_client_idx` (od_cl_id, deleted, od_id) does the work of
 * the sortable column's (deleted, od_cl_id, od_id), and `orders_delivery_list_idx` (deleted,
 * od_delivery_date, od_cl_id) that of (deleted, od_delivery_date, od_id). Every index is written on every
 * order insert (a month's regular deliveries are tens of thousands), so the copies go.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_client_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS orders_delivery_list_idx`.execute(db);
}
