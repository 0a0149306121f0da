/**
 * Regular delivery (HOD) schedules: the customer's week of the month (毎月・曜日指定) and what a
 * Sunday or holiday does to a delivery, the per-customer exceptions (休止期間 / スキップ), and the
 * indexes the schedule preview reads by (scheduled customers; exceptions by end date).
 */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('client').addColumn('cl_haiso_week', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('client').addColumn('cl_haiso_holiday', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('client_haiso_flag_idx').on('client').columns(['cl_haiso_flag', 'deleted', 'cl_id']).execute();

  await createResourceTable(db, dialect, {
    table: 'hod_pause', prefix: 'hp_',
    text: ['kind', 'from_date', 'to_date', 'reason', 'note'],
    integer: ['cl_id'],
    sortable: ['hp_kind', 'hp_from_date', 'hp_to_date', 'created', 'modified'],
    indexes: [['hp_cl_id', 'deleted', 'hp_id'], ['deleted', 'hp_to_date', 'hp_from_date']],
  });
}
