/**
 * What a production needs, through the real server:
 * - `GET /healthz` (server/http/healthz.ts): 200 when the database answers and every migration has run, 503 while a
 *   migration is missing, no auth key; on PostgreSQL, 503 while the database is cut off (a TCP proxy between the
 *   server and PostgreSQL, cut and restored) — the calls then answer 503 with a clean message, the process stays up,
 *   and once the proxy is back both work again;
 * - a stop (SIGTERM, server/http/shutdown.ts and server/cluster.ts) with a keep-alive client connected, a request in
 *   flight and a job running: the request is answered, the job finishes (done, not cancelled), the process exits 0;
 *   also when started with the README's `npm start` (scripts/start.mjs, npm signalling it);
 * - the log (server/http/log.ts): JSON lines with the request id (an incoming sane `x-request-id` kept and echoed)
 *   and the user id, and neither the e-mail address, the password nor the auth key.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MIGRATION_TABLE, sql } from 'kysely';
import { MESSAGES } from '../../lib/protocol';
import { itemResource } from '../../lib/resources/item';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/connect';
import { MIGRATION_NAMES } from '../../server/db/migrate';
import { openJobDatabase } from '../../server/jobs/job-db';
import { bulkInsert } from '../../server/seed/bulk-insert';
import { seedSyntheticClients } from '../../server/seed/seed';
import { assertNoInternals, dialects, useHarness } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'operations@example.jp', password: 'operations-password-2026' };
const root = fileURLToPath(new URL('../..', import.meta.url));

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
  socket: net.Socket;
}

/** One HTTP request (on `agent`: keep-alive), its answer read whole. */
function request(url: string, options: { method?: string; body?: string; agent?: http.Agent; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? '';
    const req = http.request(url, {
      method: options.method ?? (body ? 'POST' : 'GET'), agent: options.agent ?? false,
      headers: { ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } : {}), ...options.headers },
    }, (res) => {
      // Kept now: a keep-alive agent takes the socket back once the answer is read.
      const { socket } = res;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        assertNoInternals(text);
        const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: json ? JSON.parse(text) as unknown : text, socket });
      });
    });
    req.on('error', reject);
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
    req.end(body);
  });
}

const form = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/**
 * A call whose headers the server has read (it answered `100 Continue`) while its body is not sent yet: in flight
 * until `send()`.
 */
function callInFlight(url: string, params: Record<string, string>, agent: http.Agent): { continued: Promise<void>; send(): Promise<Reply> } {
  const body = form(params);
  let answer!: Promise<Reply>;
  let send!: () => void;
  const continued = new Promise<void>((resolveContinue, rejectContinue) => {
    answer = new Promise<Reply>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST', agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; });
        const { socket } = res;
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: JSON.parse(text) as unknown, socket }));
      });
      req.on('continue', () => resolveContinue());
      req.on('error', (error) => {
        rejectContinue(error);
        reject(error);
      });
      send = () => req.end(body);
    });
  });
  return { continued, send: () => {
    send();
    return answer;
  } };
}

const exitOf = (child: ServerProcess['child']): Promise<number | null> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.on('exit', (code) => resolve(code)));

