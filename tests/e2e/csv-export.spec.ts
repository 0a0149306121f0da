/**
 * 「CSV出力」 in the browser (issue 11), on the seeded demo company: a list narrowed by a keyword is exported
 * in Shift_JIS; the downloaded file's bytes, decoded as cp932, hold the list's rows in the list's order
 * (every page, Japanese headers), and the dialog reports what it wrote.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import iconv from 'iconv-lite';
import { parseCsv } from '../csv';
import { searchList } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('exports the keyword-narrowed customer list as Shift_JIS with the rows of the list, every page', async ({ page }) => {
  const errors = trackErrors(page);
  const expected = readRow<{ n: number }>(`SELECT count(*) AS n FROM client WHERE deleted = 0 AND cl_search LIKE '%株式会社%'`).n;
  expect(expected, 'the demo data has more than one page of them').toBeGreaterThan(10);
  await page.goto('/#/client/list');
  await searchList(page, '株式会社');
  await expect(page.getByText(`全 ${expected.toLocaleString('ja-JP')} 件`)).toBeVisible();
  const table = page.getByRole('table');
  const listedIds = await table.getByRole('row').locator('td:first-child a').allTextContents();
  const listedNames = await table.getByRole('row').locator('td:nth-child(3)').allTextContents();

  await page.getByRole('button', { name: 'CSV出力' }).click();
  const dialog = page.getByRole('dialog', { name: 'CSV出力' });
  await expect(dialog.getByRole('radio', { name: 'Shift_JIS（Excel 向け）' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: '一覧の列のみ' })).toBeChecked();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: '出力する' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^顧客_\d{8}-\d{4}\.csv$/);
  await expect(dialog.getByRole('status')).toHaveText(`${expected.toLocaleString('ja-JP')} 行を「${download.suggestedFilename()}」に出力しました。`);

  const text = iconv.decode(readFileSync(await download.path()), 'cp932');
  const records = parseCsv(text);
  expect(records[0]).toEqual(['ID', '顧客コード', '会社名', '氏名', '電話番号', '都道府県', '市区町村', '状態', '次回配送日', '更新日時']);
  expect(records.length - 1).toBe(expected);
  expect(records.slice(1, 1 + listedIds.length).map((r) => r[0])).toEqual(listedIds);
  expect(records.slice(1, 1 + listedNames.length).map((r) => r[2])).toEqual(listedNames);
  expect(records.slice(1).every((r) => r[2].includes('株式会社'))).toBe(true);
  expect(records.slice(1).every((r) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(r[9]))).toBe(true);
  expect(errors).toEqual([]);
});

test('an order status list exports every field in UTF-8 with a BOM, its fixed status applied', async ({ page }) => {
  const expected = readRow<{ n: number }>(`SELECT count(*) AS n FROM orders WHERE deleted = 0 AND od_status = 'untreated'`).n;
  await page.goto('/#/orders/list/untreated');
  await page.getByRole('button', { name: 'CSV出力' }).click();
  const dialog = page.getByRole('dialog', { name: 'CSV出力' });
  await dialog.getByRole('radio', { name: '全項目' }).check();
  await dialog.getByRole('radio', { name: 'UTF-8（BOM 付き）' }).check();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: '出力する' }).click()]);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parseCsv(bytes.toString('utf8').slice(1));
  expect(records[0].slice(0, 7)).toEqual(['ID', '受注番号', '受注日', '顧客', '配送日', '状態', '合計金額']);
  expect(records.length - 1).toBe(expected);
  expect(records.slice(1).every((r) => r[5] === '未処理')).toBe(true);
});
