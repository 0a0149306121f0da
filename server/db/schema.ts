/**
 * The typed shape of the database (docs/architecture.md "Database"). Fixed tables are typed
 * column by column; resource tables (`client`, `orders` …) are declared by their resource and
 * handled generically, so they are typed as rows of cells.
 */
import type { Generated, Kysely } from 'kysely';
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
}

export interface Database {
  user: UserTable;
  auth_key: AuthKeyTable;
  login_attempt: LoginAttemptTable;
  audit_log: AuditLogTable;
  search: SearchTable;
  master_option: MasterOptionTable;
  client: ResourceRow;
  orders: ResourceRow;
  contact: ResourceRow;
  report: ResourceRow;
  daily: ResourceRow;
  agreement: ResourceRow;
  item: ResourceRow;
  role: ResourceRow;
  mail_template: ResourceRow;
  notice: ResourceRow;
  delivery_fee: ResourceRow;
  warehouse: ResourceRow;
  stock: StockTable;
  stock_move: StockMoveTable;
  water_server: ResourceRow;
  bottle: ResourceRow;
  tax_rate: ResourceRow;
  hod_pause: ResourceRow;
  order_detail: OrderDetailTable;
  order_setting: ResourceRow;
  company_setting: ResourceRow;
  hod_report: ResourceRow;
  hod_report_stop: HodReportStopTable;
  sales: ResourceRow;
  sales_detail: ResourceRow;
  sales_rate: ResourceRow;
  payment: ResourceRow;
  closing: ResourceRow;
  billing: ResourceRow;
  billing_rate: ResourceRow;
  allocation: ResourceRow;
  billing_send: ResourceRow;
  yayoi_setting: ResourceRow;
  accounting_export: ResourceRow;
  jaccs_request: ResourceRow;
  jaccs_request_row: ResourceRow;
  import_run: ResourceRow;
  import_mapping: ResourceRow;
  /** PostgreSQL only (SQLite: the job file). */
  job: JobTable;
}

/** The same connection seen by the generic resource code: any table of resource rows. */
export type ResourceDatabase = Record<string, ResourceRow>;

export type Db = Kysely<Database>;

/** The generic view of the database for resource handlers (same connection, dynamic tables). */
export const resourceView = (db: Kysely<Database>): Kysely<ResourceDatabase> => db as unknown as Kysely<ResourceDatabase>;
