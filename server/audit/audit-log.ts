/**
 * The audit log (DESIGN §2): every data write records who, when, which call, which table and id,
 * and what changed as `{ field: [before, after] }`.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Cell, Database } from '../db/schema';
import { preparedInsert } from '../db/bulk-write';
import { searchJoin } from '../../lib/text';
import { nowIso } from '../http/clock';

export type Changes = Record<string, [Cell, Cell]>;

export interface AuditEntry {
  /** Who wrote; null for the system itself (a migration settling old data). */
  userId: number | null;
  call: string;
  table: string;
  recordId: number | null;
  changes: Changes;
  /** Timestamp of the write (defaults to now). */
  at?: string;
  /** The job that wrote (server/jobs), kept as `log_job_id` so a run's writes can be found. */
  jobId?: number;
  /**
   * A new record's own keyword text (its `{prefix}search`, the values its list's keyword finds it by): the row is found
   * by it, the call and the table, instead of by every value the record was created with (see `auditRow`).
   */
  keywords?: string;
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
 * The values a change names (before and after, each once), the text the keyword of /system/log searches
 * besides the call and table: 「変更した値」 are found, while the JSON's keys and punctuation stay out of the
 * keyword index (a bulk run writes tens of thousands of rows, each indexed by its trigrams). A new record's row
 * is keyed by its own keyword text instead (`AuditEntry.keywords`).
 * @example changedValues({ cl_tel_1: ['03-1111-2222', '03-3333-4444'], cl_haiso_num: [null, 2] }) // ['03-1111-2222', '03-3333-4444', '2']
 */
export function changedValues(changes: Changes): string[] {
  const values = new Set<string>();
  for (const pair of Object.values(changes)) {
    for (const value of pair) if (value !== null && value !== '') values.add(String(value));
  }
  return [...values];
}

/**
 * The `log_search` text of an audit row: its call, table and each changed value keyed alone (a term
 * never spans two values). Migration 0018 re-keys stored rows with it.
 * @example auditSearchText({ log_call: 'client_save', log_table: 'client', log_changes: '{"cl_tel_1":[null,"03-1111-2222"]}' }) // 'client_save client 0311112222'
 */
export function auditSearchText(row: { log_call: string; log_table: string; log_changes: string }): string {
  let changes: Changes = {};
  try {
    changes = JSON.parse(row.log_changes) as Changes;
  } catch {
    // A row written by hand with text that is not JSON: its call and table are still found.
  }
  return auditSearch(row.log_call, row.log_table, changes && typeof changes === 'object' ? changes : {});
}

const auditSearch = (call: string, table: string, changes: Changes): string => searchJoin([call, table, ...changedValues(changes)]);

/**
 * An entry as its audit_log row, with the keyword text the /system/log list searches (`log_search`): the call, the table
 * and — a change — the values before and after (`changedValues`), or — a new record (`keywords`) — what finds the record
 * in its own list. Every value of a new record would put a whole row's trigrams into the keyword index for each record
 * created (a month's regular deliveries create 30,000 orders); what identifies it is enough to find its row.
 */
function auditRow(entry: AuditEntry) {
  const at = entry.at ?? nowIso();
  const columns = {
    log_user_id: entry.userId,
    log_call: entry.call,
    log_table: entry.table,
    log_record_id: entry.recordId,
    log_changes: JSON.stringify(entry.changes),
    log_job_id: entry.jobId ?? null,
  };
  const search = entry.keywords === undefined ? auditSearch(entry.call, entry.table, entry.changes) : [searchJoin([entry.call, entry.table]), entry.keywords].filter(Boolean).join(' ');
  return { ...columns, log_search: search, created: at, modified: at };
}

/** Writes one audit row, inside the caller's transaction (lib/resources/audit-log.ts is its resource). */
export async function writeAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit_log').values(auditRow(entry)).execute();
}

/** Writes many audit rows (a bulk run), a few hundred per statement, inside the caller's transaction. */
export async function writeAudits(db: Kysely<Database> | Transaction<Database>, entries: readonly AuditEntry[]): Promise<void> {
  await preparedAudits(db, entries)();
}

/**
 * `writeAudits` in two steps (see `preparedInsert`): the rows are built now, written when the answered function runs.
 * @example queue.add(preparedAudits(trx, entries))
 */
export function preparedAudits(db: Kysely<Database> | Transaction<Database>, entries: readonly AuditEntry[]): () => Promise<unknown> {
  return preparedInsert(db, 'audit_log', entries.map(auditRow));
}
