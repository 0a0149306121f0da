/**
 * The application's own writes to resource tables, beside the form's write path (records.ts `writeSaves`): an order
 * moved through its lifecycle, a server's history row, the orders a B2 export marks, the customers a JACCS result flags,
 * a ledger's running balance, the users of a renamed role. They set columns no form sends, so they skip the form's
 * checks, but every one is stamped from the one clock (http/clock `nextStamp`), carries the job's id on a `jobStamped`
 * resource and writes its audit rows (who, which call, the job, what changed) in the caller's transaction — as
 * `writeSaves` does. Lint (eslint.config.mjs "direct writes") refuses insertInto/updateTable/deleteFrom on a resource
 * table anywhere else.
 */
import type { Transaction } from 'kysely';
import { MESSAGES } from '../../lib/protocol';
import { columnKind, columnOf, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { diff, writeAudits, type AuditEntry, type Changes } from '../audit/audit-log';
import { chunksOf } from '../db/bulk-write';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { ApiError } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { resourceColumns, searchText } from './columns';
import type { WriteActor } from './policy';
import { cellText } from '../../lib/resources/checks';

/** The job's id on the rows of a `jobStamped` resource (and its children) that a job writes. */
export const jobColumn = (prefix: string, def: ResourceDef, actor: WriteActor): ResourceRow =>
  def.jobStamped && actor.jobId !== undefined ? { [`${prefix}job_id`]: actor.jobId } : {};

/** Unprefixed values as a generator, an import or the application produces them (any object of field values). */
export type RawRecord = object;

const valueOf = (record: RawRecord, name: string): unknown => (record as Record<string, unknown>)[name];

/** One field value in its column type: numbers for number kinds ('' → NULL), text otherwise. */
function cellOf(field: FieldDef, value: unknown): Cell {
  const kind = columnKind(field);
  if (value === undefined || value === null || typeof value === 'object') return kind === 'text' ? '' : null;
  if (kind !== 'text') {
    if (value === '') return null;
    const n = Number(value);
    return Number.isFinite(n) ? (kind === 'real' ? n : Math.trunc(n)) : null;
  }
  return cellText(value);
}

/**
 * A record's table row: every declared field (secret fields left empty), the search text and the stamps.
 * @example toRow(clientResource, { co_name: '青葉商事', haiso_wks: '2' }, stamp) // { cl_co_name: '青葉商事', cl_haiso_wks: 2, … }
 */
export function toRow(def: ResourceDef, record: RawRecord, created: string, modified: string = created): ResourceRow {
  const row: ResourceRow = {};
  for (const field of def.fields) {
    row[columnOf(def, field.name)] = field.type === 'secret' ? '' : cellOf(field, valueOf(record, field.name));
  }
  row[resourceColumns(def).search] = searchText(def, row);
  row.created = created;
  row.modified = modified;
  row.deleted = 0;
  return row;
}

/**
 * Inserts records the application makes itself (a server's history row: `ops` allow no form to create one), each
 * stamped, with its search text and the job's id, and audited like a new record of the write path (the values given,
 * found by the record's keyword text). Answers the new ids in order.
 * @example const [id] = await systemInsert(trx, actor, serverHistoryResource, [{ sv_id: 31, kind: 'install', date: '2026-05-01' }])
 */
export async function systemInsert(trx: Transaction<Database>, actor: WriteActor, def: ResourceDef, records: readonly RawRecord[]): Promise<number[]> {
  const { id, search } = resourceColumns(def);
  const ids: number[] = [];
  const audits: AuditEntry[] = [];
  for (const record of records) {
    const stamp = nextStamp();
    const row = { ...toRow(def, record, stamp), ...jobColumn(def.prefix, def, actor) };
    const inserted = await resourceView(trx).insertInto(def.table).values(row).returning(id).executeTakeFirstOrThrow();
    const recordId = Number(inserted[id]);
    ids.push(recordId);
    const given: ResourceRow = Object.fromEntries(Object.keys(record).map((name) => [columnOf(def, name), row[columnOf(def, name)]]));
    audits.push({ userId: actor.userId, call: actor.call, table: def.table, recordId, jobId: actor.jobId, at: stamp, keywords: String(row[search]), changes: diff(undefined, given) });
  }
  await writeAudits(trx, audits);
  return ids;
}

/** One row a system update changes. */
export interface SystemChange {
  id: number;
  /**
   * The row as stored: the audit's before values (of the columns set) and, unless `modified: 'keep'`, its `modified`;
   * every column when `set` changes a keyword field (the row's search text is made again from it).
   */
  before: ResourceRow;
  /** The columns written. */
  set: ResourceRow;
  /** The audit row's changes when they are not the diff of `set` against `before` (a B2 export names its ship date too). */
  changes?: Changes;
}

export interface SystemUpdateOptions {
  /**
   * The form's edit-conflict token `modified`:
   * - 'check': stamped, and the row must still hold the `modified` it was read with (409 otherwise: a save came between);
   * - 'stamp': stamped (the rows change as a form shows them: an open form must reload);
   * - 'keep': kept — the write sets only columns no form edits (a ledger's running balance, an export's mark, a debit
   *   result), so a form opened before still saves; the audit row is stamped all the same.
   */
  modified: 'check' | 'stamp' | 'keep';
  /** The write's time when the caller also writes it into the rows (an export's mark); default a new stamp. */
  at?: string;
}

/**
 * Updates rows of a resource in the caller's transaction: each stamped (see `modified`), the job's id on a
 * `jobStamped` resource, one audit row each. Rows given the same `set` are written together, a thousand per statement
 * (a B2 export's orders, a JACCS result's customers); with 'check', one by one. Answers the stamp.
 * @example await systemUpdate(trx, actor, orderResource, [{ id: 12, before: order, set: { od_status: 'shipped' } }], { modified: 'check' })
 */
export async function systemUpdate(trx: Transaction<Database>, actor: WriteActor, def: ResourceDef, rows: readonly SystemChange[], options: SystemUpdateOptions): Promise<string> {
  const { id, search } = resourceColumns(def);
  const keywords = new Set(def.list.keyword.map((name) => columnOf(def, name)));
  const view = resourceView(trx);
  // A keyword field changed: the row's search text follows, as a save's does.
  const setOf = (row: SystemChange): ResourceRow => {
    if (!Object.keys(row.set).some((column) => keywords.has(column))) return row.set;
    const text = searchText(def, { ...row.before, ...row.set });
    return text === row.before[search] ? row.set : { ...row.set, [search]: text };
  };
  const latest = options.modified === 'keep' ? undefined : rows.map((r) => String(r.before.modified ?? '')).sort().at(-1);
  const stamp = options.at ?? nextStamp(latest);
  const job = jobColumn(def.prefix, def, actor);
  const stamped = options.modified === 'keep' ? {} : { modified: stamp };
  if (options.modified === 'check') {
    for (const row of rows) {
      const updated = await view.updateTable(def.table).set({ ...setOf(row), ...stamped, ...job })
        .where(id, '=', row.id).where('modified', '=', row.before.modified).returning(id).executeTakeFirst();
      if (!updated) throw new ApiError(409, MESSAGES.conflict);
    }
  } else {
    const groups = new Map<string, { set: ResourceRow; ids: number[] }>();
    for (const row of rows) {
      const set = setOf(row);
      const key = JSON.stringify(set);
      const group = groups.get(key) ?? { set, ids: [] };
      group.ids.push(row.id);
      groups.set(key, group);
    }
    for (const { set, ids } of groups.values()) {
      for (const chunk of chunksOf(ids, 1000)) await view.updateTable(def.table).set({ ...set, ...stamped, ...job }).where(id, 'in', chunk).execute();
    }
  }
  await writeAudits(trx, rows.map((row) => ({
    userId: actor.userId, call: actor.call, table: def.table, recordId: row.id, jobId: actor.jobId, at: stamp, changes: row.changes ?? diff(row.before, row.set),
  })));
  return stamp;
}
