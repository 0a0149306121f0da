/**
 * `npm run backup`: a consistent copy of the configured database (the server's environment: DATA_DIR or DATABASE_URL)
 * into BACKUP_DIR, taken while the servers keep running (server/db/backup.ts). Prints the manifest's path; exit 1
 * with a Japanese message when it cannot.
 */
import { BACKUP_MESSAGES } from '../lib/backup/messages';
import { loadConfig } from '../server/config';
import { backupDatabase, BackupError } from '../server/db/backup';

const started = performance.now();
try {
  const { manifestFile, manifest } = await backupDatabase(loadConfig());
  const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
  console.log(BACKUP_MESSAGES.backedUp(manifestFile, size, ((performance.now() - started) / 1000).toFixed(1)));
} catch (error) {
  console.error(error instanceof BackupError ? error.message : BACKUP_MESSAGES.backupFailed((error as Error).message));
  process.exitCode = 1;
}