/** Polls `check` until it answers true (every 50 ms, at most `ms`). */
async function until(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; ;) {
    if (await check()) return;
    assert.ok(Date.now() < deadline, `waited for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Whether a new connection to the server is refused (every server process stopped listening). A probe unanswered
 * after 2 s counts as not refused yet: a connection the primary hands to a worker in the instant that worker stops
 * listening is held by the primary until it exits (Node's round-robin handoff, nodejs/node#21940), and waiting on it
 * would hold the test until the server's limit.
 */
const refused = (url: string): Promise<boolean> =>
  request(`${url}/healthz`, { timeoutMs: 2_000 }).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED');

async function loginOf(server: ServerProcess): Promise<string> {
  const login = await server.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
  assert.equal(login.status, 200, login.text);
  return String(login.body[0].auth_key);
}

describe('SHUTDOWN_TIMEOUT_MS', () => {
  it('defaults to 30 s and refuses what is not a positive number', () => {
    assert.equal(loadConfig({}).shutdownTimeoutMs, 30_000);
    assert.equal(loadConfig({ SHUTDOWN_TIMEOUT_MS: '5000' }).shutdownTimeoutMs, 5_000);
    for (const bad of ['0', '-1', 'soon']) assert.throws(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: bad }), /SHUTDOWN_TIMEOUT_MS must be a positive number/);
  });
});

for (const dialect of dialects()) {
  describe(`/healthz (${dialect})`, () => {
    const h = useHarness(dialect);
    const health = async () => {
      const res = await h.request('/healthz');
      return { status: res.status, body: res.body as Record<string, string>, headers: res.headers };
    };

    it('answers 200 without an auth key when the database answers and every migration has run', async () => {
      const res = await health();
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'ok', database: 'up', migrations: 'current' });
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      const head = await request(`${h.url}/healthz`, { method: 'HEAD' });
      assert.equal(head.status, 200);
    });

    it('answers 503 while a migration is missing, 200 again once it has run; a database ahead of the code is healthy', async () => {
      const newest = MIGRATION_NAMES.at(-1)!;
      const table = sql.table(DEFAULT_MIGRATION_TABLE);
      const { rows } = await sql<{ name: string; timestamp: string }>`SELECT name, timestamp FROM ${table} WHERE name = ${newest}`.execute(h.database.db);
      assert.equal(rows.length, 1);
      await sql`DELETE FROM ${table} WHERE name = ${newest}`.execute(h.database.db);
      try {
        const behind = await health();
        assert.equal(behind.status, 503);
        assert.deepEqual(behind.body, { status: 'unavailable', database: 'up', migrations: 'behind' });
      } finally {
        await sql`INSERT INTO ${table} (name, timestamp) VALUES (${rows[0].name}, ${rows[0].timestamp})`.execute(h.database.db);
      }
      assert.equal((await health()).status, 200);
      await sql`INSERT INTO ${table} (name, timestamp) VALUES ('9999-a-newer-server', ${rows[0].timestamp})`.execute(h.database.db);
      try {
        const ahead = await health();
        assert.equal(ahead.status, 200);
        assert.equal(ahead.body.migrations, 'ahead');
      } finally {
        await sql`DELETE FROM ${table} WHERE name = '9999-a-newer-server'`.execute(h.database.db);
      }
    });

    it('keeps a sane incoming x-request-id and replaces any other', async () => {
      const kept = await h.request('/healthz', { headers: { 'x-request-id': 'lb-7f3a:01' } });
      assert.equal(kept.headers.get('x-request-id'), 'lb-7f3a:01');
      const call = await h.request(`${h.config.dbApiPrefix}/client_cnt`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'call-42' }, body: form({ authKey: h.adminKey }),
      });
      assert.equal(call.status, 200);
      assert.equal(call.headers.get('x-request-id'), 'call-42');
      for (const bad of ['two words', 'x'.repeat(129), '<script>']) {
        const res = await h.request('/healthz', { headers: { 'x-request-id': bad } });
        assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, bad);
      }
    });

    // Last: it closes the app.
    it('answers a request that arrives while the app stops 503 [{error}] in Japanese, /healthz too', async () => {
      const { port } = new URL(h.url);
      // Two connections with a request begun on each (its first line sent): not idle, so the stop leaves them open.
      const begin = async (line: string): Promise<{ socket: net.Socket; answer: Promise<string> }> => {
        const socket = net.connect(Number(port), '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', resolve));
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => { text += chunk; });
        const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
        socket.write(`${line}\r\nHost: 127.0.0.1\r\n`);
        return { socket, answer };
      };
      const body = form({ authKey: h.adminKey });
      const call = await begin(`POST ${h.config.dbApiPrefix}/client_cnt HTTP/1.1`);
      const health = await begin('GET /healthz HTTP/1.1');
      const closed = h.app.close();
      // Once it no longer listens, its preClose hooks have run: it is stopping.
      for (let i = 0; i < 500 && h.app.server.listening; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(h.app.server.listening, false);
      call.socket.write(`Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      health.socket.write('\r\n');
      for (const text of [await call.answer, await health.answer]) {
        assert.match(text, /^HTTP\/1\.1 503 /, text);
        assert.match(text, /\r\nconnection: close\r\n/i, text);
        const json = text.slice(text.indexOf('\r\n\r\n') + 4);
        assert.deepEqual(JSON.parse(json), [{ error: MESSAGES.stopping }]);
        assertNoInternals(json);
      }
      await closed;
    });
  });

  describe(`a stop (SIGTERM, ${dialect}, two server processes)`, () => {
    let server: ServerProcess;
    let authKey = '';

    before(async () => {
      // The log at `warn`: a stop that waits names what it waits for, and a failure below shows it.
      server = await startServerProcess(dialect, ADMIN, 2, { env: { SHUTDOWN_TIMEOUT_MS: '60000', LOG_LEVEL: 'warn' } });
      // Enough regular customers that a month's generation runs for a while (tests/api/jobs.test.ts).
      const database = openDatabase({ dialect, databaseUrl: server.databaseUrl, sqliteFile: join(server.dataDir, 'app.db') });
      try {
        await seedSyntheticClients(database.db, 4_000);
        await bulkInsert(database.db, itemResource, [{ code: 'W12', name: '天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, returnable: 1 }]);
      } finally {
        await database.close();
      }
      authKey = await loginOf(server);
    });
    after(async () => {
      await server?.close();
    });

    it('answers the request in flight, lets the running job finish, closes the keep-alive connections and exits 0', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const inFlightAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const call = `${server.url}/api/db/client_cnt`;
      // A keep-alive client: its connection stays open, idle, after its answer.
      const idle = await request(call, { body: form({ authKey }), agent });
      assert.equal(idle.status, 200, idle.text);
      assert.equal(idle.headers.connection, 'keep-alive');
      const idleClosed = new Promise<void>((resolve) => idle.socket.once('close', () => resolve()));
      const started = await request(`${server.url}/api/db/hod_generate`, { body: form({ authKey, from: '2026-12-01', to: '2026-12-31' }) });
      assert.equal(started.status, 200, started.text);
      const jobId = Number((started.body as { job_id: number }[])[0].job_id);
      const inFlight = callInFlight(call, { authKey }, inFlightAgent);
      await inFlight.continued;

      const signalled = new Date().toISOString();
      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      // Every server process has stopped listening: the request still in flight is answered all the same.
      await until(() => refused(server.url), 'the server processes stop listening');
      const answer = await inFlight.send().catch((error: Error) => assert.fail(`${error.message}; the server said:\n${server.output()}`));
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body, [4_000]);
      assert.equal(answer.headers.connection, 'close', 'the answer ends its keep-alive connection');
      assert.equal(await exited, 0, server.output());
      await idleClosed;
      agent.destroy();
      inFlightAgent.destroy();

      const store = await openJobDatabase({ dialect, databaseUrl: server.databaseUrl, sqliteFile: join(server.dataDir, 'app.db') });
      try {
        const job = await store.db.selectFrom('job').selectAll().where('job_id', '=', jobId).executeTakeFirstOrThrow();
        assert.equal(job.job_state, 'done', JSON.stringify(job));
        assert.ok(String(job.job_finished) > signalled, `the job was still running at the signal (finished ${job.job_finished}, signal ${signalled})`);
        assert.ok((JSON.parse(String(job.job_result)) as { created: number }).created > 1_000, String(job.job_result));
      } finally {
        await store.close();
      }
    });
  });

  describe(`the log (${dialect})`, () => {
    let server: ServerProcess;
    before(async () => {
      server = await startServerProcess(dialect, ADMIN, 1, { env: { LOG_LEVEL: 'info' } });
    });
    after(async () => {
      await server?.close();
    });

    it('is JSON lines with the request id and the user id, without the e-mail, the password or the auth key', async () => {
      // What the first start printed (the admin account, once, for whoever starts it) is not the log.
      const startup = server.output().length;
      const login = await request(`${server.url}/api/login/`, { body: form({ userEmail: ADMIN.email, userPassword: ADMIN.password }), headers: { 'x-request-id': 'ops-login-1' } });
      assert.equal(login.status, 200, login.text);
      const authKey = String((login.body as { auth_key: string }[])[0].auth_key);
      const listed = await request(`${server.url}/api/db/client_lst`, { body: form({ authKey, n: '5' }), headers: { 'x-request-id': 'ops-call-1' } });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.headers['x-request-id'], 'ops-call-1');
      const wrongKey = await request(`${server.url}/api/db/client_lst`, { body: form({ authKey: 'not-a-key' }) });
      assert.equal(wrongKey.status, 401);
      const wrongPassword = await request(`${server.url}/api/login/`, { body: form({ userEmail: ADMIN.email, userPassword: 'a-wrong-password-2026' }) });
      assert.equal(wrongPassword.status, 401);

      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      assert.equal(await exited, 0);
      const lines = server.output().slice(startup).split('\n').filter((line) => line.trim() !== '');
      const entries = lines.map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          assert.fail(`not a JSON line: ${line}`);
        }
      });
      for (const entry of entries) {
        assert.equal(typeof entry.level, 'number');
        assert.equal(typeof entry.time, 'number');
        assert.equal(typeof entry.msg, 'string');
      }
      const requests = entries.filter((e) => e.msg === 'request');
      assert.ok(requests.length >= 4, lines.join('\n'));
      for (const entry of requests) assert.equal(typeof entry.reqId, 'string', JSON.stringify(entry));
      const call = requests.find((e) => e.reqId === 'ops-call-1');
      assert.ok(call, lines.join('\n'));
      assert.deepEqual({ method: call.method, url: call.url, status: call.status }, { method: 'POST', url: '/api/db/client_lst', status: 200 });
      assert.equal(typeof call.userId, 'number', 'the caller is named by its id');
      assert.equal(requests.find((e) => e.reqId === 'ops-login-1')?.status, 200);
      assert.ok(entries.some((e) => e.msg === 'stopping: finishing the requests and jobs in flight'), lines.join('\n'));
      const text = lines.join('\n');
      for (const secret of [ADMIN.email, ADMIN.password, authKey, 'a-wrong-password-2026', 'not-a-key']) assert.ok(!text.includes(secret), `the log holds ${secret}`);
    });
  });
}

