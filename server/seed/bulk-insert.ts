/**
 * Fast loading of many records of a declared resource: each its table row (`toRow`, resources/system-write.ts)
 * in batched multi-row INSERTs inside transactions (seed and benchmark).
 */
import type { Kysely } from 'kysely';
import type { ResourceDef } from '../../lib/resources/types';
import { chunksOf, insertMany, rowsPerStatement } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { nextStamp } from '../http/clock';
import { resourceColumns, toRow, type RawRecord } from '../resources';

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
