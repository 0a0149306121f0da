/**
 * `npm run restore FILE`: restores a backup of `npm run backup` (its .json manifest, or its .db / .dump) as the
 * configured database (the server's environment: DATA_DIR or DATABASE_URL; the servers stopped), after checking it
 * (server/db/restore.ts). A damaged, foreign or newer backup is refused with a Japanese message (exit 1) and nothing
 * is changed.
 */
import { resolve } from 'node:path';
import { BACKUP_MESSAGES } from '../lib/backup/messages';
import { formatDateTime } from '../lib/format';
import { loadConfig } from '../server/config';
import { BackupError } from '../server/db/backup';
import { restoreDatabase } from '../server/db/restore';

const [file] = process.argv.slice(2);
if (!file) {
  console.error(BACKUP_MESSAGES.usage);
  process.exit(1);
}
try {
  // `npm run` works in the project's folder: a relative FILE is where the command was typed (INIT_CWD).
  const { backup, keptAside } = await restoreDatabase(loadConfig(), resolve(process.env.INIT_CWD ?? process.cwd(), file));
  console.log(BACKUP_MESSAGES.restored(backup.manifestFile, formatDateTime(backup.manifest.created)));
  if (keptAside.length > 0) console.log(BACKUP_MESSAGES.keptAside(keptAside.join('、')));
} catch (error) {
  console.error(error instanceof BackupError ? error.message : BACKUP_MESSAGES.restoreFailed((error as Error).message));
  process.exitCode = 1;
}
