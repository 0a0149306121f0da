/**
 * A resource is declared once (DESIGN §4, STYLE "resources declared once"): the declaration
 * drives the server's `{name}_*` calls, the generic list screen and the generic detail form.
 */
import type { Area } from '../permissions';
import type { FilterDef } from '../filters';
import { cellText } from './checks';

export interface Option {
  value: string;
  text: string;
}

/**
 * Field kinds. Each kind fixes the input widget, the half-width conversion, the validation and
 * the database column type (TEXT for text kinds, INTEGER for number/money/flag, REAL for decimal).
 */
export type FieldType =
  | 'text' | 'kana' | 'textarea' | 'tel' | 'zip' | 'email' | 'url' | 'date' | 'select' | 'image' | 'secret'
  | 'number' | 'money' | 'decimal' | 'flag'
  /** An instant the server records (ISO-8601 UTC text, e.g. a last login): shown in Japan time, never typed. */
  | 'datetime'
  /** The id of a record of another resource (`ref` names it); INTEGER column; answers also carry `{column}_label`. */
  | 'ref';

export interface FieldDef {
  /** Unprefixed form name (spec §3 copy list), e.g. `co_name`; the column is `{prefix}{name}`. */
  name: string;
  /** Japanese label: the form label, the accessible name and the error messages use it. */
  label: string;
  type: FieldType;
  /** Key of the tab the field sits on. */
  tab: string;
  required?: boolean;
  /** Max characters (text kinds) or max value (number kinds). */
  max?: number;
  /** Min characters of a non-empty value (text kinds) or min value (number kinds). */
  min?: number;
  /** For `decimal`: the most digits after the point (a unit price: 2, e.g. 86.40). */
  scale?: number;
  /** Stored in lower case, so `unique` compares without case (e-mail addresses used to log in). */
  lowerCase?: boolean;
  /** Fixed options of a select. */
  options?: readonly Option[];
  /** Options read from a master table by `master_lst` (e.g. `mt_pmt_method`). */
  master?: string;
  /** Shown but never written by a save (computed by the server). */
  readOnly?: boolean;
  /** Takes the whole row of the form grid. */
  wide?: boolean;
  placeholder?: string;
  /** A help text shown under the input (e.g. the placeholders a mail template may use). */
  hint?: string;
  /** For `ref`: the resource (call prefix) whose record the value names, e.g. `client`. */
  ref?: string;
  /** No other live record of the resource may hold the same value (checked on every save). */
  unique?: boolean;
  /**
   * The value a new record's form starts with: `today` (Japan date), `me` (the logged-in user's id)
   * or a literal.
   */
  initial?: 'today' | 'me' | (string & {});
  /**
   * The field holding this one's kana reading (会社名 → 会社名カナ): sorting a list by this field sorts by
   * the reading, then by this field (kanji code points say nothing of the 五十音 order).
   */
  reading?: string;
  /**
   * How a stored text reads wherever it is shown (list, detail, CSV): `month` — a month stored as YYYYMM reads
   * 「2026年11月」 (`monthLabel`), never 202611.
   */
  format?: 'month';
  /** Local-storage key: a new form starts with the value last saved, and a save remembers it (spec §3 ct_uketsuke_date). */
  remember?: string;
  /**
   * For `kana`: stored as a Zengin (全銀) name — half-width katakana, small kana enlarged, upper case (lib/zengin/format
   * `toZenginKana`), and refused naming any character Zengin cannot hold (the customer's 口座名義カナ).
   */
  zengin?: boolean;
  /**
   * For `text`: a carrier's tracking number (送り状番号), checked as 送り状取込 checks it (`trackingNoProblem` of
   * lib/orders/tracking: 12 digits, the last a check digit) — on the form and on save alike.
   */
  trackingNo?: boolean;
}

export interface ColumnDef {
  /** Column name as answered (prefixed), e.g. `cl_co_name`. */
  name: string;
  label: string;
  /** `ref`: shows the referenced record's name (`{column}_label`). */
  format?: 'money' | 'date' | 'datetime' | 'option' | 'ref' | 'flag';
  /** For `format: 'option'`: the field whose options give the text. */
  field?: string;
}

