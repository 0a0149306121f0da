/**
 * How the audit log (/system/log) names what it records: the kinds of data (tables), the calls
 * that write, and each changed column's Japanese label, all from the resource declarations.
 * The server answers the first two as masters (`mt_log_table`, `mt_log_call`) for the filters.
 */
import { formatDateTime, formatMoney } from '../format';
import { can, type Area, type RoleAreas } from '../permissions';
import { RESOURCES } from '../resources';
import { allows, allowsBulk, columnOf, idColumn, isHistory, type Option, type ResourceDef } from '../resources/types';

/**
 * Who reads a table's rows in the log: those who may read an area, or `own` — each user their own rows
 * (with user management, every row).
 */
export type AuditReaders = Area | 'own';

/** Tables written outside the resource declarations, with their Japanese names, column labels and readers. */
const OTHER_TABLES: Record<string, { label: string; columns: Record<string, string>; calls: Record<string, string>; readers: AuditReaders }> = {
  search: {
    label: '保存した検索',
    columns: { srch_name: '名前', srch_tbl: '一覧', srch_kw: 'キーワード', srch_col: '並べ替え列', srch_odr: '並び順', srch_post_data: '絞り込み条件' },
    calls: { search_save: '保存した検索の保存', search_sync: '保存した検索の削除' },
    readers: 'own',
  },
  stock: {
    label: '在庫',
    columns: { st_quantity: '在庫数', sm_kind: '入出庫区分', sm_reason: '理由', sm_id: '入出庫ID' },
    calls: { stock_adjust: '在庫の調整' },
    readers: 'stock',
  },
};

/** Columns every table has. */
const STAMP_LABELS: Record<string, string> = { created: '登録日時', modified: '更新日時', deleted: '削除' };

const writable = (): ResourceDef[] => Object.values(RESOURCES).filter((def) => !isHistory(def));

/** Whether a role reads some rows of tables with these readers (`own`: anybody, their own rows). */
const reads = (areas: RoleAreas | undefined, readers: AuditReaders): boolean => !areas || readers === 'own' || can(areas, readers, 'read');

/**
 * The kinds of data the log names (value = table), resources first; with a role's areas, only those it
 * reads rows of (`auditReadersOf`).
 */
export function auditTables(areas?: RoleAreas): Option[] {
  return [
    ...writable().filter((def) => reads(areas, def.area)).map((def) => ({ value: def.table, text: def.label })),
    ...Object.entries(OTHER_TABLES).filter(([, other]) => reads(areas, other.readers)).map(([table, other]) => ({ value: table, text: other.label })),
  ];
}

/** The calls that write and so appear in the log, with Japanese names; with a role's areas, only the calls of tables it reads. */
export function auditCalls(areas?: RoleAreas): Option[] {
  const out: Option[] = [];
  for (const def of writable().filter((d) => reads(areas, d.area))) {
    if (allows(def, 'create') || allows(def, 'edit')) out.push({ value: `${def.name}_save`, text: `${def.label}の保存` });
    if (allowsBulk(def)) out.push({ value: `${def.name}_bulk_save`, text: `${def.label}の一括保存` });
    if (allows(def, 'delete')) out.push({ value: `${def.name}_del`, text: `${def.label}の削除` });
  }
  for (const other of Object.values(OTHER_TABLES).filter((o) => reads(areas, o.readers))) out.push(...Object.entries(other.calls).map(([value, text]) => ({ value, text })));
  return out;
}

/** The declared resource stored in a table. */
export const resourceOfTable = (table: string): ResourceDef | undefined => Object.values(RESOURCES).find((def) => def.table === table);

/**
 * Who reads a table's rows in the log: its resource's area (`orders` → 受注, `user` → ユーザー・権限管理),
 * the readers of a table outside the resources (`stock` → its area, `search` → `own`); undefined for a
 * table the log does not know (user management only).
 * @example auditReadersOf('orders') // 'order'
 */
export const auditReadersOf = (table: string): AuditReaders | undefined => resourceOfTable(table)?.area ?? OTHER_TABLES[table]?.readers;

/**
 * The Japanese label of a changed column: the field's label where the table is a declared
 * resource, the stamps' names, else the column itself.
 * @example columnLabel('client', 'cl_tel_1') // '電話番号1'
 */
export function columnLabel(table: string, column: string): string {
  const def = resourceOfTable(table);
  const field = def?.fields.find((f) => columnOf(def, f.name) === column);
  if (field) return field.label;
  if (def && column === idColumn(def)) return 'ID';
  return STAMP_LABELS[column] ?? OTHER_TABLES[table]?.columns[column] ?? column;
}

/**
 * A value as the log shows it: empty as 「（空）」, timestamps in Japan time, the deleted flag in words, option codes with
 * their text, money in yen; master codes and everything else as stored.
 * @example valueText('client', 'cl_sex', '2') // '女性（2）'
 */
export function valueText(table: string, column: string, value: string | number | null): string {
  if (value === null || value === '') return '（空）';
  if (column === 'created' || column === 'modified') return formatDateTime(String(value));
  if (column === 'deleted') return Number(value) === 1 ? '削除済み' : '有効';
  const def = resourceOfTable(table);
  const field = def?.fields.find((f) => columnOf(def, f.name) === column);
  const option = field?.options?.find((o) => o.value === String(value));
  if (option) return `${option.text}（${value}）`;
  if (field?.type === 'money') return formatMoney(value);
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
