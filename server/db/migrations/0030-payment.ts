/**
 * 入金伝票 (issue 12): the `payment` resource table. A customer's payments are listed by customer and date
 * (the customer's 入金 tab, the coming balance and allocation queries).
 */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'payment', prefix: 'py_',
    text: ['date', 'kind', 'bank', 'biko'],
    integer: ['cl_id', 'amount'],
    sortable: ['py_date', 'py_kind', 'py_amount', 'created', 'modified'],
    indexes: [['deleted', 'py_cl_id', 'py_date']],
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment').ifExists().execute();
}
