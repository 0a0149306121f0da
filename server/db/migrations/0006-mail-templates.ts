/** Mail templates (メールテンプレート): subject and body with placeholders, for a customer or an order. */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable, uniqueLive } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'mail_template', prefix: 'ml_',
    text: ['name', 'category', 'target', 'subject', 'body', 'note'],
    integer: ['active'],
    sortable: ['ml_name', 'ml_category', 'ml_target', 'ml_subject', 'created', 'modified'],
  });
  await uniqueLive(db, 'mail_template', ['ml_name']);
}
