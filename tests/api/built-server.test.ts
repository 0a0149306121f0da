/**
 * Production runs built JavaScript: the server bundled by scripts/build-server.mjs (what `npm start` runs) starts
 * without tsx, migrates a new database, logs the admin in and answers a database call, on every dialect.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dialects } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'built@example.jp', password: 'built-server-pass-2026' };
const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the checkout, so the bundle's package imports resolve from its node_modules like dist/server/main.js's.
const outDir = join(root, 'dist', `test-${process.pid}`);
const outfile = join(outDir, 'main.js');

before(() => {
  // What `npm start` does when the server is stale, into a folder of this test's own.
  execFileSync(process.execPath, [join(root, 'scripts', 'build-server.mjs'), outfile], { cwd: root, stdio: 'pipe' });
});

after(() => rmSync(outDir, { recursive: true, force: true }));

for (const dialect of dialects()) {
  describe(`the built server (${dialect})`, () => {
    let server: ServerProcess;
    before(async () => {
      server = await startServerProcess(dialect, ADMIN, 1, { built: outfile });
    });
    after(async () => {
      await server.close();
    });

    it('runs as plain JavaScript: no tsx loaded', () => {
      // As `npm start` runs it (scripts/start.mjs): the bundle, with its source map for stack traces.
      assert.deepEqual(server.child.spawnargs.slice(1), ['--enable-source-maps', outfile]);
    });

    it('serves the client configuration, logs the admin in and answers a call', async () => {
      const config = await fetch(`${server.url}/config.json`);
      assert.equal(config.status, 200);
      assert.equal(((await config.json()) as { dbApi: string }).dbApi, '/api/db');
      const login = await server.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(login.status, 200, login.text);
      const count = await server.post('/api/db/client_cnt', { authKey: String(login.body[0].auth_key) });
      assert.equal(count.status, 200, count.text);
      assert.deepEqual(count.body, [0]);
    });
  });
}
