import { expect, test, type Page } from '@playwright/test';
import { KEYS } from '../../lib/storage-keys';
import { crudRoundTrip, fillField } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

/**
 * A demo customer the order can be shipped for: standard prices, no credit-limit problem, and a
 * shipping warehouse holding enough 天然水 12L（リターナブル）.
 */
function shippableCustomer(): { cl_co_name: string } {
  return readRow<{ cl_co_name: string }>(`
    SELECT c.cl_co_name FROM client c
    JOIN stock s ON s.st_sk_id = CAST(c.cl_sk_id AS INTEGER)
    JOIN item i ON i.it_id = s.st_it_id
    WHERE c.deleted = 0 AND c.cl_co_name <> '' AND c.cl_sk_id <> ''
      AND (c.cl_tanka_type IS NULL OR c.cl_tanka_type IN ('', '1'))
      AND (c.cl_yoshin_gendo IS NULL OR c.cl_yoshin_gendo = 0 OR c.cl_yoshin_gendo - COALESCE(c.cl_uri_zan, 0) > 100000)
      AND i.it_code = 'W12R' AND s.st_quantity >= 2
      AND (SELECT COUNT(*) FROM client d WHERE d.cl_co_name = c.cl_co_name AND d.deleted = 0) = 1
    ORDER BY c.cl_id LIMIT 1`);
}

async function moveTo(page: Page, status: string): Promise<void> {
  await page.getByRole('button', { name: `「${status}」にする` }).click();
  if (status === '保留') {
    const dialog = page.getByRole('dialog', { name: '保留にする' });
    await dialog.getByLabel('保留理由').fill('お客様の確認待ち');
    await dialog.getByRole('button', { name: '保留にする' }).click();
  }
  await expect(page.getByTestId('order-status')).toHaveText(status);
}

