/**
 * Running an import kind's handler (server/imports/kinds/*) on a file's bytes against the suite's real database, in
 * ONE transaction: rolled back for a dry run or when any row has an error (as the machinery does), committed
 * otherwise. The file is decoded (cp932 or UTF-8), parsed by csv-parse and its columns matched by the kind's labels,
 * or by their positions when its first record is not a header row.
 */
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import type { Kysely } from 'kysely';
import type { ImportAction, ImportError, ImportKindInfo } from '../../lib/imports/kinds';
import type { Database } from '../../server/db/schema';
import type { ImportKindHandler, ImportRow } from '../../server/imports/kind';
import type { WriteActor } from '../../server/resources/policy';

export interface KindRun {
  actions: ImportAction[];
  errors: ImportError[];
  committed: boolean;
}

/** The file's records as the kind's rows (1-based rows of the file; the header is row 1). */
export function rowsOf(info: ImportKindInfo, bytes: Buffer, encoding: 'cp932' | 'utf8'): ImportRow[] {
  const records: string[][] = parse(iconv.decode(bytes, encoding).replace(/^\ufeff/, ''), { relax_column_count: true });
  const labels = new Set(info.columns.flatMap((c) => [c.label, ...(c.synonyms ?? [])]));
  const header = records.length > 0 && records[0].some((cell) => labels.has(cell.trim()));
  const at = new Map(info.columns.map((c) => [
    c.field,
    header ? records[0].findIndex((cell) => cell.trim() === c.label || (c.synonyms ?? []).includes(cell.trim())) : c.position ?? -1,
  ]));
  return records.slice(header ? 1 : 0).map((record, i) => ({
    row: i + (header ? 2 : 1),
    values: Object.fromEntries(info.columns.map((c) => [c.field, (record[at.get(c.field)!] ?? '').trim()])),
  }));
}

/** Runs the handler on the rows in chunks of `chunk` (a group never split), in one transaction. */
export async function runKind(db: Kysely<Database>, handler: ImportKindHandler, rows: readonly ImportRow[], actor: WriteActor, dryRun: boolean, chunk = 500): Promise<KindRun> {
  const outcome: KindRun = { actions: [], errors: [], committed: false };
  const rollback = new Error('rollback');
  try {
    await db.transaction().execute(async (trx) => {
      const run = { trx, actor, dryRun, state: new Map<string, unknown>() };
      for (let start = 0; start < rows.length; start += chunk) {
        const { actions, errors } = await handler.apply(run, rows.slice(start, start + chunk));
        outcome.actions.push(...actions);
        outcome.errors.push(...errors);
      }
      outcome.errors.push(...((await handler.finish?.(run)) ?? []));
      if (dryRun || outcome.errors.length > 0) throw rollback;
    });
    outcome.committed = true;
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return outcome;
}
