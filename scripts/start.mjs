#!/usr/bin/env node
/**
 * `npm start`: builds the static bundle only when `out/index.html` is missing or older than the
 * client sources, then runs the server (`node --import tsx server/main.ts`) with TZ=Asia/Tokyo,
 * sharing this terminal and forwarding stop signals.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, TZ: process.env.TZ || 'Asia/Tokyo' };
const SOURCES = ['app', 'components', 'lib', 'public', 'next.config.mjs', 'package.json'];
const SKIP = new Set(['node_modules', '.next', 'out']);

/** Newest modification time (ms) of a file or of any file below a directory. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (!SKIP.has(entry)) latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const staticDir = join(root, process.env.STATIC_DIR || 'out');
const index = join(staticDir, 'index.html');
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

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
