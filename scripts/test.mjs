#!/usr/bin/env node
/**
 * `npm test`: type check, lint, unit/component tests, API tests (SQLite, and PostgreSQL when
 * TEST_DATABASE_URL is set), the static build, browser tests. Ends with one line
 * `N passed, N failed` — the totals of all suites — and exits non-zero on any failure.
 *
 * Steps that do not depend on each other run side by side (the machine has two cores and most steps wait on a
 * database, a browser or one core): the server's build first (a second); type check, lint, the copy check and the
 * unit tests together; then the API suite (bundled) — its SQLite half, its PostgreSQL half (each running its files two
 * at a time) — and the static build together; then the browser tests (two workers, each with its own server, the
 * built one, and database: playwright.config.ts). A step run beside
 * others writes its output to `.test-reports/{label}.log`, printed whole when the step ends, so the output reads step
 * by step.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, '.test-reports');
/** Each API file's seconds in the last run (`api-{dialect}-files.txt`), read before the old reports go. */
const lastApiTimes = new Map();
for (const dialect of ['sqlite', 'postgres']) {
  const file = join(reports, `api-${dialect}-files.txt`);
  if (!existsSync(file)) continue;
  for (const [, seconds, path] of readFileSync(file, 'utf8').matchAll(/^\s*([\d.]+) s {2}((?:tests|dist)\/\S+)$/gm)) {
    const name = basename(path).replace(/\.(ts|mjs)$/, '');
    lastApiTimes.set(name, Math.max(lastApiTimes.get(name) ?? 0, Number(seconds)));
  }
}
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const env = { ...process.env, TZ: 'Asia/Tokyo', FORCE_COLOR: '0' };
const bin = (name) => join(root, 'node_modules', '.bin', name);
const totals = [];

