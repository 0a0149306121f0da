/**
 * The typed shape of the database (docs/architecture.md "Database"). Fixed tables are typed
 * column by column; resource tables (`client`, `orders` …) are typed from their declaration
 * (`RowOf`, lib/resources/row.ts) plus the stored columns it does not name. The generic resource
 * code sees the same connection as tables of cells (`resourceView`).
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import type { RESOURCES, ResourceName } from '../../lib/resources';
import type { ChildRowOf, RowOf, WithColumns } from '../../lib/resources/row';
import type { Stock, StockMove } from '../../lib/stock';
import type { OrderLine } from '../../lib/orders/status';
import type { HodStop } from '../../lib/resources/hod-report';

/** One value of a resource row: TEXT, INTEGER/REAL or NULL. */
export type Cell = string | number | null;
/** A resource row: prefixed columns plus created/modified/deleted. */
export type ResourceRow = Record<string, Cell>;

/** Columns every data table has (ISO-8601 UTC text; deleted 0/1). */
interface Stamps {
  created: string;
  modified: string;
  deleted: Generated<number>;
}

export interface UserTable extends Stamps {
  user_id: Generated<number>;
  user_email: string;
  user_name: string;
  user_kana: string;
  user_role: string;
  user_team: string;
  user_active: Generated<number>;
  /** scrypt hash (the `password` secret field of the user resource). */
  user_password: string;
  user_last_login: string | null;
  user_search: Generated<string>;
}

export interface AuthKeyTable {
  /** sha256 (hex) of the token; the token itself is never stored. */
  ak_hash: string;
  ak_user_id: number;
  ak_expires: string;
  created: string;
}

export interface LoginAttemptTable {
  /** `pair:{ip} {email}`, `account:{email}`, `address:{ip}`, or `known:{ip} {email}` (a past success; server/auth/rate-limit.ts). */
  la_key: string;
  la_failures: number;
  /** The first failure of the current count (of a `known:` row: its first success). */
  la_window_start: string;
  /** The last attempt counted (of a `known:` row: its last success). */
  modified: string;
}

export interface AuditLogTable extends Stamps {
  log_id: Generated<number>;
  log_user_id: number | null;
  log_call: string;
  log_table: string;
  log_record_id: number | null;
  /** JSON text of `{ field: [before, after] }`. */
  log_changes: string;
  /** Keyword text of the `log` resource (call, table, changes). */
  log_search: Generated<string>;
  /** The job that wrote the row (migration 0023), null for a call's write. */
  log_job_id: number | null;
}

export interface SearchTable extends Stamps {
  srch_id: Generated<number>;
  srch_usr_id: number;
  srch_name: string;
  srch_tbl: string;
  srch_kw: string;
  srch_col: string;
  srch_odr: string;
  /** JSON text of the filter object. */
  srch_post_data: string;
}

export interface MasterOptionTable extends Stamps {
  mo_id: Generated<number>;
  mo_table: string;
  mo_value: string;
  mo_text: string;
  mo_flg: number;
  mo_sort: number;
  mo_search: Generated<string>;
}

/** Stock per warehouse × item, and its movements (lib/stock); ids generated. */
export interface StockTable extends Omit<Stock, 'st_id'> {
  st_id: Generated<number>;
}

export interface StockMoveTable extends Omit<StockMove, 'sm_id'> {
  sm_id: Generated<number>;
}

/** An order's lines (lib/orders/status OrderLine); id generated. */
export interface OrderDetailTable extends Omit<OrderLine, 'odd_id'> {
  odd_id: Generated<number>;
  created: string;
  /** The job that wrote the line (migration 0023). */
  odd_job_id: number | null;
}

/** A delivery round's stops (lib/resources/hod-report HodStop); id generated. */
export interface HodReportStopTable extends Omit<HodStop, 'hrs_id'> {
  hrs_id: Generated<number>;
  created: string;
}

