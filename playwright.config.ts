import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.E2E_PORT ?? 3210);
// The local SMTP server the mail-template spec starts; the web server sends its test mails there.
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? PORT + 1000);
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
// A fresh database per run: the server seeds the demo company into it on start.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'hod-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export const E2E = {
  baseURL: `http://127.0.0.1:${PORT}`,
  adminEmail: 'admin@example.jp',
  adminPassword: 'e2e-admin-pass-2026',
  smtpPort: SMTP_PORT,
  mailFrom: 'noreply@aqua.example.jp',
};

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.test-reports/playwright.json' }]],
  use: {
    baseURL: E2E.baseURL,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `${E2E.baseURL}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      TZ: 'Asia/Tokyo',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E.adminEmail,
      ADMIN_PASSWORD: E2E.adminPassword,
      AUTH_KEY_TTL_HOURS: '12',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(SMTP_PORT),
      MAIL_FROM: E2E.mailFrom,
    },
  },
});
