/**
 * How the audit log (/system/log) names what it records: the kinds of data (tables), the calls
 * that write, and each changed column's Japanese label, all from the resource declarations.
 * The server answers the first two as masters (`mt_log_table`, `mt_log_call`) for the filters.
 */
import { monthLabel } from '../format';
import { formatDateTime, formatMoney } from '../format';
import { can, type Area, type RoleAreas } from '../permissions';
import { RESOURCE_LIST } from '../resources';
import { allows, allowsBulk, columnOf, idColumn, isHistory, type FieldDef, type Option, type ResourceDef } from '../resources/types';
import { CLOSING_DAY } from '../resources/options';
import { STOCK_MOVE_KIND } from '../stock';

/**
 * Who reads a table's rows in the log: those who may read an area, or `own` — each user their own rows
 * (with user management, every row).
 */
export type AuditReaders = Area | 'own';

/** What the log knows of a column written outside the declared fields: its label, and what its values name. */
type OtherColumn = Pick<FieldDef, 'label'> & Partial<Pick<FieldDef, 'ref' | 'options' | 'format'>>;

/** Tables written outside the resource declarations, with their Japanese names, columns, calls and readers. */
const OTHER_TABLES: Record<string, { label: string; columns: Record<string, OtherColumn>; calls: Record<string, string>; readers: AuditReaders }> = {
  search: {
    label: '保存した検索',
    columns: {
      srch_name: { label: '名前' }, srch_tbl: { label: '一覧' }, srch_kw: { label: 'キーワード' }, srch_col: { label: '並べ替え列' },
      srch_odr: { label: '並び順' }, srch_post_data: { label: '絞り込み条件' },
    },
    calls: { search_save: '保存した検索の保存', search_sync: '保存した検索の削除' },
    readers: 'own',
  },
  closing: {
    label: '締め処理',
    columns: {
      cls_sime_gp: { label: '締日', options: CLOSING_DAY }, cls_sime_ym: { label: '締め年月', format: 'month' }, cls_closing_date: { label: '締め日' },
      cls_invoices: { label: '請求書の数' }, cls_total: { label: '今回請求額の合計' }, slips: { label: '請求した売上伝票の数' }, payments: { label: '計上した入金伝票の数' },
    },
    calls: {},
    readers: 'sales',
  },
  stock: {
    label: '在庫',
    columns: {
      st_quantity: { label: '在庫数' }, st_sk_id: { label: '倉庫', ref: 'souko' }, st_it_id: { label: '商品', ref: 'item' },
      sm_kind: { label: '区分', options: STOCK_MOVE_KIND }, sm_reason: { label: '理由' }, sm_id: { label: '入出庫の番号' },
    },
    calls: { stock_adjust: '在庫の調整' },
    readers: 'stock',
  },
  accounting_export: {
    label: '会計データ出力',
    columns: {
      ae_from: { label: '期間（開始）' }, ae_to: { label: '期間（終了）' }, ae_rows: { label: '仕訳の行数' }, ae_slips: { label: '売上伝票の数' },
      ae_payments: { label: '入金伝票の数' }, ae_reexport: { label: '再出力' }, ae_late: { label: '期間より前の日付の伝票・入金の数' }, closings: { label: '出力済みにした締め処理の数' },
    },
    calls: { export_yayoi: '弥生会計の仕訳出力' },
    readers: 'import',
  },
  allocation: {
    label: '入金の消込',
    columns: { al_bl_id: { label: '請求書', ref: 'billing' }, al_py_id: { label: '入金伝票', ref: 'payment' }, al_amount: { label: '消込額' } },
    calls: { payment_allocate: '入金の消込', allocation_del: '消込の取り消し' },
    readers: 'sales',
  },
  jaccs_request: {
    label: '口座振替依頼データ',
    columns: {
      jr_cls_id: { label: '締め処理' }, jr_count: { label: '件数' }, jr_total: { label: '引落金額の合計' }, jr_reissue: { label: '再発行' },
      jr_file_name: { label: 'ファイル名' }, jr_result_at: { label: '振替結果の取込' },
    },
    calls: { jaccs_request: '口座振替依頼データの作成' },
    readers: 'import',
  },
  // The stock movements' download (/system/download): who took which movements out.
  stock_move: {
    label: '入出庫',
    columns: {},
    calls: {},
    readers: 'stock',
  },
  // An import's file (the upload's row: ファイル名・サイズ・種類) and its commit (counts); the rows it wrote are logged by their own tables.
  import_run: {
    label: 'データ取込',
    columns: {},
    calls: { import_preview: 'データ取込の確認', import_commit: 'データ取込の実行' },
    readers: 'import',
  },
};

