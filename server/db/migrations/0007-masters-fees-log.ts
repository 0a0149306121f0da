/**
 * System settings (issue: masters, delivery fees, log):
 * - `master_option` becomes a resource: keyword column `mo_search`, and a code is unique within
 *   its master among the live rows;
 * - `delivery_fee`: one row per prefecture (JIS X 0401 code) with its fee and remote-area
 *   surcharge, seeded with the demo company's tariff;
 * - `audit_log` becomes a read-only resource: `deleted`, `modified`, keyword column `log_search`,
 *   and the indexes that keep its list fast at millions of rows (newest first, by date, by user,
 *   by user and date, by call; sorted by user, call or kind of data).
 */
import { sql, type Kysely } from 'kysely';
import { PREFECTURES } from '../../../lib/prefectures';
import { searchKey } from '../../../lib/text';
import type { DialectName } from '../../config';
import { createResourceTable, keywordIndex, sortIndexes, uniqueLive } from './resource-table';

/** The tariff (yen): 本州 550, 四国 660, 北海道・九州 880, 沖縄 1,320; surcharges where islands are served. */
const FEE_BY_REGION: readonly [codes: readonly string[], fee: number][] = [
  [['01'], 880],
  [['36', '37', '38', '39'], 660],
  [['40', '41', '42', '43', '44', '45', '46'], 880],
  [['47'], 1320],
];
const REMOTE: Record<string, [fee: number, note: string]> = {
  '01': [1100, '利尻・礼文・奥尻島などの離島は加算'],
  '13': [1100, '伊豆諸島・小笠原諸島は加算'],
  '15': [550, '佐渡島・粟島は加算'],
  '28': [550, '淡路島・家島諸島は加算'],
  '32': [880, '隠岐諸島は加算'],
  '37': [550, '小豆島・直島などは加算'],
  '42': [1100, '五島列島・壱岐・対馬は加算'],
  '46': [1320, '種子島・屋久島・奄美群島などは加算'],
  '47': [1650, '宮古島・石垣島など本島以外の離島は加算'],
};
const MAINLAND_FEE = 550;

async function seedDeliveryFees(db: Kysely<unknown>): Promise<void> {
  const stamp = new Date().toISOString();
  for (const { code, name } of PREFECTURES) {
    const fee = FEE_BY_REGION.find(([codes]) => codes.includes(code))?.[1] ?? MAINLAND_FEE;
    const [remote, note] = REMOTE[code] ?? [0, ''];
    await sql`INSERT INTO delivery_fee (df_pref_code, df_pref_name, df_fee, df_remote_fee, df_note, df_search, created, modified, deleted)
      VALUES (${code}, ${name}, ${fee}, ${remote}, ${note}, ${searchKey([name, note].filter(Boolean).join(' '))}, ${stamp}, ${stamp}, 0)`.execute(db);
  }
}

/** Fills a keyword column from the rows' own text, a chunk of ids at a time. */
async function backfillSearch(db: Kysely<unknown>, table: string, id: string, search: string, columns: readonly string[]): Promise<void> {
  for (let last = 0; ; ) {
    const { rows } = await sql<Record<string, string | number | null>>`
      SELECT ${sql.ref(id)}, ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${sql.table(table)} WHERE ${sql.ref(id)} > ${last} ORDER BY ${sql.ref(id)} LIMIT 1000`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const text = searchKey(columns.map((c) => row[c]).filter((v) => v !== null && v !== '').join(' '));
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(search)} = ${text} WHERE ${sql.ref(id)} = ${row[id]}`.execute(db);
    }
    last = Number(rows[rows.length - 1][id]);
  }
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('master_option').addColumn('mo_search', 'text', (c) => c.notNull().defaultTo('')).execute();
  await backfillSearch(db, 'master_option', 'mo_id', 'mo_search', ['mo_value', 'mo_text']);
  await uniqueLive(db, 'master_option', ['mo_table', 'mo_value']);

  await createResourceTable(db, dialect, {
    table: 'delivery_fee', prefix: 'df_',
    text: ['pref_code', 'pref_name', 'note'],
    integer: ['fee', 'remote_fee'],
    sortable: ['df_pref_code', 'df_fee', 'df_remote_fee', 'modified'],
  });
  await uniqueLive(db, 'delivery_fee', ['df_pref_code']);
  await seedDeliveryFees(db);

  await db.schema.alterTable('audit_log').addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('audit_log').addColumn('modified', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('audit_log').addColumn('log_search', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`UPDATE audit_log SET modified = created`.execute(db);
  await backfillSearch(db, 'audit_log', 'log_id', 'log_search', ['log_call', 'log_table', 'log_changes']);
  // Every list reads live rows newest first (created, then id): each sort and each common filter
  // walks one index in list order, so a page stops after n rows. (created) alone is superseded.
  await db.schema.dropIndex('audit_log_created_idx').execute();
  await sortIndexes(db, 'audit_log', 'log_id', ['created', 'log_user_id', 'log_call', 'log_table']);
  for (const column of ['log_user_id', 'log_call']) {
    await db.schema.createIndex(`audit_log_${column}_created_idx`).on('audit_log').columns(['deleted', column, 'created', 'log_id']).execute();
  }
  await keywordIndex(db, dialect, 'audit_log', 'log_id', 'log_search');
}
