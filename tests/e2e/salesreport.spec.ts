/**
 * 売上レポート (/salesreport) on the demo company's slips: the report by staff over the last three months — the chart
 * drawn (Chart.js loaded by this screen, pixels on the canvas, stacked by rate and then by staff, no CSP violation), a staff row's link
 * landing on the sales list with exactly that staff member's slips of the period (counted in the database), the CSV
 * downloaded in Shift_JIS; then the aging list, whose customer links open the customer.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import iconv from 'iconv-lite';
import { todayJst } from '../../lib/format';
import { readRow } from './db';
import { login, trackErrors, watchViolations } from './fixtures';

/** The first day of the month two months before this one, and today: three months of the demo company's slips. */
function lastThreeMonths(): { from: string; to: string } {
  const today = todayJst();
  const [y, m] = today.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 3, 1)).toISOString().slice(0, 10);
  return { from: first, to: today };
}

/** Whether the canvas holds drawn pixels (not a blank one). */
const painted = (page: Page, name: RegExp) =>
  page.getByRole('img', { name }).evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let filled = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) filled += 1;
    return filled;
  });

test('sales report by staff: the chart is drawn, a row drills down to exactly its slips, the CSV downloads', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  // The chart library draws under the page's Content-Security-Policy (no inline styles or scripts).
  const violations = await watchViolations(page);
  await login(page);
  const period = lastThreeMonths();

  await page.goto('/#/salesreport');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('売上レポート');
  await expect(page.getByRole('tab', { name: '売上集計' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('開始日').fill(period.from);
  await page.getByLabel('終了日').fill(period.to);
  await page.getByLabel('集計単位').selectOption('staff');
  await page.getByRole('button', { name: '集計' }).click();

  const table = page.getByRole('table', { name: /^売上 / });
  await expect(table.getByRole('columnheader').first()).toHaveText('担当者');
  const chart = page.getByRole('img', { name: /税率別の積み上げ/ });
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  expect(await painted(page, /税率別の積み上げ/)).toBeGreaterThan(1000);
  await page.getByRole('radio', { name: '担当者別' }).check();
  await expect(page.getByRole('img', { name: /担当者別の積み上げ/ })).toHaveAttribute('data-drawn', 'true');
  expect(await painted(page, /担当者別の積み上げ/)).toBeGreaterThan(1000);
  expect(violations).toEqual([]);

  // The CSV: every row and the total, in Shift_JIS.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV出力' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^売上レポート_担当者別_\d{8}-\d{8}_\d{8}-\d{4}\.csv$/);
  const lines = iconv.decode(readFileSync(await download.path()), 'cp932').trimEnd().split('\r\n');
  expect(lines[0]).toBe('担当者ID,担当者,税抜金額,消費税,税込金額,数量,前年税抜金額,前年消費税,前年税込金額,前年数量,前年差（税抜）,前年比（%）');
  const rows = await table.locator('tbody tr').count();
  expect(lines).toHaveLength(rows + 2);
  expect(lines.at(-1)).toMatch(/^,合計,/);
  await expect(page.getByText(`「${download.suggestedFilename()}」に出力しました。`)).toBeVisible();

  // The first staff row: its slips of the period on the sales list, as many as the database holds.
  const link = table.locator('tbody tr').first().getByRole('rowheader').getByRole('link');
  const name = (await link.textContent()) ?? '';
  const { n } = readRow<{ n: number }>(
    `SELECT COUNT(*) AS n FROM sales JOIN user ON user_id = sl_usr_id WHERE sales.deleted = 0 AND sl_date BETWEEN ? AND ? AND user_name = ?`, period.from, period.to, name,
  );
  expect(n).toBeGreaterThan(0);
  await link.click();
  await expect(page).toHaveURL(/#\/sales\/list/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('売上伝票一覧');
  await expect(page.getByText(`全 ${n.toLocaleString('ja-JP')} 件`)).toBeVisible();
  expect(errors).toEqual([]);
});

test('aging list: per billing customer by age, sortable, the customer one click away', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/salesreport');
  await page.getByRole('tab', { name: '売掛金年齢表' }).click();
  const table = page.getByRole('table', { name: /^売掛金年齢表/ });
  for (const name of ['顧客', '未請求', '未到来', '1〜30日', '31〜60日', '61〜90日', '91日以上', '前受・未消込', '合計']) await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: '合計', exact: true })).toHaveAttribute('aria-sort', 'descending');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  // The demo company has no closing yet: everything owed is unbilled, the largest first.
  const { n } = readRow<{ n: number }>(`SELECT COUNT(DISTINCT sl_cl_id) AS n FROM sales WHERE deleted = 0 AND sl_bli_id IS NULL AND sl_date <= ?`, todayJst());
  expect(n).toBeGreaterThan(0);
  await expect(table.locator('tfoot')).toContainText('合計（');
  await table.getByRole('button', { name: '顧客' }).click();
  await expect(table.getByRole('columnheader', { name: '顧客', exact: true })).toHaveAttribute('aria-sort', 'ascending');
  // The rows of the new order have arrived (the table is busy while the previous order's rows are still shown).
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  const first = table.locator('tbody tr').first().getByRole('link');
  const customer = (await first.textContent()) ?? '';
  await first.click();
  await expect(page).toHaveURL(/#\/client\/detail\/\d+$/);
  const id = Number(/detail\/(\d+)$/.exec(page.url())![1]);
  expect(readRow<{ name: string }>(`SELECT CASE WHEN cl_co_name <> '' THEN cl_co_name ELSE cl_name END AS name FROM client WHERE cl_id = ?`, id).name).toBe(customer);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('顧客詳細');
  expect(errors).toEqual([]);
});