/** A counter of live rows (migration 0090, server/db/migrations/row-counts.ts): kept by triggers, summed over its slots. */
export interface RowCountTable {
  rc_table: string;
  rc_column: string;
  rc_value: string;
  rc_slot: number;
  /** bigint: PostgreSQL answers it (and its sum) as text. */
  rc_n: number | string;
}

/** A job (migration 0022; on SQLite in the job file, server/jobs/job-db.ts). JSON columns are text. */
export interface JobTable extends Stamps {
  job_id: Generated<number>;
  job_kind: string;
  job_scope: string;
  job_params: string;
  job_usr_id: number;
  /** The starter's name then (answered without a join: on SQLite the job file holds no users). */
  job_usr_name: string;
  job_state: string;
  job_done: Generated<number>;
  job_total: Generated<number>;
  job_result: string | null;
  job_error: Generated<string>;
  /** 1: a cancel was asked for; the work stops at its next progress report. */
  job_cancel: Generated<number>;
  job_started: string;
  job_finished: Generated<string>;
  job_host: string;
  job_pid: number;
  /** The heartbeat: ISO UTC of the database's clock, written every few seconds while the job runs (migration 0085). */
  job_beat: Generated<string>;
}

/**
 * A resource table for Kysely: its row, every column but the stamps optional in an insert (TEXT columns default
 * to '', number columns to NULL; the id is generated).
 */
type TableOf<R> = { [K in keyof R]: K extends 'created' | 'modified' ? R[K] : Generated<R[K]> };

/** The table of a declared resource: `RowOf` its declaration, with the stored columns `X` it does not name. */
type ResourceTable<N extends ResourceName, X = unknown> = TableOf<WithColumns<RowOf<(typeof RESOURCES)[N]>, X>>;

/** Columns a job's writes carry (`jobStamped`, migration 0023). */
type JobStamped<P extends string> = { [K in `${P}job_id`]: number | null };

export type OrdersTable = ResourceTable<'order', JobStamped<'od_'> & {
  od_cl_id: number;
  /** When and by whom the order was last written to a B2 file (migration 0050). */
  od_b2_exported_at: string | null;
  od_b2_exported_by: number | null;
  /** The natural key of 受注取込 (migration 0053). */
  od_import_key: string | null;
}>;

export type SalesTable = ResourceTable<'sales', JobStamped<'sl_'> & {
  /** Where a slip came from (`detailColumns`): a rental run's agreement and month, a bottle movement's bottle. */
  sl_ag_id: number | null;
  sl_ym: string | null;
  sl_bt_id: number | null;
  sl_quantity: number;
  /** The accounting export that wrote the slip (migration 0052). */
  sl_ae_id: number | null;
}>;

/** A slip's lines (the sales declaration's children) with the columns the server derives. */
export type SalesDetailTable = TableOf<WithColumns<ChildRowOf<(typeof RESOURCES)['sales']['children']>, JobStamped<'sld_'> & {
  sld_quantity: number;
  sld_price: number;
  sld_amount: number;
  sld_tax_rate: number;
  sld_net: number;
  sld_tax: number;
  /** The slip's date, kept on the line for the sales report (migration 0045). */
  sld_date: string | null;
}>>;

/** A slip's totals per tax bucket (lib/money `bucketKey`), read by closing. */
export interface SalesRateTable {
  slr_id: Generated<number>;
  slr_sl_id: number;
  slr_key: string;
  slr_tax_class: string;
  slr_rate: number;
  slr_amount: number;
  slr_net: number;
  slr_tax: number;
  slr_total: number;
}

/** A closing of one 締日 group and month (migration 0040). */
export interface ClosingTable {
  cls_id: Generated<number>;
  cls_sime_gp: string;
  cls_sime_ym: string;
  cls_closing_date: string;
  cls_invoices: Generated<number>;
  cls_total: Generated<number>;
  cls_job_id: number | null;
  cls_usr_id: number | null;
  /** When the closing's JACCS request file was made ('' never). */
  cls_jaccs_at: Generated<string>;
  /** When the closing was exported to accounting ('' never). */
  cls_export_at: Generated<string>;
  created: string;
  modified: string;
}

