/**
 * The Yayoi journal (issue 14):
 * - `yayoi_setting` (resource `yayoisetting`, `ys_*`): one record (id 1), the 税区分 and 勘定科目 the journal writes, stored
 *   with the defaults of lib/resources/yayoi-setting.ts (課税売上内10% / 課税売上内軽減8% / 非課売上 / 対象外; 売掛金, 売上高 …).
 * - `accounting_export` (`ae_*`): each journal exported — its period, when, who, how many records, slips and payments, and
 *   whether it was a 再出力 of a period exported before (`ae_reexport`). An overlapping period needs `reexport=1`.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { YAYOI_DEFAULTS } from '../../../lib/resources/yayoi-setting';
import { createResourceTable, withId } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const names = Object.keys(YAYOI_DEFAULTS);
  await createResourceTable(db, dialect, { table: 'yayoi_setting', prefix: 'ys_', text: names, integer: [], sortable: ['modified'] });
  const stamp = new Date().toISOString();
  const columns = names.map((name) => sql.ref(`ys_${name}`));
  const values = Object.values(YAYOI_DEFAULTS).map((value) => sql`${value}`);
  await sql`INSERT INTO yayoi_setting (${sql.join(columns)}, created, modified, deleted) VALUES (${sql.join(values)}, ${stamp}, ${stamp}, 0)`.execute(db);

  await withId(db.schema.createTable('accounting_export'), 'ae_id', dialect)
    .addColumn('ae_kind', 'text', (c) => c.notNull())
    .addColumn('ae_from', 'text', (c) => c.notNull())
    .addColumn('ae_to', 'text', (c) => c.notNull())
    .addColumn('ae_usr_id', 'integer')
    .addColumn('ae_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ae_slips', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ae_payments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ae_reexport', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  // The overlap check reads a kind's exports by period.
  await db.schema.createIndex('accounting_export_period_idx').on('accounting_export').columns(['ae_kind', 'ae_from', 'ae_to']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('accounting_export').ifExists().execute();
  await db.schema.dropTable('yayoi_setting').ifExists().execute();
}
