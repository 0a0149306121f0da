/**
 * Late entries in the Yayoi journal (issue 19): a slip or payment dated in a period exported already (entered after the
 * export) goes into the next export, whatever its date. Each slip and payment remembers the export that first wrote it
 * (`sl_ae_id`, `py_ae_id`; partial indexes of those never exported, by date), and an export counts those dated before
 * its period (`ae_late`). Existing databases: every live slip and payment dated in an export's period is marked with
 * the first such export.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sales').addColumn('sl_ae_id', 'integer').execute();
  await db.schema.alterTable('payment').addColumn('py_ae_id', 'integer').execute();
  await db.schema.alterTable('accounting_export').addColumn('ae_late', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE sales SET sl_ae_id = (SELECT MIN(ae_id) FROM accounting_export WHERE ae_kind = 'yayoi' AND sales.sl_date >= ae_from AND sales.sl_date <= ae_to)
    WHERE deleted = 0 AND EXISTS (SELECT 1 FROM accounting_export WHERE ae_kind = 'yayoi' AND sales.sl_date >= ae_from AND sales.sl_date <= ae_to)`.execute(db);
  await sql`UPDATE payment SET py_ae_id = (SELECT MIN(ae_id) FROM accounting_export WHERE ae_kind = 'yayoi' AND payment.py_date >= ae_from AND payment.py_date <= ae_to)
    WHERE deleted = 0 AND EXISTS (SELECT 1 FROM accounting_export WHERE ae_kind = 'yayoi' AND payment.py_date >= ae_from AND payment.py_date <= ae_to)`.execute(db);
  await sql`CREATE INDEX sales_unexported_idx ON sales (sl_date) WHERE sl_ae_id IS NULL AND deleted = 0`.execute(db);
  await sql`CREATE INDEX payment_unexported_idx ON payment (py_date) WHERE py_ae_id IS NULL AND deleted = 0`.execute(db);
}
