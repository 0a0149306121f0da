/**
 * 顧客取込 in the browser (issue 14): a cp932 file chosen with 「ファイル参照」 (`setInputFiles`) is checked (the dry run):
 * its counts and its error list by row and column; nothing is written. The fixed file is checked again, committed as a
 * job (its progress bar reaches 100%), the recent imports list it, and the customers are found in the customer list.
 */
import { expect, test } from '@playwright/test';
import iconv from 'iconv-lite';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

const unique = `IM${Date.now().toString().slice(-6)}`;
const header = '顧客コード,顧客名,TEL,メールアドレス,状態';
const file = (rows: string[]) => ({ name: '顧客取込テスト.csv', mimeType: 'text/csv', buffer: iconv.encode([header, ...rows].join('\r\n') + '\r\n', 'cp932') });

test('顧客取込: dry run with an error list, fix and commit, the customers listed', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/client/import');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('顧客取込');

  await page.getByLabel('取り込むファイル').setInputFiles(file([
    `${unique}A,${unique}取込商事,03-1212-0001,a@example.jp,契約中`,
    `${unique}B,${unique}取込物産,03-1212-0002,not-a-mail,契約中`,
  ]));
  await page.getByRole('button', { name: 'アップロードして確認' }).click();
  await expect(page.getByRole('heading', { name: /確認結果（顧客取込テスト\.csv・Shift_JIS）/ })).toBeVisible();
  const summary = page.getByLabel('確認結果の件数');
  await expect(summary).toContainText('行数2件');
  await expect(summary).toContainText('追加1件');
  await expect(summary).toContainText('エラー1件');
  const errorRow = page.getByRole('table', { name: '取込のエラー' }).getByRole('row').nth(1);
  await expect(errorRow).toContainText('3');
  await expect(errorRow).toContainText('メールアドレス');
  await expect(errorRow).toContainText('メールアドレスの形式が正しくありません');
  await expect(page.getByRole('button', { name: '取込実行' })).toBeDisabled();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'エラー行をCSVでダウンロード' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^顧客取込_エラー行_\d{8}-\d{4}\.csv$/);
  expect(readRow<{ n: number }>('SELECT count(*) AS n FROM client WHERE cl_code LIKE ?', `${unique}%`).n).toBe(0);

  await page.getByLabel('取り込むファイル').setInputFiles(file([
    `${unique}A,${unique}取込商事,03-1212-0001,a@example.jp,契約中`,
    `${unique}B,${unique}取込物産,03-1212-0002,b@example.jp,契約中`,
  ]));
  await page.getByRole('button', { name: 'アップロードして確認' }).click();
  await expect(summary).toContainText('追加2件');
  await expect(summary).toContainText('エラー0件');
  await page.getByRole('button', { name: '取込実行' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '取込実行' }).click();
  await expect(page.getByRole('status', { name: 'データ取込' })).toContainText('2行を取り込みました（追加 2件・更新 0件・スキップ 0件）', { timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'データ取込の進み具合' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByRole('table', { name: '最近の取込' }).getByRole('row').nth(1)).toContainText('取込済み');

  await page.goto('/#/client/list');
  const box = page.getByLabel('キーワード');
  await box.fill(unique);
  await box.press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(`${unique}取込商事`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`${unique}取込物産`) })).toBeVisible();
  expect(errors).toEqual([]);
});

test('データ取込 without a kind offers every import with what it does; a kind\'s breadcrumbs name it and lead back', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/import');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('データ取込');
  const kinds = page.getByRole('navigation', { name: '取込の種類を選んでください' });
  await expect(kinds.getByRole('link')).toHaveText(['顧客取込', '受注取込', '送り状取込', '送り状取込（佐川 e飛伝）', '口座振替結果（JACCS 全銀）']);
  await expect(kinds).toContainText('ECサイトなどの受注CSV（1行1明細）から受注と明細を登録します。');
  await kinds.getByRole('link', { name: '受注取込' }).click();
  await expect(page).toHaveURL(/#\/system\/import\?kind=order$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('受注取込');
  const trail = page.getByRole('navigation', { name: 'パンくずリスト' });
  await expect(trail.getByRole('listitem')).toHaveText(['ホーム', '›データ取込', '›受注取込']);
  await trail.getByRole('link', { name: 'データ取込' }).click();
  await expect(kinds.getByRole('link', { name: '顧客取込' })).toHaveAttribute('href', '#/client/import');
  expect(errors).toEqual([]);
});
