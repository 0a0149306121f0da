/**
 * Import files an older server kept on disk (`{DATA_DIR}/imports/{uuid}.dat`, its errors in `{uuid}.dat.errors`,
 * named by `import_run.imp_path`) moved into the file store at start (server/disk-files.ts): a run not yet expired gets
 * its stored files (`imp_file_id`, `imp_errors_file_id`), keeping its expiry; every file on disk is removed, and the
 * folder with them. Safe to repeat: a run that has its stored file is not stored twice.
 */
import { createReadStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { storeStream } from '../files';
import { nowMs } from '../http/clock';
import { IMPORT_ERRORS_FILE, IMPORT_FILE, IMPORT_KEEP_MS } from './file';

/**
 * Moves the import files under `dataDir` into the store; answers how many files were stored.
 * @example await moveImportFilesIn(db, config.dataDir)
 */
export async function moveImportFilesIn(db: Kysely<Database>, dataDir: string): Promise<number> {
  const dir = join(dataDir, 'imports');
  if (!existsSync(dir)) return 0;
  let stored = 0;
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.errors')) continue;
    const path = join(dir, name);
    const run = await db.selectFrom('import_run').select(['imp_id', 'imp_file_name', 'imp_usr_id', 'imp_state', 'imp_file_id', 'created'])
      .where('imp_path', '=', name).executeTakeFirst();
    const keepMs = run ? Date.parse(run.created) + IMPORT_KEEP_MS - nowMs() : 0;
    if (run && run.imp_file_id === null && run.imp_state !== 'expired' && keepMs > 0) {
      const owner = { userId: run.imp_usr_id, keepMs };
      const file = await storeStream(db, createReadStream(path), { kind: IMPORT_FILE, name: run.imp_file_name, ...owner });
      const errors = existsSync(`${path}.errors`)
        ? await storeStream(db, createReadStream(`${path}.errors`), { kind: IMPORT_ERRORS_FILE, name: `${run.imp_file_name}.errors`, ...owner })
        : undefined;
      await db.updateTable('import_run').set({ imp_file_id: file.id, imp_errors_file_id: errors?.id ?? null }).where('imp_id', '=', run.imp_id).execute();
      stored += errors ? 2 : 1;
    }
    rmSync(path, { force: true });
    rmSync(`${path}.errors`, { force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  return stored;
}