/** What a save writes beside a resource's fields: an order's lines, a round's stops (summaries, one per line). */
const EXTRA_COLUMNS: Record<string, Record<string, string>> = {
  orders: { lines: '明細', od_b2_exported_at: 'B2出力日時', od_b2_exported_by: 'B2出力者' },
  hod_report: { stops: '訪問先' },
  billing: { to: '送信先', subject: '件名', send_state: '送信結果' },
  client: { invoice_link: '請求書ダウンロードページのリンク' },
};

/** Writing calls that are not one resource's save or delete, with the readers of what they write. */
const OTHER_CALLS: Record<string, { text: string; readers: AuditReaders }> = {
  order_status: { text: '受注の状態変更', readers: 'order' },
  order_warehouse: { text: '出荷倉庫の一括変更', readers: 'order' },
  client_code_assign: { text: '顧客コードの一括採番', readers: 'client' },
  hod_generate: { text: '定期配送の受注作成', readers: 'order' },
  rental_generate: { text: '月次サーバーレンタルの売上作成', readers: 'sales' },
  closing_run: { text: '締め処理', readers: 'sales' },
  closing_restore: { text: '締め戻し', readers: 'sales' },
  salesreport_csv: { text: '売上レポートのCSV出力', readers: 'sales' },
  download_table: { text: 'データダウンロード', readers: 'download' },
  server_upd: { text: 'サーバーの設置・交換・引上げ', readers: 'stock' },
  mailtemplate_send: { text: 'メールの送信', readers: 'system' },
  billing_pdf: { text: '請求書の発行', readers: 'sales' },
  billing_pdf_batch: { text: '請求書の一括発行', readers: 'sales' },
  billing_mail: { text: '請求書のメール送信', readers: 'sales' },
  billing_mail_batch: { text: '請求書の一括メール送信', readers: 'sales' },
  billing_pint: { text: 'デジタルインボイス（JP PINT）の発行', readers: 'sales' },
  billing_link: { text: '請求書ダウンロードページのリンク作成', readers: 'sales' },
  billing_link_revoke: { text: '請求書ダウンロードページのリンク無効化', readers: 'sales' },
  export_b2: { text: '送り状（B2）の出力', readers: 'order' },
  seed: { text: '初期データの登録', readers: 'own' },
  job_cancel: { text: 'ジョブの中止', readers: 'own' },
  // A migration's own writes (server/db/migrations/0047-sales-writes.ts `MIGRATION_CALL`): the system settling old data.
  migration_0047: { text: 'データの移行（重複した売上伝票の削除）', readers: 'sales' },
};

/** Columns every table has. */
const STAMP_LABELS: Record<string, string> = { created: '登録日時', modified: '更新日時', deleted: '削除' };

const writable = (): ResourceDef[] => RESOURCE_LIST.filter((def) => !isHistory(def));

/** Whether a role reads some rows of tables with these readers (`own`: anybody, their own rows). */
const reads = (areas: RoleAreas | undefined, readers: AuditReaders): boolean => !areas || readers === 'own' || can(areas, readers, 'read');

/**
 * The kinds of data the log names (value = table), resources first; with a role's areas, only those it
 * reads rows of (`auditReadersOf`).
 */
export function auditTables(areas?: RoleAreas): Option[] {
  return [
    // Every resource's table: written (a settings record such as 自社情報 too), or (the log itself) exported.
    ...RESOURCE_LIST.filter((def) => reads(areas, def.area)).map((def) => ({ value: def.table, text: def.label })),
    ...Object.entries(OTHER_TABLES).filter(([, other]) => reads(areas, other.readers)).map(([table, other]) => ({ value: table, text: other.label })),
  ];
}

/** The calls that write or export and so appear in the log, with Japanese names; with a role's areas, only the calls of tables it reads. */
export function auditCalls(areas?: RoleAreas): Option[] {
  const out: Option[] = [];
  for (const def of writable().filter((d) => reads(areas, d.area))) {
    if (allows(def, 'create') || allows(def, 'edit')) out.push({ value: `${def.name}_save`, text: `${def.label}の保存` });
    if (allowsBulk(def)) out.push({ value: `${def.name}_bulk_save`, text: `${def.label}の一括保存` });
    if (allows(def, 'delete')) out.push({ value: `${def.name}_del`, text: `${def.label}の削除` });
  }
  for (const other of Object.values(OTHER_TABLES).filter((o) => reads(areas, o.readers))) out.push(...Object.entries(other.calls).map(([value, text]) => ({ value, text })));
  for (const [value, other] of Object.entries(OTHER_CALLS)) if (reads(areas, other.readers)) out.push({ value, text: other.text });
  // Exports are logged too (who took which rows out): every list's CSV.
  for (const def of RESOURCE_LIST.filter((d) => d.single === undefined && reads(areas, d.area))) out.push({ value: `${def.name}_csv`, text: `${def.label}のCSV出力` });
  return out;
}

