#!/usr/bin/env node
/**
 * `npm start`: builds the static bundle only when `out/index.html` is missing or older than the client sources, and
 * the server (scripts/build-server.mjs: `dist/server/main.js`) only when it is older than its sources, then runs the
 * built server (`node dist/server/main.js`, plain JavaScript) with TZ=Asia/Tokyo, sharing this terminal and
 * forwarding stop signals: a SIGTERM reaches the server, which finishes its work in flight (SHUTDOWN_TIMEOUT_MS), and
 * this script ends with the server's exit code. npm runs the script through `sh -c`, which would die of the signal
 * npm forwards and leave this script and the server running: the npm script says `exec`, so npm signals this process
 * itself and waits for it. `npm run serve` runs the TypeScript sources through tsx instead (development).
 * `node scripts/start.mjs backup|restore [args]` (`npm run backup` / `npm run restore FILE`) runs that built command
 * instead of the server (built with it when stale; the web client is not needed).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { buildServer, newest, SERVER_ENTRY, serverStale } from './build-server.mjs';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, TZ: process.env.TZ || 'Asia/Tokyo' };
const SOURCES = ['app', 'components', 'lib', 'public', 'next.config.mjs', 'package.json'];
const [command, ...args] = process.argv.slice(2);
if (command !== undefined && command !== 'backup' && command !== 'restore') {
  console.error(`unknown command "${command}": npm start runs the server; node scripts/start.mjs backup|restore runs those`);
  process.exit(1);
}

// A maintenance command needs no web client: only the server's start looks at (and builds) it.
if (!command) {
  const index = join(root, process.env.STATIC_DIR || 'out', 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((p) => newest(join(root, p))));
  if (built === 0 || built < sources) {
    console.log(built === 0 ? 'Building the web client (out/ is missing)…' : 'Building the web client (sources changed)…');
    const build = spawnSync(join(root, 'node_modules', '.bin', 'next'), ['build'], { cwd: root, stdio: 'inherit', env });
    if (build.status !== 0) {
      console.error('next build failed; the server is not started.');
      process.exit(build.status ?? 1);
    }
  } else {
    console.log('Web client is up to date (out/).');
  }
}

if (serverStale()) {
  console.log(existsSync(SERVER_ENTRY) ? 'Building the server (sources changed)…' : 'Building the server (dist/ is missing)…');
  await buildServer();
} else if (!command) {
  console.log('Server is up to date (dist/).');
}

const entry = command ? join(dirname(SERVER_ENTRY), `${command}.js`) : SERVER_ENTRY;
const server = spawn(process.execPath, ['--enable-source-maps', entry, ...args], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
// The server's own exit code; killed by a signal it does not handle: the shell's convention, 128 + the signal's number.
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 0)));
