/**
 * System settings in the browser: the master editor feeding the customer form's selects, the item
 * classification and delivery slot editors, per-prefecture delivery fees, and the system log
 * showing those edits before → after. The tests share one server and run in order.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openFilters, searchList } from './crud';
import { login, trackErrors } from './fixtures';

const grid = (page: Page): Locator => page.getByRole('table').first();

/** The options a labelled select offers, by their text. */
const optionTexts = (select: Locator): Promise<string[]> => select.locator('option').allTextContents();

test('master editor: edit, add, filter and delete rows; the customer form offers the change', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  await login(page);

  // The customer form has already read the rank master once (the select caches it).
  await page.goto('/#/client/new');
  await page.getByRole('tab', { name: '分類' }).click();
  const rank = page.getByLabel('ランク', { exact: true });
  await expect(rank.locator('option', { hasText: 'B（標準）' })).toHaveCount(1);

  await page.goto('/#/system/master/');
  await expect(page.getByRole('heading', { level: 1, name: 'マスタ管理' })).toBeVisible();
  const catalogue = page.getByRole('navigation', { name: 'マスタの一覧' });
  for (const name of ['支払方法', '銀行', '顧客分類1', '顧客分類7', 'ランク', 'チーム', 'エリア', '商品分類', 'サーバー機種', '配達時間帯']) {
    await expect(catalogue.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(catalogue).toContainText('全銀協の金融機関コード');
  await catalogue.getByRole('link', { name: 'ランク', exact: true }).click();
  await expect(page).toHaveURL(/#\/system\/master\/\?table=mt_rank$/);
  await expect(page.getByRole('heading', { level: 2, name: /ランク/ })).toBeVisible();
  await expect(grid(page)).toContainText('A（優良）');

  // Inline edit.
  await page.getByRole('button', { name: '「B（標準）」を編集' }).click();
  await page.getByLabel('「B（標準）」の名称').fill('B（一般）E2E');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(grid(page).getByRole('cell', { name: 'B（一般）E2E', exact: true })).toBeVisible();

  // Add, with a duplicate code refused first.
  await page.getByLabel('新しい項目のコード').fill('A');
  await page.getByLabel('新しい項目の名称').fill('重複');
  await page.getByRole('button', { name: '追加' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'このマスタには同じコードが既に登録されています' })).toBeVisible();
  await page.getByLabel('新しい項目のコード').fill('S');
  await page.getByLabel('新しい項目の名称').fill('S（最優良）E2E');
  await page.getByRole('button', { name: '追加' }).click();
  await expect(grid(page).getByRole('cell', { name: 'S（最優良）E2E', exact: true })).toBeVisible();
  await expect(page.getByLabel('新しい項目のコード')).toHaveValue('');

  // Keyword filter.
  await searchList(page, 'e2e');
  await expect(grid(page).getByRole('row')).toHaveCount(4); // header, add row, two matches
  await searchList(page, '');
  await expect(grid(page)).toContainText('C（要フォロー）');

  // Delete after confirmation.
  await page.getByRole('button', { name: '「S（最優良）E2E」を削除' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('このデータを本当に削除しますか？');
  await dialog.getByRole('button', { name: '削除する' }).click();
  await expect(page.getByText('削除しました。')).toBeVisible();
  await expect(grid(page).getByRole('cell', { name: 'S（最優良）E2E', exact: true })).toHaveCount(0);

  // The customer form (same page, cached select) now offers the edited name, not the deleted row.
  await page.goto('/#/client/new');
  await page.getByRole('tab', { name: '分類' }).click();
  await expect(rank.locator('option', { hasText: 'B（一般）E2E' })).toHaveCount(1);
  expect(await optionTexts(rank)).not.toContain('S（最優良）E2E');
  await rank.selectOption({ label: 'B（一般）E2E' });
  await expect(rank).toHaveValue('B');
  expect(errors).toEqual([]);
});

test('item classification and delivery slot screens edit their one master', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);

  await page.goto('/#/system/itemcode');
  await expect(page.getByRole('heading', { level: 1, name: '商品分類' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'マスタの一覧' })).toHaveCount(0);
  await expect(grid(page)).toContainText('ボトル水（リターナブル）');
  await expect(grid(page)).not.toContainText('午前中');
  await page.getByLabel('新しい項目のコード').fill('70');
  await page.getByLabel('新しい項目の名称').fill('ギフトセットE2E');
  await page.getByRole('button', { name: '追加' }).click();
  await expect(grid(page).getByRole('cell', { name: 'ギフトセットE2E', exact: true })).toBeVisible();
  await page.goto('/#/item/new');
  await expect(page.getByLabel('商品分類', { exact: true }).locator('option', { hasText: 'ギフトセットE2E' })).toHaveCount(1);

  await page.goto('/#/system/delivery');
  await expect(page.getByRole('heading', { level: 1, name: '配送時間帯' })).toBeVisible();
  await expect(grid(page)).toContainText('午前中');
  await expect(grid(page)).not.toContainText('ボトル水');
  await page.getByRole('button', { name: '「14時〜16時」を編集' }).click();
  await page.getByLabel('「14時〜16時」の名称').fill('14時〜16時（平日のみ）');
  await page.getByLabel('「14時〜16時」の表示順').fill('5');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(grid(page).getByRole('row').nth(2)).toContainText('14時〜16時（平日のみ）');
  expect(errors).toEqual([]);
});

test('delivery fees: 47 prefectures, a change kept after reload, bad input named by prefecture', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/deliveryfee');
  await expect(page.getByRole('heading', { level: 1, name: '都道府県別送料' })).toBeVisible();
  const table = grid(page);
  await expect(table.getByRole('row')).toHaveCount(48);
  await expect(table.getByRole('row').nth(1)).toContainText('01');
  await expect(table.getByRole('row').nth(47)).toContainText('沖縄県');
  await expect(page.getByLabel('東京都の送料')).toHaveValue('550');
  await expect(page.getByLabel('沖縄県の送料')).toHaveValue('1320');

  await page.getByLabel('東京都の送料').fill('600');
  await page.getByLabel('沖縄県の離島・遠隔地加算').fill('1800');
  await expect(page.getByText('2 件の変更')).toBeVisible();
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('東京都の送料')).toHaveValue('600');
  await expect(page.getByLabel('沖縄県の離島・遠隔地加算')).toHaveValue('1800');

  await page.getByLabel('北海道の送料').fill('-100');
  await page.getByLabel('大阪府の送料').fill('1.5');
  await page.getByLabel('京都府の送料').fill('650');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  const problem = page.getByRole('alert').filter({ hasText: '北海道：送料は0以上で入力してください。' });
  await expect(problem).toBeVisible();
  await expect(problem).toContainText('大阪府：送料は整数で入力してください。');
  await expect(page.getByLabel('北海道の送料')).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: '変更を取り消す' }).click();
  await page.reload();
  await expect(page.getByLabel('北海道の送料')).toHaveValue('880');
  await expect(page.getByLabel('京都府の送料')).toHaveValue('550');
  expect(errors).toEqual([]);
});

