/**
 * Every route of the route table opens — with its title in the breadcrumb and a heading, without an error — and works
 * under the Content-Security-Policy (issue 9): no CSP violation (event or console message) on any route, without a maps key (the e2e server) and with one (a second
 * server on the same database, started here). The maps script itself cannot load offline; a failed
 * request is not a violation, a blocked one would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '../../lib/protocol';
import { RESOURCES, type ResourceName } from '../../lib/resources';
import { idColumn } from '../../lib/resources/types';
import { fillPath, ROUTES, type RouteDef } from '../../lib/routes';
import { readRow } from './db';
import { SERVER_ARGS } from '../../playwright.config';
import { E2E, login, trackErrors, watchViolations } from './fixtures';

/** The first live record of a resource with the customer it is kept under (itself when none); null ids when there is none. */
function firstRecord(resource: ResourceName, clientField?: string): { id: number | null; client: number | null } {
  const def = RESOURCES[resource];
  const id = idColumn(def);
  const client = clientField ? `${def.prefix}${clientField}` : id;
  // SQLite answers the other columns of the MIN row, and one row of nulls for an empty table.
  return readRow(`SELECT MIN(${id}) AS id, ${client} AS client FROM ${def.table} WHERE deleted = 0 AND ${client} IS NOT NULL`);
}

/**
 * The route's path with real ids of the seeded demo company, and whether its record exists (custom
 * screens, and records the demo company has none of, keep id `1`).
 */
function pathOf(route: RouteDef): { path: string; found: boolean } {
  const params = Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, '1']));
  if ('id' in params) params.id = String(firstRecord('client').id);
  if ('odr' in params) params.odr = String(firstRecord('order').id);
  const { screen } = route;
  if (screen.kind !== 'detail') return { path: fillPath(route.path, params), found: true };
  const record = firstRecord(screen.resource, screen.parent?.field);
  if (record.id !== null) params[screen.idParam ?? 'id'] = String(record.id);
  if (screen.parent && record.client !== null) params[screen.parent.param] = String(record.client);
  return { path: fillPath(route.path, params), found: record.id !== null };
}

/**
 * Resolves once the tasks the page has queued so far (violation events among them) have run: a task queued behind them,
 * twice, so a task queued by one of them has run too.
 */
async function tasksRun(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)));
}

/** Logs in at `base` and opens every route; returns how many it opened. */
async function visitEveryRoute(page: Page, base: string, withKey: boolean): Promise<number> {
  const violations = await watchViolations(page);
  const errors = trackErrors(page);
  const policy = (await page.request.get(base)).headers()['content-security-policy'] ?? '';
  expect(policy.includes('https://*.googleapis.com'), policy).toBe(withKey);
  // A refused bootstrap script leaves a blank page: say so rather than time out in the login form.
  await page.goto(base, { waitUntil: 'load' });
  await tasksRun(page);
  expect(violations, 'the login page').toEqual([]);
  await login(page, E2E.adminEmail, E2E.adminPassword, base);
  let opened = 0;
  for (const route of ROUTES) {
    const { path, found } = pathOf(route);
    await page.goto(`${base}#${path}`);
    const main = page.getByRole('main');
    await expect(main, path).toBeVisible();
    for (const failure of ['ページが見つかりません', '画面の読み込みに失敗しました', '画面の表示中にエラーが発生しました', ...(found ? [MESSAGES.notFound] : [])]) {
      await expect(main, path).not.toContainText(failure);
    }
    await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
    if (route.path !== '/') await expect(page.getByRole('navigation', { name: 'パンくずリスト' }), path).toContainText(route.title);
    if (route.path === '/client/detail/:id') {
      // The map box asks Google for the Maps script only with a key; the request must not be refused.
      const mapsScript = page.locator('script[src^="https://maps.googleapis.com/maps/api/js"]');
      if (withKey) await expect(mapsScript.first(), path).toBeAttached();
      else await expect(page.getByRole('note').filter({ hasText: 'Google Maps API キー' }), path).toBeVisible();
      if (!withKey) expect(await mapsScript.count(), path).toBe(0);
    }
    expect(violations, path).toEqual([]);
    opened++;
  }
  // Violations are reported as tasks after the fact: the last screen's have arrived once the tasks queued so far have run.
  await tasksRun(page);
  expect(violations).toEqual([]);
  expect(errors.filter((error) => !/Google Maps/.test(error))).toEqual([]);
  return opened;
}

test('without a maps key every screen works under the policy', async ({ page }) => {
  test.setTimeout(240_000);
  expect(await visitEveryRoute(page, `${E2E.baseURL}/`, false)).toBe(ROUTES.length);
});

test.describe('with a maps key', () => {
  let server: ChildProcess | undefined;
  let base = '';

  test.beforeAll(async () => {
    // The same database as the e2e server (server processes may share one); only the maps key differs.
    server = spawn(process.execPath, SERVER_ARGS, {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: { ...process.env, TZ: 'Asia/Tokyo', PORT: '0', HOST: '127.0.0.1', WEB_CONCURRENCY: '1', DATA_DIR: E2E.dataDir, MAPS_API_KEY: 'e2e-maps-key' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const started = server;
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      started.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const port = /http:\/\/localhost:(\d+)\//.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}/`);
      });
      started.once('exit', (code) => reject(new Error(`the maps-key server stopped (${code}): ${out}`)));
    });
  });

  test.afterAll(() => {
    server?.kill();
  });

  test('every screen works under the policy, the maps loader included', async ({ page }) => {
    test.setTimeout(240_000);
    expect(await visitEveryRoute(page, base, true)).toBe(ROUTES.length);
  });
});
