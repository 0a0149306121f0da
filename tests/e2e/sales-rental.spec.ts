/**
 * 月次サーバーレンタル (/sales/rental, the 売上 menu): next month's charges of the demo company's agreements and installed
 * servers previewed, then 「売上を作成」 — a job whose progress bar reaches 100 % with the result — and the slips are
 * there once per agreement, the button disabled afterwards (nothing left to create); a slip the run made is read-only.
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

  // A rental slip is the run's: its detail is read-only and says where it comes from.
  const slip = readRow<{ sl_id: number }>(`SELECT sl_id FROM sales WHERE deleted = 0 AND sl_ym = ? ORDER BY sl_id LIMIT 1`, ym);
  await page.goto(`/#/sales/detail/${slip.sl_id}`);
  const [y, m] = [ym.slice(0, 4), Number(ym.slice(4))];
  await expect(page.getByTestId('read-only-reason')).toHaveText(`この売上伝票は月次サーバーレンタル（${y}年${m}月分）で作られた伝票のため、手で変更・削除できません。訂正は値引・返品の伝票を登録してください。`);
  await expect(page.getByRole('button', { name: '保存' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '削除' })).toHaveCount(0);
  await expect(page.getByLabel('備考', { exact: true })).not.toBeEditable();
  await expect(page.getByRole('button', { name: '＋ 明細を追加' })).toHaveCount(0);
  expect(errors).toEqual([]);
});
