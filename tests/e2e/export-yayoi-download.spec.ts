/**
 * Issue 14's files in the browser, on the seeded demo company: the Yayoi journal from /system/export's 会計連携（弥生） tab (its bytes decoded as
 * cp932: 25 columns, no header, CR LF, as many records as the period's non-zero slip buckets and payments; then the same
 * period refused as exported before, and exported again as 再出力, marked in the list), and /system/download's orders with
 * their lines (one row per line, as many as the database holds for the period).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import iconv from 'iconv-lite';
import { addDays } from '../../lib/format';
import { parseCsv } from '../csv';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('exports the Yayoi journal of a week as cp932, refuses the same period again, and exports it as 再出力', async ({ page }) => {
  const errors = trackErrors(page);
  const first = readRow<{ d: string }>('SELECT min(sl_date) AS d FROM sales WHERE deleted = 0').d;
  const from = first;
  const to = addDays(first, 6);
  const rates = readRow<{ n: number }>(`SELECT count(*) AS n FROM sales_rate JOIN sales ON sl_id = slr_sl_id
    WHERE sales.deleted = 0 AND sl_date BETWEEN ? AND ? AND (slr_total <> 0 OR slr_tax <> 0)`, from, to).n;
  const payments = readRow<{ n: number }>('SELECT count(*) AS n FROM payment WHERE deleted = 0 AND py_date BETWEEN ? AND ? AND py_amount <> 0', from, to).n;
  expect(rates + payments, 'the week has slips').toBeGreaterThan(0);

  await page.goto('/#/system/export?tab=b2');
  await expect(page.getByRole('tab', { name: '送り状出力（ヤマト B2）' })).toHaveAttribute('aria-selected', 'true');
  // The menu's 会計連携 entry while the screen is open selects its tab.
  await page.getByRole('banner').getByRole('button', { name: '入力' }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: '会計連携（弥生）' }).click();
  await expect(page.getByRole('tab', { name: '会計連携（弥生）' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('開始日').fill(from);
  await page.getByLabel('終了日').fill(to);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '仕訳を出力' }).click()]);
  const span = `${from.replaceAll('-', '')}-${to.replaceAll('-', '')}`;
  expect(download.suggestedFilename()).toBe(`弥生仕訳_${span}.csv`);
  await expect(page.getByRole('status').filter({ hasText: 'に出力しました' })).toHaveText(`${(rates + payments).toLocaleString('ja-JP')} 行を「弥生仕訳_${span}.csv」に出力しました。`);
  const bytes = readFileSync(await download.path());
  const text = iconv.decode(bytes, 'cp932');
  expect(text.endsWith('\r\n')).toBe(true);
  const records = parseCsv(text);
  expect(records).toHaveLength(rates + payments);
  expect(records.every((r) => r.length === 25 && r[24] === 'no' && r[19] === '0')).toBe(true);
  expect(records.every((r) => r[3] >= from.replaceAll('-', '/') && r[3] <= to.replaceAll('-', '/'))).toBe(true);
  expect(records.every((r) => /^\d+$/.test(r[8]) && /^\d+$/.test(r[14])), 'no negative amounts').toBe(true);
  expect(records.some((r) => r[13] === '課税売上内10%' || r[7] === '課税売上内10%')).toBe(true);
  const history = page.getByRole('table', { name: 'これまでの出力' });
  await expect(history.getByRole('row').nth(1)).toContainText(`${from}〜${to}`);
  await expect(history.getByRole('row').nth(1)).toContainText('初回');

  // The same period again: refused, naming the earlier export; with 再出力 the same bytes, marked.
  await page.getByRole('button', { name: '仕訳を出力' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '出力済みです（出力番号' })).toBeVisible();
  await page.getByLabel('再出力する（出力済みの期間を含む）').check();
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '仕訳を出力' }).click()]);
  expect(again.suggestedFilename()).toBe(`弥生仕訳_${span}_再出力.csv`);
  expect(readFileSync(await again.path()).equals(bytes)).toBe(true);
  await expect(history.getByRole('row').nth(1)).toContainText('再出力');
  expect(errors).toEqual([]);
});

test('downloads the orders of a month with their lines from /system/download, one row per line', async ({ page }) => {
  const errors = trackErrors(page);
  const month = readRow<{ m: string }>("SELECT substr(max(od_date), 1, 7) AS m FROM orders WHERE deleted = 0 AND od_date < date('now', 'start of month')").m;
  const from = `${month}-01`;
  const [year, mon] = month.split('-').map(Number);
  const to = addDays(mon === 12 ? `${year + 1}-01-01` : `${year}-${String(mon + 1).padStart(2, '0')}-01`, -1);
  const orders = readRow<{ n: number }>('SELECT count(*) AS n FROM orders WHERE deleted = 0 AND od_date BETWEEN ? AND ?', from, to).n;
  const lines = readRow<{ n: number }>(`SELECT count(*) AS n FROM order_detail WHERE odd_od_id IN (SELECT od_id FROM orders WHERE deleted = 0 AND od_date BETWEEN ? AND ?)`, from, to).n;
  const withLines = readRow<{ n: number }>(`SELECT count(DISTINCT odd_od_id) AS n FROM order_detail WHERE odd_od_id IN (SELECT od_id FROM orders WHERE deleted = 0 AND od_date BETWEEN ? AND ?)`, from, to).n;
  const expected = orders + lines - withLines;
  expect(orders).toBeGreaterThan(0);

  await page.goto('/#/system/download');
  await expect(page.getByRole('heading', { name: 'データダウンロード' })).toBeVisible();
  await page.getByLabel('データ', { exact: true }).selectOption('order');
  await page.getByLabel('受注日（開始）').fill(from);
  await page.getByLabel('受注日（終了）').fill(to);
  await expect(page.getByRole('radio', { name: 'Shift_JIS（Excel 向け）' })).toBeChecked();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'ダウンロード' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^受注_${from.replaceAll('-', '')}-${to.replaceAll('-', '')}_\\d{8}-\\d{4}\\.csv$`));
  await expect(page.getByRole('status').filter({ hasText: 'に出力しました' })).toHaveText(`${expected.toLocaleString('ja-JP')} 行を「${download.suggestedFilename()}」に出力しました。`);
  const records = parseCsv(iconv.decode(readFileSync(await download.path()), 'cp932'));
  const header = records[0];
  expect(header.slice(0, 3)).toEqual(['ID', '受注番号', '受注日']);
  expect(header).toContain('明細：品名');
  expect(records.length - 1).toBe(expected);
  const at = header.indexOf('受注日');
  expect(records.slice(1).every((r) => r[at] >= from && r[at] <= to)).toBe(true);
  expect(new Set(records.slice(1).map((r) => r[0])).size).toBe(orders);
  expect(errors).toEqual([]);
});