/**
 * A TCP proxy to PostgreSQL that can be cut (every connection through it dropped, new ones refused) and restored, and
 * can hold what the server sends (so a query is in flight when the cut comes).
 */
async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let open = true;
  let holding = false;
  let holdingNew = false;
  let held = 0;
  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    // A connection opened while new ones are held passes its start-up message, then keeps its queries back.
    const heldAfterStart = holdingNew;
    let chunks = 0;
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      if (holding || (heldAfterStart && chunks++ > 0)) held += chunk.length;
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on('error', drop);
      socket.on('close', drop);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    /** What the server sends from now on is kept back (its queries wait). */
    hold() {
      holding = true;
      held = 0;
    },
    /** The queries of connections opened from now on are kept back (those open already pass). */
    holdNew() {
      holdingNew = true;
      held = 0;
    },
    held: () => held,
    cut() {
      open = false;
      holding = false;
      holdingNew = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

if (dialects().includes('postgres')) {
  describe('the database cut off (PostgreSQL through a TCP proxy)', () => {
    let server: ServerProcess;
    let proxy: Awaited<ReturnType<typeof tcpProxy>>;
    before(async () => {
      const target = new URL(process.env.TEST_DATABASE_URL!);
      proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      server = await startServerProcess('postgres', ADMIN, 1, {
        env: { LOG_LEVEL: 'warn' },
        databaseUrl: (url) => {
          const through = new URL(url);
          through.hostname = '127.0.0.1';
          through.port = String(proxy.port);
          return through.toString();
        },
      });
    });
    after(async () => {
      await server?.close();
      await proxy?.close();
    });

    it('answers calls 503 with a clean message and /healthz 503, stays up, and works again once the database is back', async () => {
      const authKey = await loginOf(server);
      const count = () => request(`${server.url}/api/db/client_cnt`, { body: form({ authKey }) });
      assert.equal((await count()).status, 200);
      assert.equal((await request(`${server.url}/healthz`)).status, 200);

      // A call whose query is on its way when the connection is lost.
      proxy.hold();
      const lost = count();
      await until(async () => proxy.held() > 0, 'the call sends its query');
      proxy.cut();
      const answer = await lost;
      assert.equal(answer.status, 503, answer.text);
      assert.deepEqual(answer.body, [{ error: MESSAGES.unavailable }]);

      // While PostgreSQL cannot be reached.
      const cutOff = await count();
      assert.equal(cutOff.status, 503, cutOff.text);
      assert.deepEqual(cutOff.body, [{ error: MESSAGES.unavailable }]);
      const health = await request(`${server.url}/healthz`);
      assert.equal(health.status, 503);
      assert.deepEqual(health.body, { status: 'unavailable', database: 'down', migrations: 'unknown' });
      assert.equal(server.child.exitCode, null, 'the process is still running');
      assert.equal(server.child.signalCode, null);

      proxy.restore();
      await until(async () => (await request(`${server.url}/healthz`)).status === 200, '/healthz is 200 again');
      const again = await count();
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.body, [0]);
      const logged = server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; err?: { message: string } });
      assert.ok(logged.some((e) => e.msg === 'internal error' && /Connection terminated|ECONNRESET/.test(e.err?.message ?? '')), server.output());
      assert.ok(logged.some((e) => e.msg === 'health check failed'), server.output());
    });

    it('survives a connection lost while in use by a pool with no listener of its own (the jobs\' store)', async () => {
      const authKey = await loginOf(server);
      // The session is looked up on a connection open already; the jobs' store opens its first one for this call.
      proxy.holdNew();
      const lost = request(`${server.url}/api/db/job_dtl`, { body: form({ authKey, id: '1' }) });
      await until(async () => proxy.held() > 0, 'the jobs\' store sends its query');
      proxy.cut();
      const answer = await lost;
      assert.equal(answer.status, 503, answer.text);
      assert.deepEqual(answer.body, [{ error: MESSAGES.unavailable }]);
      assert.equal(server.child.exitCode, null, 'the process is still running');
      proxy.restore();
      await until(async () => (await request(`${server.url}/healthz`)).status === 200, '/healthz is 200 again');
      const again = await request(`${server.url}/api/db/job_dtl`, { body: form({ authKey, id: '1' }) });
      assert.equal(again.status, 404, again.text);
    });
  });
}