/** Runs a step; its output goes to its log file and is printed when it ends. Resolves to its exit code. */
function run(label, cmd, args, extraEnv = {}) {
  const started = Date.now();
  const logFile = join(reports, `${label}.log`);
  const log = createWriteStream(logFile);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extraEnv } });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', (error) => log.write(`${error.message}\n`));
    child.on('close', (code) => {
      log.end(() => {
        console.log(`\n=== ${label} ===`);
        process.stdout.write(readFileSync(logFile, 'utf8'));
        console.log(`=== ${label}: exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
        resolve(code ?? 1);
      });
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function record(label, passed, failed) {
  totals.push({ label, passed, failed });
  console.log(`${label}: ${passed} passed, ${failed} failed`);
}

const began = Date.now();

// 1. Type check, lint (eslint.config.mjs: typescript-eslint with types, React hooks, no import cycles, the layers),
//    the copy check (no screen or handler copied between resources: the workplace's `duplicates` tool; skipped where
//    it is missing), whether the call reference docs/calls.md is current (scripts/docs.mjs --check) — one check each —
//    and the unit and component tests, side by side: none needs another's result, and the type check ends long before
//    the lint, whose type-aware rules keep one core busy alone otherwise.
// The server is built first, as `npm start` builds it (scripts/build-server.mjs, under a second): the browser tests run
// it, and nothing builds it while the API tests run.
const serverBundle = join(root, 'dist', 'server', 'main.js');
const serverBuilt = await run('build server', process.execPath, [join(root, 'scripts', 'build-server.mjs'), serverBundle]);
const vitestOut = join(reports, 'vitest.json');
const [tsc, lint, dup, docs, vitest] = await Promise.all([
  run('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  run('lint', bin('eslint'), ['--max-warnings=0', '.']),
  run('duplicates', process.execPath, [join(root, 'scripts', 'duplicates-check.mjs')]),
  run('docs', process.execPath, ['--import', 'tsx', join(root, 'scripts', 'docs.mjs'), '--check']),
  run('unit', bin('vitest'), ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestOut}`]),
]);
record('typecheck', tsc === 0 ? 1 : 0, tsc === 0 ? 0 : 1);
record('lint', lint === 0 ? 1 : 0, lint === 0 ? 0 : 1);
if (dup !== 3) record('duplicates', dup === 0 ? 1 : 0, dup === 0 ? 0 : 1);
record('docs', docs === 0 ? 1 : 0, docs === 0 ? 0 : 1);
const v = readJson(vitestOut);
record('unit', v?.numPassedTests ?? 0, v ? v.numFailedTests + (vitest !== 0 && v.numFailedTests === 0 ? 1 : 0) : 1);

// 2. API tests against the real server, one runner per dialect (SQLite; PostgreSQL too when TEST_DATABASE_URL is
//    set), beside the static build the browser tests need. Each runner runs API_CONCURRENCY files at once (2 by
//    default; each file has its own server on port 0, its own temporary folder and database, the template databases
//    are built under a lock); each file's time goes to `.test-reports/api-{dialect}-files.txt`, the slowest first.
//    The files run bundled (esbuild, as the server is for production: scripts/build-server.mjs) into `dist/api-tests/`,
//    beside `tests/api/` in depth so their relative paths hold: a file's process then loads in about 2 s less CPU than
//    through tsx, whose loader resolves each of the packages' hundreds of modules (130 processes a run).
const apiDir = join(root, 'tests', 'api');
const apiOut = join(root, 'dist', 'api-tests');
// The longest first (by the last run's times; a new file counts as long), so no long file starts last and runs alone.
const apiSources = existsSync(apiDir)
  ? readdirSync(apiDir).filter((f) => f.endsWith('.test.ts')).sort()
    .sort((a, b) => (lastApiTimes.get(b.replace(/\.ts$/, '')) ?? Infinity) - (lastApiTimes.get(a.replace(/\.ts$/, '')) ?? Infinity))
  : [];
let apiFiles = [];
if (apiSources.length) {
  rmSync(apiOut, { recursive: true, force: true });
  const { build: bundle } = await import('esbuild');
  const bundled = await bundle({
    absWorkingDir: root, entryPoints: apiSources.map((f) => join(apiDir, f)), outdir: apiOut, outExtension: { '.js': '.mjs' },
    bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'error',
  }).then(() => true, (error) => (console.log(`bundling the API tests failed: ${error.message}`), false));
  if (bundled) {
    symlinkSync(join(apiDir, 'golden'), join(apiOut, 'golden'));
    apiFiles = apiSources.map((f) => `dist/api-tests/${f.replace(/\.ts$/, '.mjs')}`);
  } else {
    record('api bundle', 0, 1);
  }
}
const apiDialects = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const apiConcurrency = Math.max(1, Number(process.env.API_CONCURRENCY) || 2);
const apiRun = (dialect) => {
  const tap = join(reports, `api-${dialect}.tap`);
  return run(`api ${dialect}`, process.execPath, [
    '--enable-source-maps', '--test', `--test-concurrency=${apiConcurrency}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`,
    '--test-reporter=./scripts/file-times-reporter.mjs', `--test-reporter-destination=${join(reports, `api-${dialect}-files.txt`)}`,
    ...apiFiles,
  ], { TEST_DIALECTS: dialect }).then((code) => ({ dialect, code, tap }));
};
// The type check has passed: the build need not check the types again (next.config.mjs).
const [build, ...apis] = await Promise.all([
  run('build', bin('next'), ['build'], tsc === 0 ? { HOD_TYPES_CHECKED: '1' } : {}).then((code) => code || serverBuilt),
  ...(apiFiles.length ? apiDialects.map(apiRun) : []),
]);
for (const { dialect, code, tap } of apis) {
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (name) => Number(text.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  const failed = count('fail') + count('cancelled');
  record(`api ${dialect}`, count('pass'), failed + (code !== 0 && failed === 0 ? 1 : 0));
}

// 3. Browser tests against the built bundle and the real servers.
if (build !== 0) {
  record('build', 0, 1);
} else {
  const pwOut = join(reports, 'playwright.json');
  const e2e = await run('e2e', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut, E2E_SERVER_BUNDLE: serverBundle });
  const p = readJson(pwOut);
  const passed = (p?.stats?.expected ?? 0) + (p?.stats?.flaky ?? 0);
  const failed = p?.stats?.unexpected ?? 0;
  record('e2e', passed, failed + (e2e !== 0 && failed === 0 ? 1 : 0));
}

const passed = totals.reduce((s, t) => s + t.passed, 0);
const failed = totals.reduce((s, t) => s + t.failed, 0);
console.log('\n' + totals.map((t) => `  ${t.label.padEnd(12)} ${t.passed} passed, ${t.failed} failed`).join('\n'));
console.log(`  ${'total time'.padEnd(12)} ${((Date.now() - began) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
