/**
 * Row counters (issue 21): `row_count` and the triggers that keep it (migrations/row-counts.ts), started for every
 * resource table with a list — except the audit log, which every write transaction inserts into (its counter would be
 * the one row all writers share) and the single-record settings — from the rows each holds now. The status columns
 * are those the lists are split by: the order lists per 状態, the master lists per table, and the 状態 filters of
 * customers, contacts, agreements and water servers.
 */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { countRows, createRowCountTable, type CountedTable } from './row-counts';

/** The tables this migration counts (server/resources/list-count.ts reads their counters). */
export const COUNTED_0090: readonly CountedTable[] = [
  { table: 'client', status: 'cl_status' },
  { table: 'orders', status: 'od_status' },
  { table: 'contact', status: 'ct_status' },
  { table: 'report' },
  { table: 'daily' },
  { table: 'agreement', status: 'ag_status' },
  { table: 'item' },
  { table: 'user' },
  { table: 'role' },
  { table: 'mail_template' },
  { table: 'master_option', status: 'mo_table' },
  { table: 'delivery_fee' },
  { table: 'warehouse' },
  { table: 'water_server', status: 'sv_status' },
  { table: 'bottle' },
  { table: 'tax_rate' },
  { table: 'hod_pause' },
  { table: 'hod_report' },
  { table: 'payment' },
  { table: 'sales' },
  { table: 'billing' },
  { table: 'server_history' },
  { table: 'notice' },
];

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createRowCountTable(db, dialect);
  for (const counted of COUNTED_0090) await countRows(db, dialect, counted);
}
