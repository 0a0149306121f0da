/**
 * The real server (`server/main.ts`) in several processes on one port (`WEB_CONCURRENCY=2`,
 * server/cluster.ts) on one SQLite file: every concurrent write lands (transactions lock when they begin,
 * so none fails for another process's write), and SIGTERM stops the primary and its workers.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../server/config';
import { alive, startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'processes@example.jp', password: 'processes-password-2026' };

/** The pids of the server processes a primary started (`ps`; not other children, e.g. esbuild's service under tsx). */
const workersOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n')
      .filter((line) => /server\/main\.ts|test-server-[^/]*\/main\.js/.test(line)).map((line) => Number.parseInt(line.trim(), 10)).filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
};

describe('WEB_CONCURRENCY', () => {
  it('defaults to the cores with SQLite and half of them with PostgreSQL (1–4), and refuses a bad value', () => {
    const cores = availableParallelism();
    assert.equal(loadConfig({}).workers, Math.max(1, Math.min(4, cores)));
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db.example/hod' }).workers, Math.max(1, Math.min(4, Math.floor(cores / 2))));
    assert.equal(loadConfig({ WEB_CONCURRENCY: ' 3 ' }).workers, 3);
    for (const bad of ['0', '33', '1.5', 'two']) assert.throws(() => loadConfig({ WEB_CONCURRENCY: bad }), /WEB_CONCURRENCY must be 1\.\.32/);
  });
});

describe('server processes (SQLite, WEB_CONCURRENCY=2)', () => {
  let server: ServerProcess;

  before(async () => {
    server = await startServerProcess('sqlite', ADMIN, 2);
  });

  after(async () => {
    await server.close();
  });

  const post = (path: string, params: Record<string, string>) => server.post(path, params);

  it('runs two workers under the primary, and says so', async () => {
    assert.match(server.output(), /2 server processes/);
    // The workers may still be starting when the first answers.
    for (let i = 0; i < 50 && workersOf(server.child.pid!).length < 2; i++) await new Promise((r) => setTimeout(r, 200));
    assert.equal(workersOf(server.child.pid!).length, 2);
  });

  it('lands every one of many concurrent saves, each with its audit row', async () => {
    const login = await post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
    assert.equal(login.status, 200, login.text);
    const authKey = String(login.body[0].auth_key);
    const names = Array.from({ length: 40 }, (_, i) => `同時保存商事${i + 1}`);
    const answers = await Promise.all(names.map((co_name) => post('/api/db/client_save', { authKey, postData: JSON.stringify({ co_name, tel_1: '03-1234-5678', status: '1' }) })));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    const ids = answers.map((a) => Number(a.body[0].cl_id));
    assert.equal(new Set(ids).size, 40, 'forty different customers');
    const count = await post('/api/db/client_cnt', { authKey, kw: '同時保存商事' });
    assert.deepEqual(count.body, [40]);
    const log = await post('/api/db/log_lst', { authKey, n: '100', postData: JSON.stringify({ table: 'client' }) });
    assert.equal(log.status, 200, log.text);
    assert.deepEqual(new Set(log.body.filter((r) => r.log_call === 'client_save').map((r) => Number(r.log_record_id))), new Set(ids));

    // Concurrent edits of one customer from the same loaded version: exactly one lands, the rest are refused as stale.
    const [first] = answers;
    const edits = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      post('/api/db/client_save', { authKey, id: String(first.body[0].cl_id), postData: JSON.stringify({ memo: `編集${i}`, modified: first.body[0].modified }) })));
    assert.equal(edits.filter((e) => e.status === 200).length, 1, edits.map((e) => e.text).join('\n'));
    assert.ok(edits.filter((e) => e.status !== 200).every((e) => e.status === 409), edits.map((e) => `${e.status} ${e.text}`).join('\n'));
  });

  it('stops the primary and its workers on SIGTERM', async () => {
    const workers = workersOf(server.child.pid!);
    const ended = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    assert.equal(await ended, 0);
    for (let i = 0; i < 50 && workers.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(workers.filter(alive), []);
  });
});
