/**
 * `npm run backup` (scripts/backup.ts): a consistent copy of the product's data while the servers keep writing, with
 * a manifest that lets `npm run restore` (server/db/restore.ts) refuse a damaged or foreign copy.
 *
 * A backup is files sharing one name in BACKUP_DIR (`hod-{dialect}-{UTC time}`):
 * - SQLite: `….db`, the database through SQLite's online backup API, and `…-jobs.db`, the jobs' file beside it
 *   (server/jobs/job-db.ts). The jobs belong to the data: orders and audit rows carry the id of the run that wrote
 *   them (`od_job_id`, `log_job_id`), and a database restored without its jobs would number new runs from 1 again,
 *   under ids those rows already carry (PostgreSQL keeps the job table in the database, so its dump has it too). The
 *   jobs' file is copied first: a run that commits between the two copies is then at most marked 中断 beside its
 *   data, never 完了 without it. Each copy is one step of the backup API, one read transaction: WAL lets the servers
 *   write meanwhile, and the copy is the database as of that moment.
 * - PostgreSQL: `….dump`, `pg_dump -Fc` (custom format, compressed) in a snapshot exported by a transaction that
 *   also reads the migrations, so the manifest names those of the dump.
 * - `….json`, the manifest, written last (a backup without one is incomplete): format, dialect, time, the migrations
 *   the database had run, and each file's role, name, size and SHA-256.
 */
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { BACKUP_MESSAGES } from '../../lib/backup/messages';
import type { Config, DialectName } from '../config';
import { nowIso } from '../http/clock';
import { jobFileOf } from '../jobs/job-db';

export const BACKUP_FORMAT = 'hod-backup';

export type BackupFileRole = 'database' | 'jobs';

export interface BackupFile {
  role: BackupFileRole;
  /** The file's name, in the manifest's folder. */
  name: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  dialect: DialectName;
  /** When the copy was taken (ISO UTC). */
  created: string;
  /** The migrations the database had run (`kysely_migration`), sorted. */
  migrations: string[];
  files: BackupFile[];
}

/** A refusal or failure told to the operator as it is (a Japanese message from BACKUP_MESSAGES); exit code 1. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The SHA-256 of a file (hex), read as a stream. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `20261127T182743Z` of an ISO time: sorts by time, no characters a file system refuses. */
export const fileStamp = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');

/** The part of a database URL without its password, and the password (given to the PostgreSQL tools in PGPASSWORD, not on their command line). */
export function toolConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

/**
 * Starts a PostgreSQL client tool: `done` resolves when it exits 0 and otherwise rejects with its last error lines (or
 * that it is missing). `input` / `output`: a pipe for its standard input / output (else none).
 */
export function startTool(tool: string, args: string[], env: NodeJS.ProcessEnv, pipes: { input?: boolean; output?: boolean } = {}): { child: ChildProcess; done: Promise<void> } {
  const child = spawn(tool, args, { env, stdio: [pipes.input ? 'pipe' : 'ignore', pipes.output ? 'pipe' : 'ignore', 'pipe'] });
  const done = new Promise<void>((resolve, reject) => {
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new BackupError(error.code === 'ENOENT' ? BACKUP_MESSAGES.toolMissing(tool) : BACKUP_MESSAGES.toolFailed(tool, error.message))));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(BACKUP_MESSAGES.toolFailed(tool, errors.trim().split('\n').slice(-3).join(' / ') || `exit ${code}`)));
    });
  });
  return { child, done };
}

/** Copies a SQLite file in one step of the online backup API (one read transaction), as a self-contained file. */
async function copySqlite(source: string, target: string): Promise<void> {
  const database = new SQLite(source, { fileMustExist: true, timeout: 5000 });
  try {
    // All pages in one step: copied in several, any write of a server between two steps would start the copy over.
    await database.backup(target, { progress: () => 0x7fffffff });
  } finally {
    database.close();
  }
  // The copy is of a WAL database; in rollback mode it is one file, which opens read-only without a -wal beside it.
  const copy = new SQLite(target);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** The migrations a SQLite database file has run. */
export function sqliteMigrations(file: string): string[] {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (database.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all() as string[]);
  } finally {
    database.close();
  }
}