/** An invoice's totals per tax bucket. */
export interface BillingRateTable {
  blr_id: Generated<number>;
  blr_bl_id: number;
  blr_key: string;
  blr_tax_class: string;
  blr_rate: number;
  blr_net: number;
  blr_tax: number;
  blr_total: number;
}

/** A payment's amount set against an invoice (migration 0043). */
export interface AllocationTable {
  al_id: Generated<number>;
  al_bl_id: number;
  al_py_id: number;
  al_amount: number;
  al_usr_id: number | null;
  created: string;
}

/** An invoice mail sent (or failed). */
export interface BillingSendTable {
  bs_id: Generated<number>;
  bs_bl_id: number;
  bs_to: string;
  bs_state: string;
  bs_error: Generated<string>;
  bs_usr_id: number | null;
  created: string;
}

/** An accounting (弥生) export (migration 0052). */
export interface AccountingExportTable {
  ae_id: Generated<number>;
  ae_kind: string;
  ae_from: string;
  ae_to: string;
  ae_usr_id: number | null;
  ae_rows: Generated<number>;
  ae_slips: Generated<number>;
  ae_payments: Generated<number>;
  ae_reexport: Generated<number>;
  /** 1: the export carried slips of closed months (migration 0055). */
  ae_late: Generated<number>;
  created: string;
}

/** A JACCS debit request file of a closing (migration 0051). */
export interface JaccsRequestTable {
  jr_id: Generated<number>;
  jr_cls_id: number;
  jr_sime_gp: string;
  jr_sime_ym: string;
  jr_debit_date: string;
  jr_reissue: Generated<number>;
  jr_count: number;
  jr_total: number;
  jr_file_name: string;
  jr_usr_id: number | null;
  jr_result_at: Generated<string>;
  jr_result_job_id: number | null;
  created: string;
}

/** One customer's debit of a JACCS request. */
export interface JaccsRequestRowTable {
  jrr_id: Generated<number>;
  jrr_jr_id: number;
  jrr_cls_id: number;
  jrr_cl_id: number;
  jrr_bl_id: number;
  jrr_debit_code: string;
  jrr_amount: number;
  jrr_result: Generated<string>;
  jrr_py_id: number | null;
}

/** An import (取込) run (migration 0049). JSON columns are text. */
export interface ImportRunTable {
  imp_id: Generated<number>;
  imp_kind: string;
  imp_file_name: string;
  imp_size: Generated<number>;
  imp_sha256: string;
  imp_encoding: string;
  imp_mapping: Generated<string>;
  imp_headers: Generated<string>;
  imp_rows: Generated<number>;
  imp_inserts: Generated<number>;
  imp_updates: Generated<number>;
  imp_skips: Generated<number>;
  imp_errors: Generated<number>;
  imp_state: string;
  imp_error: Generated<string>;
  imp_job_id: number | null;
  imp_usr_id: number;
  imp_path: string;
  imp_committed: Generated<string>;
  created: string;
  /** The stored file of the upload and of its errors (migration 0081; null: none, or not moved in yet). */
  imp_file_id: number | null;
  imp_errors_file_id: number | null;
}

/** The column mapping last used per import kind (JSON text). */
export interface ImportMappingTable {
  imm_id: Generated<number>;
  imm_kind: string;
  imm_mapping: string;
  imm_usr_id: number;
  modified: string;
}

/** One time a stored invoice version left the product (migration 0105): never changed, never deleted. */
export interface ArchiveDeliveryTable {
  ad_id: Generated<number>;
  ad_ar_id: number;
  /** print | batch | mail | page | pint (lib/resources/archive `ARCHIVE_DELIVERIES`). */
  ad_how: string;
  ad_to: Generated<string>;
  ad_usr_id: number | null;
  ad_job_id: number | null;
  created: string;
}

