/**
 * API test harness: the real app on a fresh SQLite file, and — when TEST_DATABASE_URL is set —
 * on a fresh PostgreSQL database created for the suite and dropped after it. Every suite loops
 * over `dialects()` (Kysely style). Every answer is checked for leaked internals.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { registerServerAreas } from '../../server/areas';
import { listeningPort } from '../../server/cluster';
import { loadConfig, type Config, type DialectName } from '../../server/config';
import { openDatabase, type AppDatabase } from '../../server/db/connect';
import { migrateToLatest } from '../../server/db/migrate';
import type { JobInfo } from '../../lib/jobs';
import { seedFixtures, type Fixtures } from './fixtures';

process.env.TZ ||= 'Asia/Tokyo';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The dialects to test: SQLite always, PostgreSQL when TEST_DATABASE_URL is set; `TEST_DIALECTS` (`sqlite` or
 * `postgres`) keeps one of them (`npm test` runs the two halves side by side).
 */
export function dialects(): DialectName[] {
  const all: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const only = process.env.TEST_DIALECTS?.trim();
  return only ? all.filter((d) => d === only) : all;
}

export type ParamValue = string | number | boolean | object | null | undefined;

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface Harness {
  dialect: DialectName;
  app: FastifyInstance;
  database: AppDatabase;
  config: Config;
  /** http://127.0.0.1:{port} */
  url: string;
  fixtures: Fixtures;
  /** The admin's auth key (logged in at start). */
  adminKey: string;
  /** `POST {dbApi}/{call}` form-encoded; adds the admin's authKey unless `key` says otherwise (null: none). */
  post<T = Record<string, unknown>>(call: string, params?: Record<string, ParamValue>, key?: string | null): Promise<Answer<T[]>>;
  /** `POST /api/login/` form-encoded. */
  login<T = Record<string, unknown>>(email: string, password: string): Promise<Answer<T[]>>;
  /** A user's auth key (asserts the login worked). */
  keyOf(email: string, password: string): Promise<string>;
  /** Any request to the server. */
  request(path: string, init?: RequestInit): Promise<Answer<unknown>>;
  close(): Promise<void>;
}

/** Fails when an answer shows internals: stack lines or raw error names. */
export function assertNoInternals(text: string): void {
  assert.doesNotMatch(text, /\n\s+at |\bat [\w.<>]+ \(|Error:|node_modules|\.ts:\d+/, `answer leaks internals: ${text.slice(0, 300)}`);
}

const encode = (params: Record<string, ParamValue>): URLSearchParams => {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    body.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return body;
};

/** The sources a migrated database and the built server depend on: the migrations, the shared and server code, the scripts. */
export function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) hash.update(path).update(readFileSync(path));
    }
  };
  for (const dir of ['lib', 'server', 'scripts']) walk(join(root, dir));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated PostgreSQL database of this checkout's sources to copy test databases from (`CREATE DATABASE … TEMPLATE`):
 * migrating a new database costs seconds, copying one a fraction. Built once per source state under an advisory lock
 * held by the caller; templates of other source states are dropped when not in use.
 */
async function migratedTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `hod_tmpl_${sourceHash()}`;
  const found = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'hod_tmpl_%'`);
  for (const { datname } of found.rows) {
    if (datname === name) return name;
    // Another checkout's template: removed unless a run is copying it right now.
    await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
  }
  const building = `${name}_build`;
  await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${building}`);
  const url = new URL(adminUrl);
  url.pathname = `/${building}`;
  const database = openDatabase({ dialect: 'postgres', databaseUrl: url.toString(), sqliteFile: '' });
  try {
    await migrateToLatest(database.db, 'postgres');
  } finally {
    await database.close();
  }
  await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  return name;
}

/**
 * Puts a migrated SQLite database at `file` (a copy of this source state's template, built once in the temporary
 * folder: a copy costs milliseconds, migrating a new file most of a second).
 */