export interface ResourceDef {
  /** Call prefix: `client` → `client_lst`, `client_save` … */
  name: string;
  /** Japanese name of one record, e.g. 顧客. */
  label: string;
  table: string;
  /** Column prefix, e.g. `cl_`. */
  prefix: string;
  /** Route base, e.g. `/client` (list at `/client/list`, detail at `/client/detail/{id}`). */
  basePath: string;
  /** The generic screens it has, with their route titles: lib/routes.ts makes their routes (none when absent). */
  screens?: ScreensDef;
  /** Permission area (lib/permissions). */
  area: Area;
  /** Local-storage name of the list preferences (spec §9). */
  storageKey: string;
  tabs: readonly { key: string; label: string }[];
  fields: readonly FieldDef[];
  list: {
    columns: readonly ColumnDef[];
    /** Whitelist of sortable columns (answer names). */
    sortable: readonly string[];
    /** Fields (unprefixed) whose text the keyword searches. */
    keyword: readonly string[];
    /** The keyword box's hint (default: the keyword fields' labels, `keywordHintOf`). */
    keywordHint?: string;
    defaultSort: { col: string; odr: 'asc' | 'desc' };
    /**
     * A column (answer name) that orders the rows a sorted column holds alike, before the id: the audit log's
     * `created`, so its rows of one user, call or kind of data are in time order, and one index
     * `(deleted, column, created, id)` serves that sort and that filter newest first (`listOrder`).
     */
    sortThen?: string;
    filters: readonly FilterDef[];
    /**
     * Money columns (answer names, list columns of `format: 'money'`) summed over the filtered rows: `{r}_sum`
     * answers them and the list draws them as its total row, e.g. `['od_uriage_total']`.
     */
    totals?: readonly string[];
  };
  /** Fields (unprefixed) that name a record in titles: the first non-empty one wins. */
  titleFields: readonly string[];
  /**
   * What a record picker's option shows beside the name, to tell records apart (default: the id): `lead` before it (a
   * code), `details` after it (a price) — answer columns of `{r}_lst`.
   */
  picker?: { lead?: string; details: readonly ColumnDef[] };
  /** Extra cross-field rule: returns field → message for problems, or nothing. */
  check?: (values: Record<string, unknown>) => Record<string, string> | undefined;
  /** Fields whose values together may occur in one live record only, with the message naming the clash. */
  uniqueTogether?: readonly { fields: readonly string[]; message: string }[];
  /**
   * What users may do beyond reading (default: create, edit and delete). `bulk` (default off) adds
   * `{r}_bulk_save`: several records saved in one transaction, all or none.
   */
  ops?: { create?: boolean; edit?: boolean; delete?: boolean; bulk?: boolean };
  /**
   * A settings resource: exactly one record, with this id, edited as a form on its own route (e.g.
   * /system/orders) — no list, no new record, no delete, no id in the title.
   */
  single?: number;
  /** Sub-lists shown as extra tabs of a saved record's detail (records of `resource` whose `field` is this id). */
  related?: readonly RelatedDef[];
  /** What the logged-in user may do with their own record (the one whose id is their user id): see OwnerDef. */
  owner?: OwnerDef;
  /**
   * Stored columns the detail answers beside the fields (prefixed; never a form input, never written by a save), e.g.
   * where a slip came from (`sl_ag_id`, `sl_ym`, `sl_bt_id`), which `madeBy` reads.
   */
  detailColumns?: readonly string[];
  /**
   * Why a stored record is not changed by hand: the system's write that made it and keeps it up (a rental run's slip,
   * a bottle movement's deposit slip), in Japanese; undefined for a record entered by hand. The detail screen shows
   * such a record read-only with this text (lib/list/record-access.ts), and the resource's policy refuses its own save
   * and delete calls on it with the same text.
   */
  madeBy?: (row: Readonly<Record<string, unknown>>) => string | undefined;
  /**
   * Rows that belong to one record and are written with it in the save's transaction (an order's lines, a
   * delivery round's stops): sent in the save's postData under `key`, replaced as a whole, listed by `call`,
   * summarised in the record's audit row, edited on the form by the one lines editor.
   */
  children?: ChildDef;
  /**
   * Rows a job writes (a regular-delivery run's orders) carry the job's id in `{prefix}job_id`, and so do their
   * child rows (`{child prefix}job_id`) and audit rows (`log_job_id`): a run can be found, and undone, later.
   */
  jobStamped?: boolean;
}