/** A download-page link of a customer (migration 0105, server/billing/page.ts): the token's SHA-256, never the token. */
export interface InvoiceLinkTable {
  il_id: Generated<number>;
  il_cl_id: number;
  il_token_hash: string;
  il_expires: string;
  il_usr_id: number | null;
  il_revoked_at: Generated<string>;
  il_revoked_by: number | null;
  created: string;
}

/** A file kept in the database (migration 0081, server/files). */
export interface StoredFileTable {
  sf_id: Generated<number>;
  sf_kind: string;
  sf_name: string;
  sf_size: Generated<number>;
  sf_sha256: Generated<string>;
  sf_usr_id: number | null;
  sf_job_id: number | null;
  /** 1 once every chunk is written (an incomplete file is never read). */
  sf_complete: Generated<number>;
  created: string;
  expires: string;
}

/** One chunk of a stored file's bytes (`fc_seq` from 0). */
export interface FileChunkTable {
  fc_sf_id: number;
  fc_seq: number;
  fc_data: Buffer;
}

export interface Database {
  user: UserTable;
  auth_key: AuthKeyTable;
  login_attempt: LoginAttemptTable;
  audit_log: AuditLogTable;
  search: SearchTable;
  master_option: MasterOptionTable;
  client: ResourceTable<'client', JobStamped<'cl_'>>;
  orders: OrdersTable;
  contact: ResourceTable<'contact'>;
  report: ResourceTable<'report'>;
  daily: ResourceTable<'daily'>;
  agreement: ResourceTable<'agreement'>;
  item: ResourceTable<'item'>;
  role: ResourceTable<'role'>;
  mail_template: ResourceTable<'mailtemplate'>;
  notice: ResourceTable<'notice'>;
  delivery_fee: ResourceTable<'deliveryfee'>;
  warehouse: ResourceTable<'souko'>;
  stock: StockTable;
  stock_move: StockMoveTable;
  water_server: ResourceTable<'server'>;
  server_history: ResourceTable<'serverhistory'>;
  bottle: ResourceTable<'bottle'>;
  tax_rate: ResourceTable<'tax'>;
  hod_pause: ResourceTable<'hodpause'>;
  order_detail: OrderDetailTable;
  order_setting: ResourceTable<'ordersetting'>;
  company_setting: ResourceTable<'company'>;
  hod_report: ResourceTable<'hodreport'>;
  hod_report_stop: HodReportStopTable;
  sales: SalesTable;
  sales_detail: SalesDetailTable;
  sales_rate: SalesRateTable;
  payment: ResourceTable<'payment', { py_ae_id: number | null }>;
  closing: ClosingTable;
  billing: ResourceTable<'billing', JobStamped<'bl_'> & { bl_cls_id: number | null }>;
  billing_rate: BillingRateTable;
  allocation: AllocationTable;
  billing_send: BillingSendTable;
  invoice_archive: ResourceTable<'archive'>;
  archive_delivery: ArchiveDeliveryTable;
  invoice_link: InvoiceLinkTable;
  yayoi_setting: ResourceTable<'yayoisetting'>;
  accounting_export: AccountingExportTable;
  jaccs_request: JaccsRequestTable;
  jaccs_request_row: JaccsRequestRowTable;
  import_run: ImportRunTable;
  import_mapping: ImportMappingTable;
  stored_file: StoredFileTable;
  file_chunk: FileChunkTable;
  /** PostgreSQL only (SQLite: the job file). */
  job: JobTable;
  row_count: RowCountTable;
}

/** The same connection seen by the generic resource code: any table of resource rows. */
export type ResourceDatabase = Record<string, ResourceRow>;

export type Db = Kysely<Database>;

/** A row of a table as read, e.g. `Row<'orders'>`. */
export type Row<T extends keyof Database> = Selectable<Database[T]>;

/** The generic view of the database for resource handlers (same connection, dynamic tables). */
export const resourceView = (db: Kysely<Database>): Kysely<ResourceDatabase> => db as unknown as Kysely<ResourceDatabase>;
