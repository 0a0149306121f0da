/**
 * Fast loading of many records of a declared resource: typed conversion by field kind, the
 * search text, and batched multi-row INSERTs inside transactions (seed and benchmark).
 */
import type { Kysely } from 'kysely';
import { columnKind, columnOf, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { nextStamp } from '../http/clock';
import { resourceColumns, searchText } from '../resources/columns';

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

/** SQLite allows 32,766 bound values per statement, PostgreSQL 65,535. */
const MAX_PARAMETERS = 32_000;

/**
 * Inserts records of a resource in batches; answers the new ids in order.
 * @example const ids = await bulkInsert(db, clientResource, generateClients(320))
 */
export async function bulkInsert(db: Kysely<Database>, def: ResourceDef, records: readonly RawRecord[], options: BulkOptions = {}): Promise<number[]> {
  if (records.length === 0) return [];
  const { id } = resourceColumns(def);
  const columnsPerRow = def.fields.length + 5;
  const perStatement = options.rowsPerStatement ?? Math.max(1, Math.min(500, Math.floor(MAX_PARAMETERS / columnsPerRow)));
  const perTransaction = options.rowsPerTransaction ?? 5000;
  const now = nextStamp();
  const ids: number[] = [];
  for (let start = 0; start < records.length; start += perTransaction) {
    const chunk = records.slice(start, start + perTransaction);
    await db.transaction().execute(async (trx) => {
      const view = resourceView(trx);
      for (let i = 0; i < chunk.length; i += perStatement) {
        const rows = chunk.slice(i, i + perStatement).map((record, j) => {
          const created = options.createdOf?.(record, start + i + j) ?? now;
          return toRow(def, record, created);
        });
        const inserted = await view.insertInto(def.table).values(rows).returning(id).execute();
        for (const row of inserted) ids.push(Number(row[id]));
      }
    });
  }
  return ids;
}
