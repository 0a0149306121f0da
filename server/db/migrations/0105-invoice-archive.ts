/**
 * The invoice archive (電子帳簿保存法, lib/resources/archive.ts): what left the product is kept unaltered.
 * - `invoice_archive` (`ar_*`, a resource table): one row per issued version of an invoice, with its stored file
 *   (`ar_sf_id`, its size and SHA-256) and the search keys 取引年月日 (`ar_date`), 取引金額 (`ar_amount`), 取引先
 *   (`ar_cl_*`). The database refuses to delete one (until its `ar_keep_until`) or to change one, except the one move a
 *   締め戻し makes: 発行済 → 取消 with who, when and why.
 * - `archive_delivery` (`ad_*`): each time a version left (print, batch, mail, page, PINT), to whom and by whom; never
 *   changed, never deleted.
 * - The stored files of kind `invoice-archive`, once complete, and their chunks cannot be changed or deleted before
 *   they expire (their expiry is the version's `ar_keep_until`).
 * - `invoice_link` (`il_*`): the download page's links (server/billing/page.ts): a customer's token, kept as its SHA-256
 *   only, with its expiry and, once revoked, who and when.
 * - `client.cl_invoice_delivery`: 請求書の送付方法 ('1' 郵送, '2' メール添付, '3' メール（ダウンロード）, '4' デジタルインボイス),
 *   and `client.cl_peppol_id`: the customer's Peppol address for digital invoices (`0188:…`, scheme and identifier).
 * One trigger set per dialect, the same rules.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable, withId } from './resource-table';

/**
 * The columns no update may change: everything but the state and the cancellation (changed together, once: 発行済 →
 * 取消), the JP PINT file (set once, when the version is first exported as a digital invoice) and `modified`.
 */
