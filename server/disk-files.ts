/**
 * The files an older server kept under `DATA_DIR` (an import's upload and errors in `imports/`, a batch's PDF and ZIP in
 * `billing-pdf/`) moved into the file store (server/files), so every server reads them and `DATA_DIR` holds only the
 * SQLite files. Run by the primary at start, right after the migrations (server/main.ts): a migration does not know
 * `DATA_DIR`, and with several servers each moves the files of its own folder — a migration would run on one of them
 * only. Repeating it is harmless: nothing is stored twice, and a folder moved is gone.
 */
import type { Kysely } from 'kysely';
import { moveBatchFilesIn } from './billing/batch';
import type { Database } from './db/schema';
import { moveImportFilesIn } from './imports/disk-files';

/**
 * Moves the files under `dataDir` into the store and removes them from disk; answers how many were stored.
 * @example await moveDiskFiles(database.db, config.dataDir)
 */
export async function moveDiskFiles(db: Kysely<Database>, dataDir: string): Promise<number> {
  return (await moveImportFilesIn(db, dataDir)) + (await moveBatchFilesIn(db, dataDir));
}