test('order: enter lines of two tax rates, see the totals per rate, move it through every status to processed', async ({ page }) => {
  const errors = trackErrors(page);
  const customer = shippableCustomer();
  await login(page);
  await page.goto('/#/orders/new');
  await expect(page.getByRole('heading', { name: '受注登録' })).toBeVisible();
  await fillField(page, '顧客', { pick: customer.cl_co_name });
  await expect(page.getByTestId('last-order')).toContainText('前回の受注');
  await fillField(page, '送料（税抜）', '0');

  await fillField(page, '1行目の商品', { pick: '天然水 12L（リターナブル）' });
  await page.getByLabel('1行目の数量').fill('2');
  await page.getByRole('button', { name: '＋ 明細を追加' }).click();
  await fillField(page, '2行目の商品', { pick: 'サーバーレンタル（月額）' });
  // 8%: 1,300 × 2 = 2,600 → 208; 10%: 1,100 → 110.
  await expect(page.getByTestId('rate-8')).toContainText('2,600円（税 208円）');
  await expect(page.getByTestId('rate-10')).toContainText('1,100円（税 110円）');
  await expect(page.getByTestId('grand-total')).toHaveText('4,018円');

  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/orders\/detail\/\d+$/);
  await expect(page.getByTestId('order-status')).toHaveText('未処理');
  await expect(page.getByTestId('grand-total')).toHaveText('4,018円');
  await expect(page.getByRole('combobox', { name: '1行目の商品' })).toHaveValue(/天然水 12L/);

  await moveTo(page, '保留');
  await moveTo(page, '出荷待ち');
  await page.getByRole('button', { name: '「出荷済」にする' }).click();
  await expect(page.getByRole('alert').first()).toContainText('送り状番号');
  await expect(page.getByTestId('order-status')).toHaveText('出荷待ち');
  await fillField(page, '送り状番号', '4321-0000-1115');
  await moveTo(page, '出荷済');
  await moveTo(page, '処理済');
  // 処理済 goes back only to 出荷済 (its sales slip deleted).
  await expect(page.getByRole('button', { name: /にする$/ })).toHaveCount(1);
  await expect(page.getByRole('button', { name: '「出荷済」にする' })).toBeVisible();

  const number = (await page.getByRole('heading', { level: 1 }).textContent())?.match(/OD\d{8}-\d+/)?.[0] ?? '';
  expect(number).not.toBe('');

  // 複製: a new order with the same customer and lines.
  const original = page.url();
  await page.getByRole('link', { name: '複製' }).click();
  await expect(page.getByRole('heading', { name: '受注登録（複製）' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '2行目の商品' })).toHaveValue(/サーバーレンタル/);
  await expect(page.getByTestId('grand-total')).toHaveText('4,018円');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/orders\/detail\/\d+$/);
  expect(page.url()).not.toBe(original);
  await expect(page.getByTestId('order-status')).toHaveText('未処理');
  await expect(page.getByRole('combobox', { name: '顧客' })).toHaveValue(customer.cl_co_name);
  await expect(page.getByTestId('grand-total')).toHaveText('4,018円');
  await page.goto('/#/orders/list/processed');
  await expect(page.getByRole('heading', { name: '受注一覧（処理済）' })).toBeVisible();
  await page.getByLabel('キーワード').first().fill(number);
  await page.getByLabel('キーワード').first().press('Enter');
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: number })).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('order lists: selected untreated orders move to the next status in bulk', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/orders/list/untreated');
  await expect(page.getByRole('heading', { name: '受注一覧（未処理）' })).toBeVisible();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1).getByRole('checkbox')).toBeVisible();
  const first = (await rows.nth(1).getByRole('link').first().textContent()) ?? '';
  await rows.nth(1).getByRole('checkbox').check();
  await expect(page.getByText('1 件選択中')).toBeVisible();
  await page.getByRole('button', { name: /次の状態へ/ }).click();
  await expect(page.getByRole('status').filter({ hasText: /件を「出荷待ち」にしました|変更できませんでした/ })).toBeVisible();
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: first })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('order: create → find → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  const unique = `E2E${Date.now().toString().slice(-6)}`;
  await login(page);
  await crudRoundTrip(page, {
    newPath: '/orders/new',
    listPath: '/orders/list/search',
    fill: [['顧客', { pick: shippableCustomer().cl_co_name }], ['備考', `${unique}電話注文`]],
    keyword: `${unique}電話注文`,
    edit: ['備考', `${unique}電話注文（午前希望）`],
  });
  expect(errors).toEqual([]);
});

test('order search: the 詳細検索 box remembers being opened and closed under the spec’s detail-search key', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/orders/list/search');
  await expect(page.getByRole('heading', { name: '受注検索' })).toBeVisible();
  const toggle = page.getByRole('button', { name: /詳細検索/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(await page.evaluate((key) => localStorage.getItem(key), KEYS.detailSearchOpen)).toBe('true');
  await page.reload();
  await expect(page.getByRole('button', { name: /詳細検索/ })).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('button', { name: /詳細検索/ }).click();
  expect(await page.evaluate((key) => localStorage.getItem(key), KEYS.detailSearchOpen)).toBe('false');
  await page.reload();
  await expect(page.getByRole('button', { name: /詳細検索/ })).toHaveAttribute('aria-expanded', 'false');
  expect(errors).toEqual([]);
});

test('order settings: the same-day cut-off is checked and saved', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/orders');
  const cutoff = page.getByLabel('当日出荷の締め時刻', { exact: true });
  await expect(cutoff).toHaveValue('12:00');
  await expect(page.getByLabel('受注番号の形式', { exact: true })).toHaveValue('OD{yyyy}{mm}{dd}-{id:6}');
  await cutoff.fill('25:00');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('締め時刻は 00:00〜24:00 の「時:分」で入力してください。')).toBeVisible();
  await cutoff.fill('15:30');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('当日出荷の締め時刻', { exact: true })).toHaveValue('15:30');
  expect(errors).toEqual([]);
});
