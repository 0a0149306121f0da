/**
 * `npm run restore FILE` (scripts/restore.ts): puts a backup of server/db/backup.ts back as the configured database.
 * Everything is checked before anything is changed — the manifest, the dialect, each file's size and SHA-256, that the
 * code knows every migration the backup had run, and that no server uses the database — and a refusal changes nothing.
 * - SQLite (the servers stopped: a database a process has open is refused): the copies are checked (`quick_check`)
 *   beside the database, then swapped in by renaming; the files they replace stay beside them as
 *   `app.db.before-restore-{time}` (and the jobs' file likewise) until the operator removes them.
 * - PostgreSQL (no other connection to the database): one transaction through psql replaces the `public` schema
 *   (dropped, created as PostgreSQL creates it) with the dump (`pg_restore --no-owner --no-privileges` as SQL): an
 *   error anywhere rolls it all back. A whole schema rather than `pg_restore --clean`, which drops only what the dump
 *   has: tables of migrations newer than the backup would stay, and the next start's migrations would fail on them.
 * In both, jobs the backup saw running (their data never committed) are marked failed, as a server marks a dead
 * server's jobs; the server's start then runs the migrations this code has beyond the backup's.
 */
import { copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import * as v from 'valibot';
import { BACKUP_MESSAGES } from '../../lib/backup/messages';
import { MESSAGES } from '../../lib/protocol';
import type { Config } from '../config';
import { nowIso } from '../http/clock';
import { jobFileOf } from '../jobs/job-db';
import { BACKUP_FORMAT, BackupError, connectPostgres, fileStamp, sha256Of, startTool, toolConnection, type BackupManifest } from './backup';
import { MIGRATION_NAMES } from './migrate';

const fileName = v.pipe(v.string(), v.regex(/^[\w.-]+$/));
const ManifestSchema = v.object({
  format: v.literal(BACKUP_FORMAT),
  version: v.literal(1),
  dialect: v.picklist(['sqlite', 'postgres']),
  created: v.pipe(v.string(), v.isoTimestamp()),
  migrations: v.array(v.string()),
  files: v.pipe(v.array(v.object({ role: v.picklist(['database', 'jobs']), name: fileName, size: v.pipe(v.number(), v.integer(), v.minValue(0)), sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) })), v.minLength(1)),
});

/** A checked backup: its manifest and where each of its files is. */
export interface CheckedBackup {
  manifestFile: string;
  manifest: BackupManifest;
  /** The database file (SQLite) or dump (PostgreSQL), and the jobs' file when the backup has one. */
  database: string;
  jobs?: string;
}

/** The manifest of a backup named by its manifest or by one of its data files. */
const manifestOf = (file: string): string => (file.endsWith('.json') ? file : file.replace(/(-jobs\.db|\.db|\.dump)$/, '') + '.json');

/**
 * Checks a backup for restoring into the configured database: present, undamaged, of this dialect, of migrations
 * this code knows. Throws a BackupError (a Japanese message) otherwise; changes nothing.
 */
export async function checkBackup(config: Pick<Config, 'dialect'>, file: string): Promise<CheckedBackup> {
  if (!existsSync(file)) throw new BackupError(BACKUP_MESSAGES.fileMissing(file));
  const manifestFile = manifestOf(file);
  if (!existsSync(manifestFile)) throw new BackupError(BACKUP_MESSAGES.manifestMissing(manifestFile));
  let manifest: BackupManifest;
  try {
    const parsed = v.safeParse(ManifestSchema, JSON.parse(readFileSync(manifestFile, 'utf8')));
    if (!parsed.success || parsed.output.files.filter((f) => f.role === 'database').length !== 1) throw new Error('shape');
    manifest = parsed.output;
  } catch {
    throw new BackupError(BACKUP_MESSAGES.manifestBroken(manifestFile));
  }
  if (manifest.dialect !== config.dialect) throw new BackupError(BACKUP_MESSAGES.wrongDialect(manifest.dialect, config.dialect));
  const unknown = manifest.migrations.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) throw new BackupError(BACKUP_MESSAGES.newerMigrations(unknown.join(', ')));
  const dir = dirname(manifestFile);
  const paths: Partial<Record<'database' | 'jobs', string>> = {};
  for (const entry of manifest.files) {
    const path = join(dir, entry.name);
    if (!existsSync(path)) throw new BackupError(BACKUP_MESSAGES.fileMissing(path));
    const size = statSync(path).size;
    if (size !== entry.size) throw new BackupError(BACKUP_MESSAGES.truncated(entry.name, entry.size, size));
    if ((await sha256Of(path)) !== entry.sha256) throw new BackupError(BACKUP_MESSAGES.checksumMismatch(entry.name));
    paths[entry.role] = path;
  }
  return { manifestFile, manifest, database: paths.database!, jobs: paths.jobs };
}

