/** お知らせ (notice, lib/resources/notice.ts): shown on the home page to one role (or all) between two days. */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'notice', prefix: 'nt_',
    text: ['title', 'body', 'from', 'to', 'role'],
    integer: [],
    sortable: ['nt_title', 'nt_from', 'nt_to', 'nt_role', 'created', 'modified'],
  });
}