const FIXED = [
  'ar_id', 'ar_number', 'ar_version', 'ar_date', 'ar_amount', 'ar_cl_id', 'ar_cl_code', 'ar_cl_name', 'ar_cl_kana', 'ar_sime_gp', 'ar_sime_ym',
  'ar_bl_id', 'ar_replaces', 'ar_replaces_number', 'ar_file_name', 'ar_sf_id', 'ar_size', 'ar_pages', 'ar_sha256', 'ar_usr_id', 'ar_keep_until', 'ar_search',
  'created', 'deleted',
];
/** The kind of the archive's stored files (server/files ARCHIVE_FILE_KIND; a migration keeps its own copy of what it writes). */
const ARCHIVE_KIND = 'invoice-archive';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'invoice_archive', prefix: 'ar_',
    text: ['number', 'state', 'date', 'cl_code', 'cl_name', 'cl_kana', 'sime_gp', 'sime_ym', 'replaces_number', 'file_name', 'sha256', 'keep_until', 'cancelled_at', 'cancel_reason'],
    integer: ['version', 'amount', 'cl_id', 'bl_id', 'replaces', 'sf_id', 'size', 'pages', 'pint_sf_id', 'usr_id', 'cancelled_by'],
    sortable: ['ar_number', 'ar_date', 'ar_amount', 'ar_cl_code', 'created'],
    indexes: [['ar_bl_id', 'ar_state'], ['ar_cl_id', 'ar_sime_gp', 'ar_sime_ym'], ['ar_replaces']],
  });
  await sql`CREATE UNIQUE INDEX invoice_archive_sf_uq ON invoice_archive (ar_sf_id)`.execute(db);

  await withId(db.schema.createTable('archive_delivery'), 'ad_id', dialect)
    .addColumn('ad_ar_id', 'integer', (c) => c.notNull().references('invoice_archive.ar_id'))
    .addColumn('ad_how', 'text', (c) => c.notNull())
    .addColumn('ad_to', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ad_usr_id', 'integer')
    .addColumn('ad_job_id', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('archive_delivery_ar_idx').on('archive_delivery').columns(['ad_ar_id', 'ad_id']).execute();

  await withId(db.schema.createTable('invoice_link'), 'il_id', dialect)
    .addColumn('il_cl_id', 'integer', (c) => c.notNull())
    .addColumn('il_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('il_expires', 'text', (c) => c.notNull())
    .addColumn('il_usr_id', 'integer')
    .addColumn('il_revoked_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('il_revoked_by', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_link_cl_idx').on('invoice_link').columns(['il_cl_id', 'il_expires']).execute();

  await db.schema.alterTable('client').addColumn('cl_invoice_delivery', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('client').addColumn('cl_peppol_id', 'text', (c) => c.notNull().defaultTo('')).execute();

  if (dialect === 'postgres') await postgresGuards(db);
  else await sqliteGuards(db);
}

async function postgresGuards(db: Kysely<unknown>): Promise<void> {
  const row = (of: 'NEW' | 'OLD') => FIXED.map((c) => `${of}.${c}`).join(', ');
  const today = `to_char(now() AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD')`;
  const nowIso = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  await sql.raw(`CREATE FUNCTION invoice_archive_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.ar_keep_until >= ${today} THEN
      RAISE EXCEPTION 'invoice_archive: 保存期間中の請求書（%）は削除できません', OLD.ar_number USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF ROW(${row('NEW')}) IS DISTINCT FROM ROW(${row('OLD')}) THEN
    RAISE EXCEPTION 'invoice_archive: 保存された請求書（%）は変更できません', OLD.ar_number USING ERRCODE = 'P0001';
  END IF;
  IF OLD.ar_pint_sf_id IS NOT NULL AND NEW.ar_pint_sf_id IS DISTINCT FROM OLD.ar_pint_sf_id THEN
    RAISE EXCEPTION 'invoice_archive: 請求書（%）のデジタルインボイスは変更できません', OLD.ar_number USING ERRCODE = 'P0001';
  END IF;
  IF NEW.ar_state IS DISTINCT FROM OLD.ar_state THEN
    IF NOT (OLD.ar_state = '1' AND NEW.ar_state = '2' AND NEW.ar_cancelled_at <> '' AND NEW.ar_cancelled_by IS NOT NULL) THEN
      RAISE EXCEPTION 'invoice_archive: 請求書（%）は発行済から取消にだけ変えられます', OLD.ar_number USING ERRCODE = 'P0001';
    END IF;
  ELSIF ROW(NEW.ar_cancelled_at, NEW.ar_cancelled_by, NEW.ar_cancel_reason) IS DISTINCT FROM ROW(OLD.ar_cancelled_at, OLD.ar_cancelled_by, OLD.ar_cancel_reason) THEN
    RAISE EXCEPTION 'invoice_archive: 請求書（%）の取消は変更できません', OLD.ar_number USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$`).execute(db);
  await sql`CREATE TRIGGER invoice_archive_guard BEFORE UPDATE OR DELETE ON invoice_archive FOR EACH ROW EXECUTE FUNCTION invoice_archive_guard()`.execute(db);

  await sql.raw(`CREATE FUNCTION archive_delivery_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'archive_delivery: 請求書の送付履歴は変更・削除できません' USING ERRCODE = 'P0001';
END $$`).execute(db);
  await sql`CREATE TRIGGER archive_delivery_guard BEFORE UPDATE OR DELETE ON archive_delivery FOR EACH ROW EXECUTE FUNCTION archive_delivery_guard()`.execute(db);

  await sql.raw(`CREATE FUNCTION archive_file_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.sf_kind = '${ARCHIVE_KIND}' AND OLD.sf_complete = 1 AND (TG_OP = 'UPDATE' OR OLD.expires > ${nowIso}) THEN
    RAISE EXCEPTION 'stored_file: 保存された請求書のファイル（%）は変更・削除できません', OLD.sf_id USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$`).execute(db);
  await sql`CREATE TRIGGER archive_file_guard BEFORE UPDATE OR DELETE ON stored_file FOR EACH ROW EXECUTE FUNCTION archive_file_guard()`.execute(db);

  await sql.raw(`CREATE FUNCTION archive_chunk_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  file_id integer := CASE WHEN TG_OP = 'INSERT' THEN NEW.fc_sf_id ELSE OLD.fc_sf_id END;
BEGIN
  IF EXISTS (SELECT 1 FROM stored_file WHERE sf_id = file_id AND sf_kind = '${ARCHIVE_KIND}' AND sf_complete = 1
             AND (TG_OP <> 'DELETE' OR expires > ${nowIso})) THEN
    RAISE EXCEPTION 'file_chunk: 保存された請求書のファイル（%）は変更・削除できません', file_id USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$`).execute(db);
  await sql`CREATE TRIGGER archive_chunk_guard BEFORE INSERT OR UPDATE OR DELETE ON file_chunk FOR EACH ROW EXECUTE FUNCTION archive_chunk_guard()`.execute(db);
}

async function sqliteGuards(db: Kysely<unknown>): Promise<void> {
  const changed = FIXED.map((c) => `NEW.${c} IS NOT OLD.${c}`).join(' OR ');
  const today = `date('now', '+9 hours')`;
  const nowIso = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  await sql.raw(`CREATE TRIGGER invoice_archive_no_delete BEFORE DELETE ON invoice_archive
WHEN OLD.ar_keep_until >= ${today}
BEGIN SELECT RAISE(ABORT, 'invoice_archive: 保存期間中の請求書は削除できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER invoice_archive_fixed BEFORE UPDATE ON invoice_archive
WHEN ${changed}
BEGIN SELECT RAISE(ABORT, 'invoice_archive: 保存された請求書は変更できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER invoice_archive_pint BEFORE UPDATE ON invoice_archive
WHEN OLD.ar_pint_sf_id IS NOT NULL AND NEW.ar_pint_sf_id IS NOT OLD.ar_pint_sf_id
BEGIN SELECT RAISE(ABORT, 'invoice_archive: 請求書のデジタルインボイスは変更できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER invoice_archive_state BEFORE UPDATE ON invoice_archive
WHEN (NEW.ar_state IS NOT OLD.ar_state AND NOT (OLD.ar_state = '1' AND NEW.ar_state = '2' AND NEW.ar_cancelled_at <> '' AND NEW.ar_cancelled_by IS NOT NULL))
  OR (NEW.ar_state IS OLD.ar_state AND (NEW.ar_cancelled_at IS NOT OLD.ar_cancelled_at OR NEW.ar_cancelled_by IS NOT OLD.ar_cancelled_by OR NEW.ar_cancel_reason IS NOT OLD.ar_cancel_reason))
BEGIN SELECT RAISE(ABORT, 'invoice_archive: 請求書は発行済から取消にだけ変えられます'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER archive_delivery_no_update BEFORE UPDATE ON archive_delivery
BEGIN SELECT RAISE(ABORT, 'archive_delivery: 請求書の送付履歴は変更・削除できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER archive_delivery_no_delete BEFORE DELETE ON archive_delivery
BEGIN SELECT RAISE(ABORT, 'archive_delivery: 請求書の送付履歴は変更・削除できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER archive_file_no_update BEFORE UPDATE ON stored_file
WHEN OLD.sf_kind = '${ARCHIVE_KIND}' AND OLD.sf_complete = 1
BEGIN SELECT RAISE(ABORT, 'stored_file: 保存された請求書のファイルは変更・削除できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER archive_file_no_delete BEFORE DELETE ON stored_file
WHEN OLD.sf_kind = '${ARCHIVE_KIND}' AND OLD.sf_complete = 1 AND OLD.expires > ${nowIso}
BEGIN SELECT RAISE(ABORT, 'stored_file: 保存された請求書のファイルは変更・削除できません'); END`).execute(db);
  const archived = (of: 'NEW' | 'OLD') =>
    `EXISTS (SELECT 1 FROM stored_file WHERE sf_id = ${of}.fc_sf_id AND sf_kind = '${ARCHIVE_KIND}' AND sf_complete = 1`;
  await sql.raw(`CREATE TRIGGER archive_chunk_no_insert BEFORE INSERT ON file_chunk
WHEN ${archived('NEW')})
BEGIN SELECT RAISE(ABORT, 'file_chunk: 保存された請求書のファイルは変更・削除できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER archive_chunk_no_update BEFORE UPDATE ON file_chunk
WHEN ${archived('OLD')})
BEGIN SELECT RAISE(ABORT, 'file_chunk: 保存された請求書のファイルは変更・削除できません'); END`).execute(db);
  await sql.raw(`CREATE TRIGGER archive_chunk_no_delete BEFORE DELETE ON file_chunk
WHEN ${archived('OLD')} AND expires > ${nowIso})
BEGIN SELECT RAISE(ABORT, 'file_chunk: 保存された請求書のファイルは変更・削除できません'); END`).execute(db);
}
