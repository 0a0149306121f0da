/**
 * 月次サーバーレンタル (/sales/rental, the 売上 menu): next month's charges of the demo company's agreements and installed
 * servers previewed, then 「売上を作成」 — a job whose progress bar reaches 100 % with the result — and the slips are
 * there once per agreement, the button disabled afterwards (nothing left to create).
 */
import { expect, test } from '@playwright/test';
import { todayJst } from '../../lib/format';
import { rentalMonth } from '../../lib/sales/rental';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

/** Next month as YYYY-MM (no run of the demo company has billed it). */
const nextMonth = (): string => {
  const [y, m] = todayJst().split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

test('preview the month\'s server rental and create its slips with the progress shown', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  await login(page);
  const month = nextMonth();
  const ym = month.replace('-', '');

  await page.goto('/#/sales/rental');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('月次サーバーレンタル');
  await page.getByLabel('対象月').fill(month);
  await page.getByRole('button', { name: '表示' }).click();
  const table = page.getByRole('table', { name: 'レンタル料の明細' });
  await expect(table.getByRole('row').nth(1)).toContainText('未作成');

  await page.getByRole('button', { name: '売上を作成' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '売上を作成' }).click();
  const progress = page.getByRole('progressbar', { name: '月次サーバーレンタルの売上作成の進み具合' });
  await expect(progress).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
  const card = page.getByRole('status', { name: '月次サーバーレンタルの売上作成' });
  await expect(card).toContainText(/レンタルの売上伝票を作成しました（.*・作成 [1-9]\d*件/);

  const { from } = rentalMonth(ym)!;
  const counts = readRow<{ slips: number; agreements: number }>(
    `SELECT COUNT(*) AS slips, COUNT(DISTINCT sl_ag_id) AS agreements FROM sales WHERE deleted = 0 AND sl_ym = ? AND sl_kind = 'rental' AND sl_date >= ?`, ym, from,
  );
  expect(counts.slips).toBeGreaterThan(0);
  expect(counts.slips).toBe(counts.agreements);
  await expect(page.getByRole('button', { name: '売上を作成' })).toBeDisabled();
  await expect(table.getByRole('row').nth(1)).toContainText('作成済み');
  expect(errors).toEqual([]);
});
