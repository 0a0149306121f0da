/**
 * What an import kind gives the one import machinery (server/imports): the machinery uploads, decodes, parses and maps
 * the file, cuts its rows into chunks and runs the kind's `apply` on each inside ONE transaction — rolled back for the
 * dry run (`import_preview`), committed by the job of `import_commit` only when the dry run found no error. A kind
 * writes only through the one write path (`saveBatch` of server/resources/records.ts; on the dry run with
 * `BatchOptions.refused`, so every row's problem is named) or the records' own rules (an order's status move), never
 * around them.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { WriteActor } from '../resources';
import type { ImportAction, ImportError, ImportNotice, ImportNoticeLink } from '../../lib/imports/kinds';

/** One record of the file: its 1-based row number in the file and its values by the kind's column `field` (text as read, trimmed; '' when empty). */
export interface ImportRow {
  row: number;
  values: Readonly<Record<string, string>>;
}

/** A run of the kind over one file: the transaction, who writes (`jobId` set on commit, stamped on the rows), and what the kind keeps between chunks. */
export interface ImportRun {
  trx: Transaction<Database>;
  actor: WriteActor;
  /** True for `import_preview` (the transaction is rolled back), false for the commit. */
  dryRun: boolean;
  /** The kind's own memory across the chunks of this run (natural keys seen, the JACCS request matched …). */
  state: Map<string, unknown>;
}

/** What one chunk came to: an action per row (in the chunk's order) and every problem found, by row and column label. */
export interface ChunkOutcome {
  actions: ImportAction[];
  errors: ImportError[];
  /** Rows named beside the counts (a JACCS debit that failed), in row order. */
  notices?: ImportNotice[];
}

export interface ImportKindHandler {
  /**
   * `fixed` kinds only: the file's records from its bytes (the JACCS result's 120-byte records). A bad file is refused
   * whole by throwing a 400 `ApiError` naming the line (a wrong length, a trailer that does not add up).
   */
  records?: (bytes: Buffer) => ImportRow[];
  /** Checks (and, written through the one write path, saves) one chunk of rows. */
  apply: (run: ImportRun, rows: readonly ImportRow[]) => Promise<ChunkOutcome>;
  /** After the last chunk: problems of the file as a whole (an order key whose rows are not together; a result file imported before). */
  finish?: (run: ImportRun) => Promise<ImportError[]>;
  /** After the last chunk: where the notices' records are listed (the customers flagged), if anywhere. */
  noticeLink?: (run: ImportRun) => ImportNoticeLink | undefined;
}