/** Writes a file's data to the disk (a rename after it then never exposes a half-written file). */
function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Marks jobs still running in a restored jobs' table failed, as a server marks a dead server's (server/jobs/jobs.ts). */
const FAIL_RUNNING_JOBS = (now: string) =>
  `UPDATE job SET job_state = 'failed', job_error = '${MESSAGES.jobAbandoned.replace(/'/g, "''")}', job_finished = '${now}', modified = '${now}' WHERE job_state = 'running'`;

/** Opens a SQLite copy to check and settle it: `quick_check`, then `prepare`, then rollback-journal mode (one file). */
function settleSqliteCopy(path: string, name: string, prepare: (database: SQLite.Database) => void): void {
  let database: SQLite.Database | undefined;
  try {
    database = new SQLite(path, { fileMustExist: true });
    const check = database.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(check);
    prepare(database);
    database.pragma('journal_mode = DELETE');
  } catch (error) {
    throw error instanceof BackupError ? error : new BackupError(BACKUP_MESSAGES.unreadable(name, (error as Error).message));
  } finally {
    database?.close();
  }
}

/**
 * Whether a process has a SQLite database open: every connection to a WAL database holds a shared lock on it, so
 * leaving WAL mode (which needs the database to itself) fails while one does. Leaving it also writes the WAL into the
 * file and removes it, so the file is then the whole database.
 */
function ensureUnused(path: string): void {
  const database = new SQLite(path, { fileMustExist: true, timeout: 0 });
  try {
    database.pragma('journal_mode = DELETE');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY' || (error as { code?: string }).code === 'SQLITE_LOCKED') throw new BackupError(BACKUP_MESSAGES.serverRunning(path));
    throw error;
  } finally {
    database.close();
  }
}

async function restoreSqlite(config: Pick<Config, 'sqliteFile'>, backup: CheckedBackup): Promise<string[]> {
  const targets = { database: config.sqliteFile, jobs: jobFileOf(config.sqliteFile) };
  mkdirSync(dirname(targets.database), { recursive: true });
  const temp = (path: string) => `${path}.restoring`;
  const now = nowIso();
  try {
    // The copies beside their targets (one file system: the swap is a rename), checked before anything is touched.
    copyFileSync(backup.database, temp(targets.database));
    settleSqliteCopy(temp(targets.database), basename(backup.database), (database) => {
      const migrations = database.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all() as string[];
      if (migrations.join('\n') !== backup.manifest.migrations.join('\n')) throw new BackupError(BACKUP_MESSAGES.manifestBroken(backup.manifestFile));
    });
    syncFile(temp(targets.database));
    if (backup.jobs) {
      copyFileSync(backup.jobs, temp(targets.jobs));
      settleSqliteCopy(temp(targets.jobs), basename(backup.jobs), (database) => database.exec(FAIL_RUNNING_JOBS(now)));
      syncFile(temp(targets.jobs));
    }
    const present = Object.values(targets).filter((path) => existsSync(path));
    for (const path of present) ensureUnused(path);
    // The replaced files stay beside (a restore of the wrong file can be undone); a WAL left by a crash goes with them.
    const aside = `.before-restore-${fileStamp(now)}`;
    for (const path of present) {
      renameSync(path, `${path}${aside}`);
      for (const extra of ['-wal', '-shm']) if (existsSync(`${path}${extra}`)) renameSync(`${path}${extra}`, `${path}${aside}${extra}`);
    }
    renameSync(temp(targets.database), targets.database);
    if (backup.jobs) renameSync(temp(targets.jobs), targets.jobs);
    syncFile(dirname(targets.database));
    return present.map((path) => `${path}${aside}`);
  } finally {
    for (const path of Object.values(targets)) rmSync(temp(path), { force: true });
  }
}

