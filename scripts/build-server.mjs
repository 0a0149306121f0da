#!/usr/bin/env node
/**
 * Builds the server to JavaScript: `server/main.ts` and what it imports (server/, lib/) bundled by esbuild into one
 * ES module, `dist/server/main.js` (with its source map); the packages under node_modules stay imports. Production runs
 * that file (`npm start`); TypeScript is not compiled at run time. The types are checked by `npm run typecheck`.
 * `node scripts/build-server.mjs [outfile]` (`npm run build:server`); `serverStale()` says whether the file is older than its
 * sources.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const SERVER_ENTRY = join(root, 'dist', 'server', 'main.js');
/** What the built server is made of: a change in any of these rebuilds it. */
const SOURCES = ['server', 'lib', 'package.json', 'tsconfig.json', 'scripts/build-server.mjs'];
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

/** Bundles the server into `outfile`. */
export async function buildServer(outfile = SERVER_ENTRY) {
  // Loaded only to build: a machine that runs an up-to-date dist/ (installed with --omit=dev) has no esbuild.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outfile,
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
