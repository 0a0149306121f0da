#!/usr/bin/env node
/**
 * Builds the server to JavaScript: `server/main.ts` and what it imports (server/, lib/) bundled by esbuild into one
 * ES module, `dist/server/main.js` (with its source map); the packages under node_modules stay imports. Beside it the
 * two maintenance commands, `backup.js` and `restore.js` (scripts/backup.ts, restore.ts: `npm run backup` / `restore`).
 * Production runs these files (`npm start`); TypeScript is not compiled at run time, so a machine installed with
 * `--omit=dev` runs them all. The types are checked by `npm run typecheck`.
 * `node scripts/build-server.mjs [outfile]` (`npm run build:server`; the others go beside `outfile`, which is named
 * main.js); `serverStale()` says whether the file is older than its sources.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const SERVER_ENTRY = join(root, 'dist', 'server', 'main.js');
/** What the built server is made of: a change in any of these rebuilds it. */
const SOURCES = ['server', 'lib', 'package.json', 'tsconfig.json', 'scripts/build-server.mjs', 'scripts/backup.ts', 'scripts/restore.ts'];
/** What is built: the server and the maintenance commands, each one module named after its key. */
const ENTRIES = { main: 'server/main.ts', backup: 'scripts/backup.ts', restore: 'scripts/restore.ts' };
const SKIP = new Set(['node_modules', '.next', 'out', 'dist']);

/** Newest modification time (ms) of a file or of any file below a directory. */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (!SKIP.has(entry)) latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** Whether the built server is missing or older than one of its sources. */
export function serverStale(outfile = SERVER_ENTRY) {
  const built = existsSync(outfile) ? statSync(outfile).mtimeMs : 0;
  return built === 0 || built < Math.max(...SOURCES.map((p) => newest(join(root, p))));
}

/** Bundles the server into `outfile` (named main.js), the maintenance commands beside it. */
export async function buildServer(outfile = SERVER_ENTRY) {
  if (basename(outfile) !== 'main.js') throw new Error(`the server's file is named main.js, not ${basename(outfile)}`);
  // Loaded only to build: a machine that runs an up-to-date dist/ (installed with --omit=dev) has no esbuild.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: dirname(outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const started = Date.now();
  const outfile = process.argv[2] ?? SERVER_ENTRY;
  await buildServer(outfile);
  console.log(`Built the server: ${outfile} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
