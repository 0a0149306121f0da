import { defineConfig } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.E2E_PORT ?? 3210);
// The local SMTP server the mail specs start; each web server sends its mails to its own.
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? PORT + 1000);
/**
 * Spec files run on E2E_WORKERS workers (2 by default), each against a web server and a database of its own: worker
 * slot n (Playwright's TEST_PARALLEL_INDEX, the same for a worker restarted after a failure) talks to the server on
 * PORT + n, whose SQLite file is under {dataDir}/{n} and whose mails go to SMTP_PORT + n. A spec file runs whole on
 * one worker, its tests in order, as before.
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
// A fresh database per run and server: each server seeds the demo company into its own on start.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'hod-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const slotDir = (n: number): string => join(dataDir, String(n));
/**
 * How a server is started: the built server (`E2E_SERVER_BUNDLE`, which `npm test` builds as `npm start` does:
 * scripts/build-server.mjs) — what production runs — or else the sources through tsx.
 */
const bundle = process.env.E2E_SERVER_BUNDLE;
export const SERVER_ARGS = bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'server/main.ts'];

export const E2E = {
  baseURL: `http://127.0.0.1:${PORT + slot}`,
  adminEmail: 'admin@example.jp',
  adminPassword: 'e2e-admin-pass-2026',
  smtpPort: SMTP_PORT + slot,
  mailFrom: 'noreply@aqua.example.jp',
  /** This worker's server's data directory (its SQLite file `app.db`). */
  dataDir: slotDir(slot),
};

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.test-reports/playwright.json' }]],
  use: {
    baseURL: E2E.baseURL,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    // A trace records every action's DOM and a screencast: a third of the browser tests' CPU on this 2-core machine
    // (client.spec: 29.9 → 21.2 CPU-s). E2E_TRACE=1 keeps one for each failed test; a failure always leaves a screenshot.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      // No GPU here: Playwright's default software GPU (SwiftShader rasterizing in a GPU process) costs more CPU than
      // drawing in the renderer (client.spec: 21.2 → 19.1 CPU-s).
      ignoreDefaultArgs: ['--enable-gpu-rasterization', '--enable-unsafe-swiftshader'],
      args: ['--disable-gpu-compositing', '--disable-gpu-rasterization', '--disable-software-rasterizer', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, n) => {
    mkdirSync(slotDir(n), { recursive: true });
    return {
      command: `node ${SERVER_ARGS.join(' ')}`,
      url: `http://127.0.0.1:${PORT + n}/config.json`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        TZ: 'Asia/Tokyo',
        PORT: String(PORT + n),
        HOST: '127.0.0.1',
        // One process: a worker's browser sends one request at a time, and the several-process behaviour has its API
        // tests (tests/api/processes.test.ts and others); two would only double the idle timers and the start.
        WEB_CONCURRENCY: '1',
        DATA_DIR: slotDir(n),
        ADMIN_EMAIL: E2E.adminEmail,
        ADMIN_PASSWORD: E2E.adminPassword,
        AUTH_KEY_TTL_HOURS: '12',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(SMTP_PORT + n),
        MAIL_FROM: E2E.mailFrom,
      },
    };
  }),
});
