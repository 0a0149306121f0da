/**
 * Daily use (issue 10): the home page's counts of today's work, each a link to the list it counts; lists for a
 * working day (the header stays while the rows scroll, paging also below the table, the filter panel folded until
 * used and remembered, a date filter one Tab stop per end, the money total row of the filtered set); the route
 * sheet printed one page per driver's day with 集金額, 備考 and a check column.
 */
import { expect, test, type Page } from '@playwright/test';
import { addDays, formatMoney, todayJst } from '../../lib/format';
import { openFilters } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

const count = (query: string, ...params: (string | number)[]): number => Number(readRow<{ n: number }>(query, ...params).n);
const yen = (text: string): number => Number(text.replace(/[^\d-]/g, ''));

/** The 全 N 件 of the list above its table. */
const totalOfList = (page: Page) => page.getByRole('navigation', { name: 'ページ送り', exact: true }).locator('xpath=..').locator('p').first();

test('home: today’s work counted, each count a link to the rows it counts', async ({ page }) => {
  const errors = trackErrors(page);
  const today = todayJst();
  const tomorrow = addDays(today, 1);
  const expected = {
    untreated: count(`SELECT COUNT(*) AS n FROM orders WHERE deleted = 0 AND od_status = 'untreated'`),
    pending: count(`SELECT COUNT(*) AS n FROM orders WHERE deleted = 0 AND od_status = 'pending'`),
    today: count(`SELECT COUNT(*) AS n FROM orders WHERE deleted = 0 AND od_status <> 'cancelled' AND od_delivery_date = ?`, today),
    tomorrow: count(`SELECT COUNT(*) AS n FROM orders WHERE deleted = 0 AND od_status <> 'cancelled' AND od_delivery_date = ?`, tomorrow),
    maintenance: count(`SELECT COUNT(*) AS n FROM water_server WHERE deleted = 0 AND sv_status = 'installed' AND sv_next_due_date >= '1970-01-01' AND sv_next_due_date < ?`, today),
    overdue: count(`SELECT COUNT(*) AS n FROM client WHERE deleted = 0 AND cl_haiso_flag = 1 AND cl_next_shipping_date >= '1970-01-01' AND cl_next_shipping_date < ?`, today),
  };
  expect(expected.untreated).toBeGreaterThan(0);
  expect(expected.today).toBeGreaterThan(0);
  expect(expected.maintenance).toBeGreaterThan(0);

  await login(page);
  const work = page.getByRole('list', { name: '今日の仕事' });
  for (const [key, n] of Object.entries(expected)) await expect(work.getByTestId(`work-${key}`)).toContainText(`${n.toLocaleString('ja-JP')}`);

  const opens = async (label: string, heading: string, n: number, url: RegExp) => {
    await page.goto('/#/');
    await work.getByRole('link', { name: new RegExp(label) }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(totalOfList(page)).toContainText(`全 ${n.toLocaleString('ja-JP')} 件`);
    await expect(page).toHaveURL(url);
  };
  await opens('未処理の受注', '受注一覧（未処理）', expected.untreated, /#\/orders\/list\/untreated$/);
  await opens('保留の受注', '受注一覧（保留）', expected.pending, /#\/orders\/list\/pending$/);
  await opens('今日の配送', '受注検索', expected.today, /#\/orders\/list\/search$/);
  // The link's filters are the list's own now: they stay after a reload, in the panel.
  await page.reload();
  await expect(totalOfList(page)).toContainText(`全 ${expected.today.toLocaleString('ja-JP')} 件`);
  await openFilters(page);
  await expect(page.getByLabel('配送日（開始）')).toHaveValue(today);
  await opens('明日の配送', '受注検索', expected.tomorrow, /#\/orders\/list\/search$/);
  await opens('メンテナンス期限切れ', 'サーバー一覧', expected.maintenance, /#\/server\/list$/);
  await opens('定期配送の遅れ', '顧客一覧', expected.overdue, /#\/client\/list$/);
  expect(errors).toEqual([]);
});

test('lists: the header stays in sight while the rows scroll, and paging is also below the table', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/client/list');
  await page.getByLabel('表示件数').selectOption('50');
  const table = page.getByRole('table', { name: '顧客一覧' });
  await expect(table.getByRole('row')).toHaveCount(51);
  const header = table.getByRole('columnheader', { name: /会社名/ });
  const firstRow = table.getByRole('row').nth(1);
  await table.getByRole('row').last().scrollIntoViewIfNeeded();
  await expect(firstRow).not.toBeInViewport();
  await expect(header).toBeInViewport();
  const [headerBox, lastBox] = [await header.boundingBox(), await table.getByRole('row').last().boundingBox()];
  expect(headerBox!.y).toBeLessThan(lastBox!.y);

  const below = page.getByRole('navigation', { name: 'ページ送り（表の下）' });
  await expect(below).toBeInViewport();
  await below.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByRole('navigation', { name: 'ページ送り', exact: true }).getByRole('button', { name: '2ページ' })).toHaveAttribute('aria-current', 'page');
  await expect(below.getByRole('button', { name: '2ページ' })).toHaveAttribute('aria-current', 'page');
  expect(errors).toEqual([]);
});

test('lists: the filter panel starts folded without filters, remembers its state; a date filter is one Tab stop per end', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/item/list');
  const toggle = page.getByRole('button', { name: /詳細検索/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: /詳細検索/ })).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('button', { name: /詳細検索/ }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: /詳細検索/ })).toHaveAttribute('aria-expanded', 'false');

  // A list opened with a filter shows its panel (nothing remembered for it yet).
  await page.goto(`/#/server/list?filter=${encodeURIComponent(JSON.stringify({ due: 'overdue' }))}`);
  await expect(page.getByRole('button', { name: /詳細検索/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByLabel('メンテ期限')).toHaveValue('overdue');

  await page.goto('/#/client/list');
  await openFilters(page);
  const from = page.getByLabel('登録日（開始）');
  await from.focus();
  await page.keyboard.type('0401');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('登録日（終了）')).toBeFocused();
  await expect(from).toHaveValue(`${todayJst().slice(0, 4)}-04-01`);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('更新日（開始）')).toBeFocused();
  expect(errors).toEqual([]);
});

test('lists: the total row is the sum of 合計金額 over the filtered orders', async ({ page }) => {
  const errors = trackErrors(page);
  const expected = readRow<{ n: number; total: number }>(`SELECT COUNT(*) AS n, SUM(od_uriage_total) AS total FROM orders WHERE deleted = 0 AND od_status = 'pending'`);
  expect(Number(expected.n)).toBeGreaterThan(1);
  expect(Number(expected.n)).toBeLessThanOrEqual(100);
  await login(page);
  await page.goto('/#/orders/list/search');
  await openFilters(page);
  await page.getByRole('group', { name: '状態' }).getByRole('checkbox', { name: '保留' }).check();
  await page.getByLabel('表示件数').selectOption('100');
  const table = page.getByRole('table', { name: '受注一覧' });
  await expect(table.locator('tbody').getByRole('row')).toHaveCount(Number(expected.n));
  const cells = await table.locator('tbody tr td:nth-child(6)').allTextContents();
  const sum = cells.reduce((s, text) => s + yen(text), 0);
  const totalRow = table.locator('tfoot').getByRole('row');
  await expect(totalRow).toContainText(`絞り込んだ ${expected.n} 件の合計`);
  await expect(totalRow).toContainText(formatMoney(sum));
  expect(sum).toBe(Number(expected.total));

  // A narrower filter narrows the total with it.
  await page.getByLabel('合計金額（下限）').fill('10000');
  const narrowed = readRow<{ n: number; total: number | null }>(`SELECT COUNT(*) AS n, SUM(od_uriage_total) AS total FROM orders WHERE deleted = 0 AND od_status = 'pending' AND od_uriage_total >= 10000`);
  if (Number(narrowed.n) > 0) await expect(totalRow).toContainText(formatMoney(Number(narrowed.total)));
  else await expect(table.locator('tfoot')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('route sheet: one page per driver’s day, with 集金額, 備考 and a check column', async ({ page }) => {
  const errors = trackErrors(page);
  const today = todayJst();
  const to = addDays(today, 6);
  const driver = readRow<{ user_id: number; user_name: string; days: number; collect: number }>(
    `SELECT u.user_id, u.user_name, COUNT(DISTINCT o.od_delivery_date) AS days, 0 AS collect FROM orders o
     JOIN client c ON c.cl_id = o.od_cl_id JOIN user u ON u.user_id = c.cl_delivery_usr_id
     WHERE o.deleted = 0 AND o.od_status <> 'cancelled' AND o.od_delivery_date BETWEEN ? AND ?
     GROUP BY u.user_id, u.user_name ORDER BY days DESC LIMIT 1`, today, to);
  expect(Number(driver.days)).toBeGreaterThan(1);
  await login(page);
  await page.goto('/#/hod/list');
  const filters = page.getByRole('form', { name: '絞り込み' });
  await filters.getByLabel('開始日').fill(today);
  await filters.getByLabel('終了日').fill(to);
  await filters.getByLabel('担当者').selectOption({ label: driver.user_name });
  await filters.getByRole('button', { name: '表示' }).click();
  const sheets = page.locator('[data-route-sheet]');
  await expect(sheets).toHaveCount(Number(driver.days));
  const first = sheets.first();
  for (const name of ['チェック', '集金額', '備考']) await expect(first.getByRole('columnheader', { name })).toBeVisible();
  await expect(first.getByRole('heading', { level: 2 })).toContainText(driver.user_name);

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'メニュー' })).toBeHidden();
  const breaks = await sheets.evaluateAll((nodes) => nodes.map((n) => getComputedStyle(n).breakBefore));
  expect(breaks[0]).not.toBe('page');
  expect(breaks.slice(1)).toEqual(breaks.slice(1).map(() => 'page'));
  // Printed, each driver's day is one page.
  const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)?.length).toBe(Number(driver.days));
  expect(errors).toEqual([]);
});