/** What runs before the dump's SQL, in its transaction: the schema emptied as PostgreSQL creates it. */
const REPLACE_SCHEMA = `SET client_min_messages = warning;
SET lock_timeout = '30s';
BEGIN;
DROP SCHEMA IF EXISTS public CASCADE;
CREATE SCHEMA public AUTHORIZATION pg_database_owner;
GRANT USAGE ON SCHEMA public TO PUBLIC;
COMMENT ON SCHEMA public IS 'standard public schema';
`;

async function restorePostgres(config: Pick<Config, 'databaseUrl'>, backup: CheckedBackup): Promise<void> {
  const { url, env } = toolConnection(config.databaseUrl);
  // The archive's table of contents must read (a damaged dump is refused before the database is touched).
  await startTool('pg_restore', ['--list', backup.database], env).done.catch((error: BackupError) => {
    throw new BackupError(BACKUP_MESSAGES.unreadable(basename(backup.database), error.message));
  });
  const client = await connectPostgres(config.databaseUrl);
  try {
    // The connections of servers stopped a moment ago may still be ending: they are given a few seconds.
    for (const deadline = Date.now() + 3000; ;) {
      const { rows: [{ others }] } = await client.query<{ others: number }>(
        `SELECT count(*)::int AS others FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`);
      if (others === 0) break;
      if (Date.now() > deadline) throw new BackupError(BACKUP_MESSAGES.otherConnections(others));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
  const psql = startTool('psql', ['--no-psqlrc', '--quiet', '--set', 'ON_ERROR_STOP=1', '--dbname', url, '--file', '-'], env, { input: true });
  const input = psql.child.stdin!;
  // psql stops at the first error and closes its input: what is still written then is dropped.
  input.on('error', () => undefined);
  input.write(REPLACE_SCHEMA);
  const dump = startTool('pg_restore', ['--no-owner', '--no-privileges', '--file', '-', backup.database], env, { output: true });
  dump.child.stdout!.pipe(input, { end: false });
  try {
    await dump.done;
  } catch (error) {
    // No COMMIT: psql ends with the transaction open, and PostgreSQL rolls it back.
    input.end();
    await psql.done.catch(() => undefined);
    throw new BackupError(BACKUP_MESSAGES.restoreFailed((error as Error).message));
  }
  const now = nowIso();
  input.end(`DO $$ BEGIN IF to_regclass('public.job') IS NOT NULL THEN ${FAIL_RUNNING_JOBS(now).replace('UPDATE job', 'UPDATE public.job')}; END IF; END $$;\nCOMMIT;\n`);
  await psql.done.catch((error: Error) => {
    throw new BackupError(BACKUP_MESSAGES.restoreFailed(error.message));
  });
}

/**
 * Restores a backup (its manifest or one of its data files) as the configured database; answers the backup and the
 * files kept aside (SQLite).
 * @example const { manifest } = await restoreDatabase(loadConfig(), 'backups/hod-sqlite-20261127T182743Z.json')
 */
export async function restoreDatabase(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>, file: string): Promise<{ backup: CheckedBackup; keptAside: string[] }> {
  const backup = await checkBackup(config, file);
  if (config.dialect === 'postgres') {
    await restorePostgres(config, backup);
    return { backup, keptAside: [] };
  }
  return { backup, keptAside: await restoreSqlite(config, backup) };
}