/**
 * A resource's generic screens (lib/routes.ts `resourceRoutes`): the list at `{basePath}/list`, a new record at
 * `{basePath}/new`, a record at `{basePath}/detail/:{id}` (a settings resource's one record at `basePath`), each with its
 * route title; `underClient` adds a new record and a record under a customer's detail (`/client/detail/:id/{name}/…`).
 * @example screens: { list: '倉庫一覧', new: '倉庫登録', detail: '倉庫詳細', id: 'war' }
 */
export interface ScreensDef {
  list?: string;
  new?: string;
  detail?: string;
  /** The record's route parameter (default `id`). */
  id?: string;
  /** Where the list is when not `{basePath}/list` (配送実績 `/hod/report/`, 操作ログ `/system/log`). */
  listPath?: string;
  /** Where a record is when not `{basePath}/detail/:{id}` (配送実績 `/hod/report/:hod`). */
  detailPath?: string;
  /** The breadcrumb parent of a settings resource's screen (弥生会計の連携設定 under `/system/export`). */
  parent?: string;
  /** Screens under a customer's detail; `newPath` when the new record's segment is not `{name}/new` (`agreement_new`). */
  underClient?: { new?: string; detail?: string; newPath?: string };
}

/**
 * Child rows of a record (see `ResourceDef.children`). The row's columns are `{prefix}{field.name}`, plus
 * `{prefix}id`, `{prefix}{parentField}` (the record's id) and `{prefix}{sortField}` (1, 2, … in the order sent).
 * @example order lines: { key: 'lines', table: 'order_detail', prefix: 'odd_', parentField: 'od_id', call: 'order_detail_lst', … }
 */
export interface ChildDef {
  /** The postData key the save sends the rows under, e.g. `lines`. */
  key: string;
  /** Japanese name of one row, e.g. 明細, 訪問先 (messages: 「3件目の明細: …」). */
  label: string;
  table: string;
  prefix: string;
  /** The unprefixed name of the column holding the record's id, e.g. `od_id` (column `odd_od_id`). */
  parentField: string;
  /** The unprefixed name of the position column, e.g. `sort`. */
  sortField: string;
  /** The call listing a record's rows (`{parent id column}` parameter), e.g. `order_detail_lst` with `od_id`. */
  call: string;
  /** Most rows one record may hold. */
  max: number;
  /** The row's input fields (what the editor shows and the save validates), in editor column order. */
  fields: readonly FieldDef[];
  /** Columns the server derives for each row (not sent), e.g. the line's amount and tax rate; shown read-only. */
  derived?: readonly FieldDef[];
  /** A cross-field rule of one row: field → message for each problem (the form's and the save's). */
  check?: (values: Record<string, unknown>) => Record<string, string> | undefined;
  /**
   * A flag column (unprefixed, 0/1) marking rows the server derives itself (an order's delivery fee line, `fee`):
   * stored and listed with the others, never typed — the form leaves them out of the rows it edits and sends, and
   * the policy writes them (`beforeSave` sets the event's children).
   */
  derivedFlag?: string;
}

/**
 * A record its owner may read and save without the area's permission (a user's own profile): the
 * server lets `_dtl` and `_save` of their own id through, and such a save may change only `fields`.
 */
export interface OwnerDef {
  /** Fields the owner may change without the area's write permission. */
  fields: readonly string[];
  /**
   * Secret fields whose change on one's own record needs the current value, sent in the save as
   * `current_{name}` (whoever saves, admins included); the detail screen asks for it (`currentField`).
   */
  confirm?: readonly string[];
}

/** The save key of the current value a confirmed secret needs, e.g. `current_password`. */
export const currentKey = (name: string): string => `current_${name}`;

/** The form field of the current value a confirmed secret needs (named by `currentKey`). */
export const currentField = (field: Pick<FieldDef, 'name' | 'label' | 'tab'>): FieldDef => ({
  name: currentKey(field.name), label: `現在の${field.label}`, type: 'secret', tab: field.tab, placeholder: `${field.label}を変更するときに入力`,
});

