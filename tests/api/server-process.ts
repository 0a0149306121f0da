/**
 * The real server (`server/main.ts`) as a child process — the primary and its `WEB_CONCURRENCY`
 * workers — on a fresh SQLite file or a fresh PostgreSQL database, for the tests of what only several
 * processes show (concurrent writes racing between processes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DialectName } from '../../server/config';
import { assertNoInternals, createPostgresDatabase } from './harness';

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
  /** A built server (scripts/build-server.mjs) to run instead of `server/main.ts` through tsx. */
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
 * Starts `server/main.ts` with an admin account and no demo data, and waits until it has said where it listens and with how many processes.
 * @example const server = await startServerProcess('postgres', { email: 'a@example.jp', password: 'pw-2026-long' }, 2)
 */
export async function startServerProcess(dialect: DialectName, admin: { email: string; password: string }, workers: number, options: StartOptions = {}): Promise<ServerProcess> {
  if (options.beside && dialect !== 'postgres') throw new Error('a second host shares a PostgreSQL database');
  const dir = options.on?.dataDir ?? mkdtempSync(join(tmpdir(), 'hod-processes-'));
  if (!options.on) {
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'index.html'), '<!doctype html><title>index</title>');
  }
  const previous = options.on ? owned.get(options.on) : undefined;
  previous?.handOn();
  const shared = options.beside ? { url: options.beside.databaseUrl, drop: async () => {} } : undefined;
  const pgDb = shared ?? previous ?? (dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!) : undefined);
  let output = '';
  const child = spawn(process.execPath, options.built ? [options.built] : ['--import', 'tsx', 'server/main.ts'], {
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