/**
 * A logged table in Japanese, wherever the log is shown (the list, its row detail, its CSV): the resource's label
 * (「自社情報」 for `company_setting`), a table written elsewhere by its name; an unknown table as stored.
 * @example auditTableName('order_setting') // '受注設定'
 */
export const auditTableName = (table: string): string => auditTables().find((o) => o.value === table)?.text ?? table;

/**
 * A logged call in Japanese: a resource's save, delete or CSV, another writing call, a migration's writes; an unknown
 * call as stored.
 * @example auditCallName('company_save') // '自社情報の保存'
 */
export const auditCallName = (call: string): string => auditCalls().find((o) => o.value === call)?.text ?? call;

/** The declared resource stored in a table. */
export const resourceOfTable = (table: string): ResourceDef | undefined => RESOURCE_LIST.find((def) => def.table === table);

/**
 * Who reads a table's rows in the log: its resource's area (`orders` → 受注, `user` → ユーザー・権限管理),
 * the readers of a table outside the resources (`stock` → its area, `search` → `own`); undefined for a
 * table the log does not know (user management only).
 * @example auditReadersOf('orders') // 'order'
 */
export const auditReadersOf = (table: string): AuditReaders | undefined => resourceOfTable(table)?.area ?? OTHER_TABLES[table]?.readers;

/** The declaration of a logged column: a resource's field, or a column of a table written elsewhere. */
function columnOfTable(table: string, column: string): OtherColumn | FieldDef | undefined {
  const def = resourceOfTable(table);
  return def?.fields.find((f) => columnOf(def, f.name) === column) ?? OTHER_TABLES[table]?.columns[column];
}

/**
 * The Japanese label of a changed column: the field's label where the table is a declared
 * resource, the stamps' names, what a save writes beside the fields, else the column itself.
 * @example columnLabel('client', 'cl_tel_1') // '電話番号1'
 */
export function columnLabel(table: string, column: string): string {
  const declared = columnOfTable(table, column);
  if (declared) return declared.label;
  const def = resourceOfTable(table);
  if (def && column === idColumn(def)) return 'ID';
  return STAMP_LABELS[column] ?? EXTRA_COLUMNS[table]?.[column] ?? column;
}

/**
 * What a logged value names beyond itself: a record of another resource (its name is looked up), or
 * a master's entry (its text is looked up); nothing for values `valueText` words alone.
 * @example valueTarget('client', 'cl_pm_id') // { master: 'mt_pmt_method' }
 */
export function valueTarget(table: string, column: string): { ref: string } | { master: string } | undefined {
  const declared = columnOfTable(table, column);
  if (declared?.ref) return { ref: declared.ref };
  if (declared && 'master' in declared && declared.master) return { master: declared.master };
  return undefined;
}

/**
 * A value as the log shows it: empty as 「（空）」, timestamps in Japan time, the deleted flag and flags in words,
 * option codes by their text, money in yen; everything else as stored (records and master entries are named
 * by the screen, `valueTarget`).
 * @example valueText('client', 'cl_sex', '2') // '女性'
 */
export function valueText(table: string, column: string, value: string | number | null): string {
  if (value === null || value === '') return '（空）';
  if (column === 'created' || column === 'modified') return formatDateTime(String(value));
  if (column === 'deleted') return Number(value) === 1 ? '削除済み' : '有効';
  const declared = columnOfTable(table, column);
  const option = declared?.options?.find((o) => o.value === String(value));
  if (option) return option.text;
  if (declared?.format === 'month') return monthLabel(String(value));
  const type = declared && 'type' in declared ? declared.type : undefined;
  if (type === 'money') return formatMoney(value);
  if (type === 'flag') return Number(value) === 1 ? 'はい' : 'いいえ';
  if (type === 'datetime') return formatDateTime(String(value));
  return String(value);
}

export interface AuditChange {
  column: string;
  label: string;
  before: string | number | null;
  after: string | number | null;
}

const isCell = (x: unknown): x is string | number | null => x === null || typeof x === 'string' || typeof x === 'number';

/**
 * The changes of a log row (`{ column: [before, after] }` JSON) with labels, in stored order;
 * unreadable text gives no changes.
 * @example auditChanges('client', '{"cl_tel_1":["03-1","03-2"]}') // [{ column: 'cl_tel_1', label: '電話番号1', before: '03-1', after: '03-2' }]
 */
export function auditChanges(table: string, json: unknown): AuditChange[] {
  if (typeof json !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  return Object.entries(parsed as Record<string, unknown>).flatMap(([column, pair]) =>
    Array.isArray(pair) && pair.length === 2 && isCell(pair[0]) && isCell(pair[1])
      ? [{ column, label: columnLabel(table, column), before: pair[0], after: pair[1] }]
      : [],
  );
}
