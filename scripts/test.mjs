#!/usr/bin/env node
/**
 * `npm test`: type check, lint, unit/component tests, API tests (SQLite, and PostgreSQL when
 * TEST_DATABASE_URL is set), the static build, browser tests. Ends with one line
 * `N passed, N failed` — the totals of all suites — and exits non-zero on any failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, '.test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const env = { ...process.env, TZ: 'Asia/Tokyo', FORCE_COLOR: '0' };
const bin = (name) => join(root, 'node_modules', '.bin', name);
const totals = [];

function run(label, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  console.log(`=== ${label}: exit ${result.status} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  return result.status ?? 1;
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

// 1. Type check: one check, counted as one test.
const tsc = run('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
record('typecheck', tsc === 0 ? 1 : 0, tsc === 0 ? 0 : 1);

// 1a. Lint (eslint.config.mjs): typescript-eslint with types, React hooks, no import cycles, the layers; one check.
const lint = run('lint', bin('eslint'), ['--max-warnings=0', '.']);
record('lint', lint === 0 ? 1 : 0, lint === 0 ? 0 : 1);

// 1b. No screen or handler copied between resources (the workplace's `duplicates` tool; skipped where it is missing).
const dup = run('duplicates', process.execPath, [join(root, 'scripts', 'duplicates-check.mjs')]);
if (dup !== 3) record('duplicates', dup === 0 ? 1 : 0, dup === 0 ? 0 : 1);

// 2. Unit and component tests.
const vitestOut = join(reports, 'vitest.json');
const vitest = run('unit', bin('vitest'), ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestOut}`]);
const v = readJson(vitestOut);
record('unit', v?.numPassedTests ?? 0, v ? v.numFailedTests + (vitest !== 0 && v.numFailedTests === 0 ? 1 : 0) : 1);

// 3. API tests against the real server (SQLite; PostgreSQL too when TEST_DATABASE_URL is set).
const tap = join(reports, 'api.tap');
// Node 20's runner does not pick .ts files from a folder: name them.
const apiDir = join(root, 'tests', 'api');
const apiFiles = existsSync(apiDir) ? readdirSync(apiDir).filter((f) => f.endsWith('.test.ts')).sort().map((f) => `tests/api/${f}`) : [];
if (apiFiles.length) {
  const api = run('api', process.execPath, [
    '--import', 'tsx', '--test', '--test-concurrency=1',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`,
    ...apiFiles,
  ]);
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (name) => Number(text.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  const failed = count('fail') + count('cancelled');
  record('api', count('pass'), failed + (api !== 0 && failed === 0 ? 1 : 0));
}

// 4. Static build, then browser tests against the built bundle and the real server.
const build = run('build', bin('next'), ['build']);
if (build !== 0) {
  record('build', 0, 1);
} else {
  const pwOut = join(reports, 'playwright.json');
  const e2e = run('e2e', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut });
  const p = readJson(pwOut);
  const passed = (p?.stats?.expected ?? 0) + (p?.stats?.flaky ?? 0);
  const failed = p?.stats?.unexpected ?? 0;
  record('e2e', passed, failed + (e2e !== 0 && failed === 0 ? 1 : 0));
}

const passed = totals.reduce((s, t) => s + t.passed, 0);
const failed = totals.reduce((s, t) => s + t.failed, 0);
console.log('\n' + totals.map((t) => `  ${t.label.padEnd(10)} ${t.passed} passed, ${t.failed} failed`).join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
