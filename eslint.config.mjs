// @ts-check
/**
 * ESLint (`npm run lint`, a step of `npm test`): typescript-eslint with types, the React hooks rules for the
 * client, no import cycles, and the layers of docs/architecture.md ("Lint and layers"):
 * app → components → lib ← server, with lib/client/ (React, jotai, the browser) for the client alone.
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import { directWritesPlugin, RESOURCE_TABLES } from './scripts/lint/direct-writes.mjs';
import localRules from './scripts/lint/no-cycle.mjs';

/** What only a browser has: code the server imports must not touch it (tsconfig's `dom` lib lets it type-check). */
const BROWSER_GLOBALS = ['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'location', 'history'].map(
  (name) => ({ name, message: `${name} exists only in the browser: browser code lives in lib/client/ or components/.` }),
);

/** Packages that only the client runs. */
const CLIENT_PACKAGES = ['react', 'react-dom', 'react-hook-form', '@hookform/resolvers', 'jotai', 'swr', 'next', '@vis.gl/react-google-maps'];
const clientPackages = (where) => ({
  patterns: [{
    regex: `^(${CLIENT_PACKAGES.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(/.*)?$`,
    message: `${where} is imported by the server: React, jotai, SWR and Next belong in lib/client/ or components/.`,
  }],
});

/** The layers (docs/architecture.md "Lint and layers"); paths resolved, so `./app` inside server/ is not app/. */
const LAYERS = [
  { target: './lib', from: ['./app', './components', './server'], message: 'lib/ is shared by client and server: it never imports app/, components/ or server/.' },
  { target: ['./lib/!(client)/**', './lib/*.ts'], from: './lib/client', message: 'Shared lib/ code is imported by the server: it never imports lib/client/ (client-only code).' },
  { target: './server', from: ['./app', './components', './lib/client'], message: 'The server never imports app/, components/ or lib/client/ (client-only code).' },
  { target: './components', from: ['./app', './server'], message: 'components/ never import app/ or server/.' },
  { target: './app', from: './server', message: 'app/ never imports server/: the client talks to it only through the API.' },
  { target: './bench', from: ['./app', './components', './lib/client'], message: 'Benchmarks run server code: they never import app/, components/ or lib/client/.' },
];

/**
 * Server areas (server/<area>/): another area is imported only through its public module, server/<area>/index.ts
 * (the area's own files import each other freely). Infrastructure any area may import file by file: server/db,
 * server/http, server/calls, server/jobs, server/audit and server/files, and the root files (server/*.ts — app.ts, areas.ts,
 * main.ts, config.ts, cluster.ts), which are the composition root and may import any area's files. The resource
 * pipeline (server/resources) is an area like the others: areas use its index; it imports no domain area and gets
 * their policies and services by registration (server/resources/registry.ts, server/areas.ts).
 * `node scripts/area-imports.mjs` fixes a reported import: it imports the area's index and exports the names there.
 */
const INFRASTRUCTURE_AREAS = ['db', 'http', 'calls', 'jobs', 'audit', 'files'];
const SERVER_AREAS = readdirSync(new URL('./server', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !INFRASTRUCTURE_AREAS.includes(entry.name))
  .map((entry) => entry.name);
const AREA_BOUNDARIES = SERVER_AREAS.map((area) => ({
  target: `./server/!(${area})/**`,
  from: `./server/${area}`,
  except: ['./index.ts'],
  message: `Another area imports server/${area}/ only through its public module server/${area}/index.ts (node scripts/area-imports.mjs moves the import there).`,
}));

export default defineConfig(
  {
    ignores: [
      'node_modules/', '.next/', 'out/', 'data/', 'tmp/', 'test-results/', 'playwright-report/', '.test-reports/',
      'next-env.d.ts', 'public/', 'tests/csv.ts', 'dist/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'import-x': importX, local: localRules },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
    },
    rules: {
      // No import cycle, type-only imports included (import-x/no-cycle cannot count those): scripts/lint/no-cycle.mjs.
      'local/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: LAYERS }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // node:test's test() and describe() return promises the runner awaits itself.
      '@typescript-eslint/no-floating-promises': ['error', {
        ignoreVoid: true,
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }],
      }],
      // Fastify plugins, policy hooks and test doubles are async by their interface, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      // Passing on a caught value (`Promise.reject(error)` in a catch) is as sound as rethrowing it.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // The ideographic space (U+3000) is Japanese text: allowed in strings, templates, regular expressions and comments.
      'no-irregular-whitespace': ['error', { skipStrings: true, skipTemplates: true, skipRegExps: true, skipComments: true, skipJSXText: true }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Rows are typed (server/db/schema.ts, lib/resources/row.ts): String(x) of a string or Number(x) of a number says nothing.
    files: ['lib/**', 'server/**'],
    // Migrations are a frozen record; their rows are typed by hand, not by the schema.
    ignores: ['server/db/migrations/**'],
    rules: { '@typescript-eslint/no-unnecessary-type-conversion': 'error' },
  },
  {
    files: ['app/**', 'components/**', 'lib/client/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['lib/**', 'server/**', 'bench/**'],
    ignores: ['lib/client/**'],
    rules: {
      'no-restricted-globals': ['error', ...BROWSER_GLOBALS],
      'no-restricted-imports': ['error', clientPackages('This file')],
    },
  },
  {
    files: ['server/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...LAYERS, ...AREA_BOUNDARIES] }] },
  },
  {
    // Direct writes: a resource table is written only by the write helpers, which stamp, job-stamp and audit every row
    // (scripts/lint/direct-writes.mjs); the seed and the migrations load and reshape data before any user exists.
    files: ['server/**'],
    ignores: [
      'server/resources/records.ts', 'server/resources/children.ts', 'server/resources/system-write.ts', 'server/audit/audit-log.ts',
      'server/db/bulk-write.ts', 'server/db/migrations/**', 'server/seed/**',
    ],
    plugins: { writes: directWritesPlugin },
    rules: { 'writes/no-direct-writes': ['error', { tables: RESOURCE_TABLES }] },
  },
  {
    // Direct writes not yet through the write helpers (issue 20 left them; each is set-based or not a record's change):
    // a new user before any session (auth/users), the sign-in time (auth/plugin), an invoice's print count, counted
    // atomically and audited there (billing/issue), the first accounting export of slips and payments (accounting/yayoi),
    // a closing's invoices stamped on 100,000 slips and taken back (closing/run, closing/restore), the customers' next
    // delivery dates beside a regular-delivery batch, audited there (hod/generate), a payment's `modified` when its
    // allocations change (sales/allocation).
    files: [
      'server/auth/users.ts', 'server/auth/plugin.ts', 'server/billing/issue.ts', 'server/accounting/yayoi.ts', 'server/closing/run.ts',
      'server/closing/restore.ts', 'server/hod/generate.ts', 'server/sales/allocation.ts',
    ],
    rules: { 'writes/no-direct-writes': 'off' },
  },
  {
    // Tests build wire parameters and read answers of any shape: String() of such a value is the intended text.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-base-to-string': 'off' },
  },
);