export async function migratedSqliteFile(file: string): Promise<void> {
  const template = join(tmpdir(), `hod-sqlite-tmpl-${sourceHash()}.db`);
  if (!existsSync(template)) {
    // Built beside it and renamed: two test processes building at once each rename a whole file.
    const part = `${template}.${process.pid}.part`;
    const database = openDatabase({ dialect: 'sqlite', databaseUrl: '', sqliteFile: part });
    try {
      await migrateToLatest(database.db, 'sqlite');
    } finally {
      // Closing checkpoints the journal into the file, so the one file is the whole database.
      await database.close();
    }
    renameSync(part, template);
  }
  copyFileSync(template, file);
}

/** A new PostgreSQL database with a random name next to `adminUrl`'s, migrated (a copy of the template), and how to drop it. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hod_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // One lock for every test process: the template is built once and never copied while it is being built.
    await admin.query('SELECT pg_advisory_lock(190119)');
    const template = await migratedTemplate(admin, adminUrl);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    // A test database is thrown away: its commits need not wait for the disk (5.4 → 0.5 ms a commit here).
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock(190119)').catch(() => undefined);
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface FreshDatabase {
  database: AppDatabase;
  close(): Promise<void>;
}

/** An empty, migrated database of a dialect (no app, no fixtures), dropped on close. */
export async function freshDatabase(dialect: DialectName): Promise<FreshDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'hod-db-'));
  const pgDb = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!) : undefined;
  if (dialect === 'sqlite') await migratedSqliteFile(join(dir, 'app.db'));
  const database = openDatabase({ dialect, databaseUrl: pgDb?.url ?? '', sqliteFile: join(dir, 'app.db') });
  await migrateToLatest(database.db, database.dialect);
  return {
    database,
    async close() {
      await database.close();
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small static bundle, so the static routes can be tested without `next build`. */
function fakeBundle(dir: string): string {
  const out = join(dir, 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'index.html'), '<!doctype html><title>index</title><p>bundle index</p>');
  writeFileSync(join(out, '404.html'), '<!doctype html><title>404</title><p>bundle 404</p>');
  return out;
}

/**
 * Starts the app for a dialect on port 0 with the tiny fixture data.
 * @example const h = await startHarness('sqlite'); await h.post('client_lst', { n: 5 }); await h.close();
 */
export async function startHarness(dialect: DialectName, env: Record<string, string> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'hod-api-'));
  const pgDb = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!) : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: pgDb?.url ?? '',
    STATIC_DIR: fakeBundle(dir),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    CORS_ORIGINS: 'https://allowed.example.jp',
    MAPS_API_KEY: 'test-maps-key',
    ...env,
  });
  if (config.dialect === 'sqlite' && !existsSync(config.sqliteFile)) await migratedSqliteFile(config.sqliteFile);
  const database = openDatabase(config);
  await migrateToLatest(database.db, database.dialect);
  registerServerAreas();
  const fixtures = await seedFixtures(database.db);
  const app = await buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${listeningPort(app)}`;

  const request = async (path: string, init: RequestInit = {}): Promise<Answer<unknown>> => {
    const res = await fetch(`${url}${path}`, { redirect: 'manual', ...init });
    const text = await res.text();
    assertNoInternals(text);
    let body: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
    return { status: res.status, headers: res.headers, text, body };
  };
  const form = (path: string, params: Record<string, ParamValue>) =>
    request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' }, body: encode(params) });

  const login = async <T>(email: string, password: string) =>
    (await form(`${config.loginApiPrefix}/`, { userEmail: email, userPassword: password })) as Answer<T[]>;
  const keyOf = async (email: string, password: string) => {
    const answer = await login<{ auth_key: string }>(email, password);
    assert.equal(answer.status, 200, answer.text);
    return answer.body[0].auth_key;
  };
  const adminKey = await keyOf(fixtures.users.admin.email, fixtures.users.admin.password);

  return {
    dialect, app, database, config, url, fixtures, adminKey, request, login, keyOf,
    post: async <T>(call: string, params: Record<string, ParamValue> = {}, key: string | null = adminKey) =>
      (await form(`${config.dbApiPrefix}/${call}`, key === null ? params : { authKey: key, ...params })) as Answer<T[]>,
    async close() {
      await app.close();
      await database.close();
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh harness for the enclosing suite: started before its tests, closed after them. The answer
 * forwards to the running harness, so tests use it like the harness itself. `env` may be a function,
 * asked when the suite starts (e.g. for the port of a server an earlier `before` started).
 * @example const h = useHarness(dialect); it('…', async () => { await h.post('client_lst', {}) })
 */
export function useHarness(dialect: DialectName, env: Record<string, string> | (() => Record<string, string>) = {}): Harness {
  let current: Harness | undefined;
  before(async () => {
    current = await startHarness(dialect, typeof env === 'function' ? env() : env);
  });
  after(async () => {
    await current?.close();
  });
  return new Proxy({} as Harness, {
    get(_target, prop) {
      if (!current) throw new Error('the harness is used before its suite started');
      const value = Reflect.get(current, prop) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}

/** An answer row and a refusal as the resource calls answer them. */
export type ResourceAnswer = Record<string, string | number | null>;
export type Refusal = { error: string; fields?: Record<string, string> };

/**
 * The save helpers of a suite: `save` (any answer), `created` (asserts 200, the saved row), `problem` (a refusal's body).
 * @example const { created } = resourceCalls(h); const item = await created('item', { code: 'W', name: '水' });
 */
export function resourceCalls(h: Harness) {
  const save = (resource: string, postData: Record<string, unknown>, id?: number) =>
    h.post<ResourceAnswer>(`${resource}_save`, { id, postData: JSON.stringify(postData) });
  const created = async (resource: string, postData: Record<string, unknown>): Promise<ResourceAnswer> => {
    const res = await save(resource, postData);
    assert.equal(res.status, 200, res.text);
    return res.body[0];
  };
  const problem = (res: { body: unknown[] }) => res.body[0] as Refusal;
  return { save, created, problem };
}

/** A call's answer read as bytes (a file), with its headers and trailers (fetch does not expose trailers). */
export interface FileReply {
  status: number;
  headers: IncomingHttpHeaders;
  trailers: NodeJS.Dict<string>;
  bytes: Buffer;
}

/**
 * `POST {dbApi}/{call}` form-encoded, the answer read as bytes: the files calls answer (CSV, PDF, the Zengin request).
 * `key` null sends no auth key.
 * @example const reply = await downloadFile(h, 'client_csv', { enc: 'utf8' }); iconv.decode(reply.bytes, 'cp932')
 */
export function downloadFile(h: Harness, call: string, params: Record<string, string | number>, key: string | null = h.adminKey): Promise<FileReply> {
  return new Promise((resolve, reject) => {
    const body = new URLSearchParams({ ...(key === null ? {} : { authKey: key }), ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) }).toString();
    const req = httpRequest(`${h.url}${h.config.dbApiPrefix}/${call}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, trailers: res.trailers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Reads `job_dtl` until the job is no longer running (at most two minutes) and answers it as it ended.
 * @example const job = await jobEnded<ClosingRunResult>(h, started.body[0].job_id); assert.equal(job.state, 'done')
 */
export async function jobEnded<R = unknown>(h: Harness, jobId: number): Promise<JobInfo<R>> {
  for (const deadline = Date.now() + 120_000; ;) {
    const res = await h.post<JobInfo<R>>('job_dtl', { id: jobId });
    assert.equal(res.status, 200, res.text);
    if (res.body[0].state !== 'running') return res.body[0];
    assert.ok(Date.now() < deadline, `job ${jobId} ends`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
