/**
 * The real server (`server/main.ts`) as a child process — the primary and its `WEB_CONCURRENCY`
 * workers — on a fresh SQLite file or a fresh PostgreSQL database, for the tests of what only several
 * processes show (concurrent writes racing between processes).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DialectName } from '../../server/config';
import { assertNoInternals, createPostgresDatabase, migratedSqliteFile, sourceHash } from './harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
let bundle: string | undefined;

/**
 * The server as production runs it (scripts/build-server.mjs: one ES module), built once per source state into
 * `dist/test-server-{hash}/` — inside the checkout, so its package imports resolve from node_modules. A process loads
 * the bundle in a fraction of the time compiling the sources through tsx takes (on this 2-core machine, under the
 * suite's load: 13–16 s against 27–28 s for a primary and two workers), and the tests run what production runs.
 * Test processes that build at once each build beside it and rename; the first rename wins. The maintenance commands
 * (`backup.js`, `restore.js`) are built beside it.
 */
export function builtServer(): string {
  if (bundle) return bundle;
  const dir = join(root, 'dist', `test-server-${sourceHash()}`);
  const file = join(dir, 'main.js');
  if (!existsSync(file)) {
    const part = `${dir}.${process.pid}.part`;
    execFileSync(process.execPath, [join(root, 'scripts', 'build-server.mjs'), join(part, 'main.js')], { cwd: root, stdio: 'pipe' });
    try {
      renameSync(part, dir);
    } catch {
      rmSync(part, { recursive: true, force: true });
    }
    // The bundles of earlier source states.
    for (const entry of readdirSync(join(root, 'dist'))) {
      if (entry.startsWith('test-server-') && !entry.startsWith(basename(dir))) rmSync(join(root, 'dist', entry), { recursive: true, force: true });
    }
  }
  return (bundle = file);
}

/** Whether a process of this id is running. */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export interface ServerProcess {
  /** The primary process. */
  child: ChildProcess;
  /** http://127.0.0.1:{port} */
  url: string;
  /** Where its data lives: the data directory (SQLite file `app.db`) and, on PostgreSQL, the database URL. */
  dataDir: string;
  databaseUrl: string;
  /** What the server printed so far. */
  output(): string;
  /** `POST {path}` form-encoded; the answer's JSON body (checked for leaked internals). */
  post(path: string, params: Record<string, string>): Promise<{ status: number; text: string; body: Record<string, unknown>[] }>;
  /** Kills the server (if still running) and removes its database. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** A killed server whose data the new one starts on (and then removes on close). */
  on?: ServerProcess;
  /** Another built server (scripts/build-server.mjs) to run instead of this source state's (`builtServer`). */
  built?: string;
  /**
   * Another host: a second server on the same PostgreSQL database as this running one, with a data folder of its own
   * (what a second application server behind a load balancer is). Closing it leaves the database to the first.
   */
  beside?: ServerProcess;
  /** More environment for the server (e.g. `{ LOG_LEVEL: 'info' }`). */
  env?: Record<string, string>;
  /** The database URL the server is given instead of its database's own (e.g. the same database through a proxy). */
  databaseUrl?: (url: string) => string;
}

/**
 * Starts the server (`server/main.ts`, built: `builtServer`) with an admin account and no demo data, on a migrated database
 * (a copy of the template, as the in-process tests' databases are), and waits until it has said where it listens and with
 * how many processes.
 * @example const server = await startServerProcess('postgres', { email: 'a@example.jp', password: 'pw-2026-long' }, 2)
 */
export async function startServerProcess(dialect: DialectName, admin: { email: string; password: string }, workers: number, options: StartOptions = {}): Promise<ServerProcess> {
  if (options.beside && dialect !== 'postgres') throw new Error('a second host shares a PostgreSQL database');
  const dir = options.on?.dataDir ?? mkdtempSync(join(tmpdir(), 'hod-processes-'));
  if (!options.on) {
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'index.html'), '<!doctype html><title>index</title>');
    if (dialect === 'sqlite') await migratedSqliteFile(join(dir, 'app.db'));
  }
  const previous = options.on ? owned.get(options.on) : undefined;
  previous?.handOn();
  const shared = options.beside ? { url: options.beside.databaseUrl, drop: async () => {} } : undefined;
  const pgDb = shared ?? previous ?? (dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!) : undefined);
  let output = '';
  const child = spawn(process.execPath, ['--enable-source-maps', options.built ?? builtServer()], {
    env: {
      ...process.env, TZ: 'Asia/Tokyo', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, STATIC_DIR: join(dir, 'out'), DATABASE_URL: pgDb?.url ? (options.databaseUrl?.(pgDb.url) ?? pgDb.url) : '',
      SEED: '0', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, LOG_LEVEL: 'silent', WEB_CONCURRENCY: String(workers),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let handedOn = false;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await ended;
    }
    // Its data went on to a server started on it, which removes it.
    if (handedOn) return;
    await pgDb?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        // The primary prints the address, then the database and the number of processes (tests read both).
        const port = /http:\/\/localhost:(\d+)\/[^]*Database: [^\n]*\n/.exec(output)?.[1];
        if (port) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${port}`);
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.on('exit', (code) => reject(new Error(`the server ended (${code}):\n${output}`)));
    });
  } catch (error) {
    await close();
    throw error;
  }
  const post = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
    const text = await res.text();
    assertNoInternals(text);
    return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown>[] };
  };
  const server: ServerProcess = { child, url, dataDir: dir, databaseUrl: pgDb?.url ?? '', output: () => output, post, close };
  owned.set(server, { url: pgDb?.url ?? '', drop: async () => pgDb?.drop(), handOn: () => { handedOn = true; } });
  return server;
}

/** The PostgreSQL database each running server removes on close (a server started `on` another takes it over). */
const owned = new Map<ServerProcess, { url: string; drop(): Promise<void>; handOn(): void }>();