/** A tab of a detail screen listing another resource's records that point at this one. */
export interface RelatedDef {
  resource: string;
  /** The other resource's `ref` field naming this record, e.g. `cl_id`. */
  field: string;
  label: string;
}

/** Whether a resource allows an operation (every operation is allowed unless the declaration says otherwise). */
export const allows = (def: ResourceDef, op: 'create' | 'edit' | 'delete'): boolean =>
  def.single !== undefined && op !== 'edit' ? false : def.ops?.[op] ?? true;

/** Whether a resource takes `{r}_bulk_save` (declared with `ops.bulk`, and its records can be saved). */
export const allowsBulk = (def: ResourceDef): boolean => def.ops?.bulk === true && (allows(def, 'create') || allows(def, 'edit'));

/** Records nobody can edit or delete (the audit log) are history: they never block deleting what they name. */
export const isHistory = (def: ResourceDef): boolean => !allows(def, 'edit') && !allows(def, 'delete');

/** The column a `ref` field's label is answered in, e.g. `ct_cl_id_label`. */
export const labelColumnOf = (def: ResourceDef, field: string): string => `${def.prefix}${field}_label`;

/** The field a list column shows (or, with `field`, whose options name its values). */
export function fieldOfColumn(def: ResourceDef, column: ColumnDef): FieldDef | undefined {
  const name = column.field ?? (column.name.startsWith(def.prefix) ? column.name.slice(def.prefix.length) : column.name);
  return def.fields.find((f) => f.name === name);
}

/** The column type a field kind is stored in: TEXT, INTEGER (number, money, flag, ref) or REAL (decimal). */
export function columnKind(field: Pick<FieldDef, 'type'>): 'text' | 'integer' | 'real' {
  if (field.type === 'decimal') return 'real';
  return field.type === 'number' || field.type === 'money' || field.type === 'flag' || field.type === 'ref' ? 'integer' : 'text';
}

export const idColumn = (def: ResourceDef): string => `${def.prefix}id`;
export const columnOf = (def: ResourceDef, field: string): string => `${def.prefix}${field}`;

/**
 * The name of a record: its first non-empty title field (a customer: 会社名, else 氏名).
 * @example titleOf(clientResource, { cl_co_name: '', cl_name: '山田 太郎' }) // '山田 太郎'
 */
export function titleOf(def: ResourceDef, row: Readonly<Record<string, unknown>> | undefined): string {
  if (!row) return '';
  for (const name of def.titleFields) {
    const value = row[name === 'id' ? idColumn(def) : columnOf(def, name)];
    if (value !== null && value !== undefined && value !== '') return cellText(value);
  }
  return '';
}

/**
 * What a resource's keyword box and record picker say they search: the declared hint, else the labels
 * of its keyword fields (numbered and kana variants once, at most four, then 「など」).
 * @example keywordHintOf(itemResource) // '商品コード・商品名・備考'
 */
export function keywordHintOf(def: ResourceDef): string {
  if (def.list.keywordHint) return def.list.keywordHint;
  const labels = [...new Set(def.list.keyword.flatMap((name) => {
    const label = def.fields.find((f) => f.name === name)?.label;
    return label && !label.endsWith('カナ') ? [label.replace(/[0-9０-９]+$/, '')] : [];
  }))];
  return labels.length > 4 ? `${labels.slice(0, 4).join('・')}など` : labels.join('・');
}

/**
 * The Japanese label of a key a call sends for a resource: a field's label, else a list filter's.
 * @example keyLabel(clientResource, 'co_name') // '会社名'
 */
export const keyLabel = (def: ResourceDef, key: string): string | undefined =>
  def.fields.find((f) => f.name === key)?.label ?? def.list.filters.find((f) => f.name === key)?.label;

/**
 * The value a new record's field starts with when nothing was entered: `today` (Japan), `me` (the
 * user's id), a literal, else ''. The new form and a save without the field both use it.
 * @example initialValue({ initial: 'me' }, { userId: 3, today: '2026-11-24' }) // '3'
 */
export function initialValue(field: Pick<FieldDef, 'initial'>, { userId, today }: { userId?: number | null; today: string }): string {
  if (field.initial === 'today') return today;
  if (field.initial === 'me') return userId ? String(userId) : '';
  return field.initial ?? '';
}
