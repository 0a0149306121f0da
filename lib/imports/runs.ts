/**
 * What the import calls answer besides the preview (lib/imports/kinds.ts `ImportPreview`): a commit job's result and
 * an import as `import_lst` lists it — shared by the server (server/imports/plugin.ts) and the import screen.
 */

import type { ImportCounts, ImportNotices } from './kinds';

/** The result of an `import_commit` job. */
export interface ImportCommitResult extends ImportNotices {
  import_id: number;
  rows: number;
  inserts: number;
  updates: number;
  skips: number;
  /** A kind with `groupBy`: its groups' counts (orders beside their lines). */
  groups?: ImportCounts;
  /** The counts in words (`importSummary`): 「受注 2件（明細 3行）を取り込みました。」 */
  summary: string;
}

/** One import as `import_lst` answers it (newest first). */
export interface ImportRunInfo {
  import_id: number;
  kind: string;
  file_name: string;
  size: number;
  encoding: string;
  rows: number;
  inserts: number;
  updates: number;
  skips: number;
  errors: number;
  /** preview / committed / failed / expired (`IMPORT_STATE_LABELS`). */
  state: string;
  /** Why a commit failed. */
  error: string;
  job_id: number | null;
  user_name: string;
  created: string;
  committed: string;
}
