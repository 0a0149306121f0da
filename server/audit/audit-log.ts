/**
 * The audit log (DESIGN §2): every data write records who, when, which call, which table and id,
 * and what changed as `{ field: [before, after] }`.
 */
import type { Kysely, Transaction } from 'kysely';
import { auditLogResource } from '../../lib/resources/audit-log';
import type { Cell, Database } from '../db/schema';
import { searchText } from '../resources/columns';

export type Changes = Record<string, [Cell, Cell]>;

export interface AuditEntry {
  userId: number;
  call: string;
  table: string;
  recordId: number | null;
  changes: Changes;
  /** Timestamp of the write (defaults to now). */
  at?: string;
}

/**
 * The changed columns between two rows (only keys of `after`), `[before, after]` each.
 * @example diff({ a: 1, b: 2 }, { a: 1, b: 3 }) // { b: [2, 3] }
 */
export function diff(before: Record<string, Cell> | undefined, after: Record<string, Cell>): Changes {
  const changes: Changes = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before ? (before[key] ?? null) : null;
    if (before && old === value) continue;
    changes[key] = [old, value];
  }
  return changes;
}

/**
 * Writes one audit row, inside the caller's transaction, with the keyword text the /system/log
 * list searches (`log_search`, as for any resource: lib/resources/audit-log.ts).
 */
export async function writeAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditEntry): Promise<void> {
  const at = entry.at ?? new Date().toISOString();
  const columns = {
    log_user_id: entry.userId,
    log_call: entry.call,
    log_table: entry.table,
    log_record_id: entry.recordId,
    log_changes: JSON.stringify(entry.changes),
  };
  await db
    .insertInto('audit_log')
    .values({ ...columns, log_search: searchText(auditLogResource, columns), created: at, modified: at })
    .execute();
}
