/**
 * Fast loading of many records of a declared resource: typed conversion by field kind, the
 * search text, and batched multi-row INSERTs inside transactions (seed and benchmark).
 */
import type { Kysely } from 'kysely';
import { columnKind, columnOf, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { chunksOf, insertMany, rowsPerStatement } from '../db/bulk-write';
import type { Cell, Database, ResourceRow } from '../db/schema';
import { nextStamp } from '../http/clock';
import { resourceColumns, searchText } from '../resources';

/** Unprefixed values as a generator or an import produces them (any object of field values). */
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
  return String(value);
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

export interface BulkOptions {
  /** Rows per INSERT statement (default: as many as the parameter limits allow, at most 500). */
  rowsPerStatement?: number;
  /** Rows per transaction (default 5,000). */
  rowsPerTransaction?: number;
  /** The `created` of a record (default: now). */
  createdOf?: (record: RawRecord, index: number) => string;
}

/**
 * Inserts records of a resource in batches; answers the new ids in order.
 * @example const ids = await bulkInsert(db, clientResource, generateClients(320))
 */
export async function bulkInsert(db: Kysely<Database>, def: ResourceDef, records: readonly RawRecord[], options: BulkOptions = {}): Promise<number[]> {
  if (records.length === 0) return [];
  const { id } = resourceColumns(def);
  const perStatement = options.rowsPerStatement ?? rowsPerStatement(def.fields.length + 5);
  const perTransaction = options.rowsPerTransaction ?? 5000;
  const now = nextStamp();
  const ids: number[] = [];
  for (const [c, chunk] of chunksOf(records, perTransaction).entries()) {
    const rows = chunk.map((record, j) => toRow(def, record, options.createdOf?.(record, c * perTransaction + j) ?? now));
    const inserted = await db.transaction().execute((trx) => insertMany(trx, def.table, rows, [id], perStatement));
    for (const row of inserted) ids.push(Number(row[id]));
  }
  return ids;
}