/** Copies the SQLite database and its jobs' file into `{base}.db` / `{base}-jobs.db` (parts, renamed by the caller). */
async function backupSqlite(config: Pick<Config, 'sqliteFile'>, part: (name: string) => string, base: string): Promise<{ files: Omit<BackupFile, 'size' | 'sha256'>[]; migrations: string[] }> {
  if (!existsSync(config.sqliteFile)) throw new BackupError(BACKUP_MESSAGES.noDatabase(config.sqliteFile));
  const files: Omit<BackupFile, 'size' | 'sha256'>[] = [];
  const jobFile = jobFileOf(config.sqliteFile);
  // The jobs first (see the file's comment).
  if (existsSync(jobFile)) {
    files.push({ role: 'jobs', name: `${base}-jobs.db` });
    await copySqlite(jobFile, part(`${base}-jobs.db`));
  }
  files.unshift({ role: 'database', name: `${base}.db` });
  await copySqlite(config.sqliteFile, part(`${base}.db`));
  return { files, migrations: sqliteMigrations(part(`${base}.db`)) };
}

/** A connection to the database, or a BackupError saying it could not be made. */
export async function connectPostgres(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(BACKUP_MESSAGES.cannotConnect((error as Error).message));
  }
  return client;
}

/** `pg_dump -Fc` into `{base}.dump` in the snapshot of a transaction that reads the migrations. */
async function backupPostgres(config: Pick<Config, 'databaseUrl'>, part: (name: string) => string, base: string): Promise<{ files: Omit<BackupFile, 'size' | 'sha256'>[]; migrations: string[] }> {
  const client = await connectPostgres(config.databaseUrl);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: [{ snapshot }] } = await client.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot');
    const { rows } = await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
    const { url, env } = toolConnection(config.databaseUrl);
    await startTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, '--file', part(`${base}.dump`), '--dbname', url], env).done;
    await client.query('COMMIT');
    return { files: [{ role: 'database', name: `${base}.dump` }], migrations: rows.map((r) => r.name) };
  } finally {
    await client.end();
  }
}

/**
 * Takes a backup of the configured database into `config.backupDir`; answers the manifest's path and the manifest.
 * @example const { manifestFile } = await backupDatabase(loadConfig())
 */
export async function backupDatabase(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile' | 'backupDir'>): Promise<{ manifestFile: string; manifest: BackupManifest }> {
  const created = nowIso();
  const base = `hod-${config.dialect}-${fileStamp(created)}`;
  const manifestFile = join(config.backupDir, `${base}.json`);
  mkdirSync(config.backupDir, { recursive: true });
  if (existsSync(manifestFile)) throw new BackupError(BACKUP_MESSAGES.backupExists(manifestFile));
  const part = (name: string) => join(config.backupDir, `.${name}.part`);
  const cleanUp = (names: string[]) => names.forEach((name) => rmSync(part(name), { force: true }));
  const candidates = [`${base}.db`, `${base}-jobs.db`, `${base}.dump`];
  try {
    const { files, migrations } = config.dialect === 'postgres' ? await backupPostgres(config, part, base) : await backupSqlite(config, part, base);
    const described: BackupFile[] = [];
    for (const file of files) {
      described.push({ ...file, size: statSync(part(file.name)).size, sha256: await sha256Of(part(file.name)) });
      renameSync(part(file.name), join(config.backupDir, file.name));
    }
    const manifest: BackupManifest = { format: BACKUP_FORMAT, version: 1, dialect: config.dialect, created, migrations, files: described };
    writeFileSync(part(`${base}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(part(`${base}.json`), manifestFile);
    return { manifestFile, manifest };
  } finally {
    cleanUp([...candidates, `${base}.json`]);
  }
}
