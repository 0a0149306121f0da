/**
 * 配送実績 (issue 4): the delivery rounds (`hod_report`) and their stops (`hod_report_stop`, replaced
 * as a whole by the round's save; each stop points at the bottle movement its bottles are booked as).
 */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable, withId } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'hod_report', prefix: 'hr_',
    text: ['date', 'team', 'route', 'note'],
    integer: ['usr_id', 'stop_count', 'delivered_total', 'collected_total', 'cash_total'],
    sortable: ['hr_date', 'hr_team', 'hr_route', 'hr_cash_total', 'created', 'modified'],
    indexes: [['deleted', 'hr_date', 'hr_usr_id']],
  });
  await withId(db.schema.createTable('hod_report_stop'), 'hrs_id', dialect)
    .addColumn('hrs_hr_id', 'integer', (c) => c.notNull().references('hod_report.hr_id'))
    .addColumn('hrs_sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hrs_cl_id', 'integer', (c) => c.notNull().references('client.cl_id'))
    .addColumn('hrs_it_id', 'integer', (c) => c.references('item.it_id'))
    .addColumn('hrs_delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hrs_collected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hrs_cash', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hrs_result', 'text', (c) => c.notNull())
    .addColumn('hrs_note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('hrs_bt_id', 'integer', (c) => c.references('bottle.bt_id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hod_report_stop_hr_idx').on('hod_report_stop').columns(['hrs_hr_id', 'hrs_sort']).execute();
  await db.schema.createIndex('hod_report_stop_cl_idx').on('hod_report_stop').columns(['hrs_cl_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hod_report_stop').ifExists().execute();
  await db.schema.dropTable('hod_report').ifExists().execute();
}
