/**
 * A customer may be a 代理店 (the sales agency that brought other customers): `cl_dairiten_flag`.
 * A customer's 代理店 (`cl_dairiten_id`) is chosen among those (`mt_dairiten`, server/master/masters.ts),
 * so customers already named as someone's agency are marked, and the few agencies are found by index.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('client').addColumn('cl_dairiten_flag', 'integer').execute();
  await sql`UPDATE client SET cl_dairiten_flag = 1 WHERE cl_id IN (SELECT cl_dairiten_id FROM client WHERE deleted = 0 AND cl_dairiten_id IS NOT NULL)`.execute(db);
  await db.schema.createIndex('client_dairiten_idx').on('client').columns(['cl_dairiten_flag', 'deleted']).execute();
}
