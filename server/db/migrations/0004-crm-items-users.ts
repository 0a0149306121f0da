/**
 * Contacts, sales reports, daily reports, agreements and items (issue 3), and the user table made a
 * resource: its password column takes the secret-field name, and it gets a keyword column and index.
 */
import { sql, type Kysely } from 'kysely';
import { searchKey } from '../../../lib/text';
import type { DialectName } from '../../config';
import { createResourceTable, keywordIndex, uniqueLive } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'contact', prefix: 'ct_',
    text: ['uketsuke_date', 'channel', 'caller', 'category', 'subject', 'content', 'status', 'follow_date', 'done_date'],
    integer: ['cl_id', 'usr_id'],
    sortable: ['ct_uketsuke_date', 'ct_status', 'ct_follow_date', 'created', 'modified'],
    indexes: [['ct_cl_id', 'deleted', 'ct_id'], ['ct_usr_id', 'deleted']],
  });
  await createResourceTable(db, dialect, {
    table: 'report', prefix: 'rp_',
    text: ['report_date', 'kind', 'title', 'content', 'result', 'next_action', 'next_date'],
    integer: ['cl_id', 'usr_id'],
    sortable: ['rp_report_date', 'rp_kind', 'rp_result', 'rp_next_date', 'created', 'modified'],
    indexes: [['rp_cl_id', 'deleted', 'rp_id'], ['rp_usr_id', 'deleted']],
  });
  await createResourceTable(db, dialect, {
    table: 'daily', prefix: 'dr_',
    text: ['report_date', 'start_time', 'end_time', 'content', 'issues', 'plan', 'manager_comment'],
    integer: ['usr_id', 'visits', 'deliveries', 'new_contracts', 'checked'],
    sortable: ['dr_report_date', 'dr_visits', 'dr_deliveries', 'dr_new_contracts', 'created', 'modified'],
  });
  await uniqueLive(db, 'daily', ['dr_usr_id', 'dr_report_date']);
  await createResourceTable(db, dialect, {
    table: 'agreement', prefix: 'ag_',
    text: ['agreement_no', 'contract_type', 'status', 'contract_date', 'start_date', 'end_date', 'server_model', 'cancel_date', 'cancel_reason', 'note'],
    integer: ['cl_id', 'server_count', 'rental_fee', 'maintenance_fee', 'min_order', 'free_skips', 'pause_fee', 'deposit', 'cancel_fee'],
    sortable: ['ag_agreement_no', 'ag_contract_date', 'ag_status', 'ag_rental_fee', 'created', 'modified'],
    indexes: [['ag_cl_id', 'deleted', 'ag_id']],
  });
  await uniqueLive(db, 'agreement', ['ag_agreement_no']);
  await createResourceTable(db, dialect, {
    table: 'item', prefix: 'it_',
    text: ['code', 'name', 'kana', 'class', 'unit', 'tax_class', 'note'],
    integer: ['price', 'cost', 'active', 'sort', 'returnable', 'deposit', 'stock_tracked', 'reorder_point'],
    sortable: ['it_code', 'it_name', 'it_kana', 'it_class', 'it_price', 'it_tax_class', 'it_sort', 'created', 'modified'],
  });
  await uniqueLive(db, 'item', ['it_code']);

  await db.schema.alterTable('user').renameColumn('user_password_hash', 'user_password').execute();
  await db.schema.alterTable('user').addColumn('user_search', 'text', (c) => c.notNull().defaultTo('')).execute();
  const users = await sql<{ user_id: number; user_name: string; user_kana: string; user_email: string; user_team: string }>`
    SELECT user_id, user_name, user_kana, user_email, user_team FROM "user"`.execute(db);
  for (const u of users.rows) {
    const text = searchKey([u.user_name, u.user_kana, u.user_email, u.user_team].filter(Boolean).join(' '));
    await sql`UPDATE "user" SET user_search = ${text} WHERE user_id = ${u.user_id}`.execute(db);
  }
  await db.schema.createIndex('user_deleted_id_idx').on('user').columns(['deleted', 'user_id']).execute();
  await keywordIndex(db, dialect, 'user', 'user_id', 'user_search');
}
