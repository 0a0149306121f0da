/**
 * サーバー履歴 (issue 12): one row per server moved by `server_upd` (設置・交換・引上げ), read on the
 * server's and the customer's detail, newest first.
 */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'server_history', prefix: 'sh_',
    text: ['date', 'kind', 'status', 'note'],
    integer: ['sv_id', 'cl_id', 'sk_id', 'other_sv_id', 'usr_id'],
    sortable: ['sh_date', 'created'],
    indexes: [['deleted', 'sh_sv_id', 'sh_date'], ['deleted', 'sh_cl_id', 'sh_date']],
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_history').ifExists().execute();
}