test('system log: the edits just made, filtered by the admin, before → after', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/log');
  await expect(page.getByRole('heading', { level: 1, name: '操作ログ一覧' })).toBeVisible();
  await openFilters(page);
  const filters = page.getByRole('region', { name: '絞り込み条件' });
  await filters.getByLabel('ユーザー', { exact: true }).selectOption({ label: '管理者' });
  await filters.getByLabel('データ', { exact: true }).selectOption({ label: '都道府県別送料' });
  const table = grid(page);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText('都道府県別送料の一括保存');
  await expect(table.getByRole('row').nth(1)).toContainText('管理者');

  await table.getByRole('row').nth(1).getByRole('button', { name: /^開く/ }).click();
  const detail = table.getByRole('table', { name: '変更内容' });
  await expect(detail.getByRole('row', { name: /離島・遠隔地加算/ })).toContainText('1,650円');
  await expect(detail.getByRole('row', { name: /離島・遠隔地加算/ })).toContainText('1,800円');
  await expect(table).toContainText('対象: 都道府県別送料「沖縄県」');

  // The list remembers its conditions under the spec's `log` list key.
  await page.reload();
  await expect(filters.getByLabel('データ', { exact: true })).toHaveValue('delivery_fee');
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('hod.list.log.')))).toContain('hod.list.log.perPage');

  await filters.getByLabel('データ', { exact: true }).selectOption({ label: 'マスタ項目' });
  await searchList(page, 'B（一般）E2E');
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('button', { name: /^開く/ }).click();
  const change = table.getByRole('table', { name: '変更内容' }).getByRole('row', { name: /名称/ });
  await expect(change).toContainText('B（標準）');
  await expect(change).toContainText('B（一般）E2E');
  expect(errors).toEqual([]);
});

test('master editor: a stale edit shows the conflict banner like every record form, and the latest is loaded into the row', async ({ page, context }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/delivery');
  await expect(grid(page)).toContainText('午前中');
  // A second tab opens the same row before the first one saves.
  const other = await context.newPage();
  await other.goto('/#/system/delivery');
  await other.getByRole('button', { name: '「午前中」を編集' }).click();
  await page.getByRole('button', { name: '「午前中」を編集' }).click();
  await page.getByLabel('「午前中」の名称').fill('午前中（8時〜12時）');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  // The second tab's stale edit is refused with the banner; the edit stays until the latest is loaded.
  await other.getByLabel('「午前中」の表示順').fill('7');
  await other.getByRole('button', { name: '保存', exact: true }).click();
  const banner = other.getByRole('status').filter({ hasText: '他のユーザーが先に更新したため保存できませんでした' });
  await expect(banner).toBeVisible();
  await expect(other.getByLabel('「午前中」の表示順')).toHaveValue('7');
  await banner.getByRole('button', { name: '最新の内容を読み込む（編集内容は破棄されます）' }).click();
  await expect(banner).toHaveCount(0);
  await expect(other.getByLabel('「午前中（8時〜12時）」の名称')).toHaveValue('午前中（8時〜12時）');
  // Now the edit carries the latest `modified`: it is saved.
  await other.getByLabel('「午前中（8時〜12時）」の表示順').fill('7');
  await other.getByRole('button', { name: '保存', exact: true }).click();
  await expect(other.getByText('保存しました。')).toBeVisible();
  await other.close();
  expect(errors).toEqual([]);
});