describe('npm start (scripts/start.mjs) on SIGTERM', () => {
  // A copy of the checkout's layout whose own dist/ the start script builds (the server's sources are the checkout's,
  // linked), with a built client already there (out/index.html newer than its sources), so `next build` is not run
  // and the checkout's dist/ is left alone.
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hod-npm-start-'));
    mkdirSync(join(dir, 'scripts'));
    for (const path of ['node_modules', 'server', 'lib', 'package.json', 'tsconfig.json', 'scripts/backup.ts', 'scripts/restore.ts']) symlinkSync(join(root, path), join(dir, path));
    // Copied, not linked: the scripts find the checkout from where they lie.
    for (const path of ['scripts/start.mjs', 'scripts/build-server.mjs']) copyFileSync(join(root, path), join(dir, path));
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'index.html'), '<!doctype html><title>index</title>');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the signal on to the server, which finishes, and ends with its exit code 0', async () => {
    const child = spawn('npm', ['start'], {
      cwd: dir,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), SEED: '0', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until(async () => /Database: [^\n]*\n/.test(output), `npm start serves:\n${output}`, 120_000);
      const url = `http://127.0.0.1:${/http:\/\/localhost:(\d+)\//.exec(output)![1]}`;
      const agent = new http.Agent({ keepAlive: true });
      const config = await request(`${url}/config.json`, { agent });
      assert.equal(config.status, 200);
      child.kill('SIGTERM');
      assert.equal(await exited, 0, output);
      assert.match(output, /"msg":"stopping: finishing the requests and jobs in flight"/, 'the server itself was signalled');
      assert.ok(await refused(url), 'nothing listens any more');
      agent.destroy();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

