import { expect, test } from '@playwright/test';
import { fillField } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

/** A demo customer with standard prices and tax added to them (外税), so the expected totals are plain. */
function gaizeiCustomer(): { cl_id: number; cl_co_name: string } {
  return readRow<{ cl_id: number; cl_co_name: string }>(`
    SELECT c.cl_id, c.cl_co_name FROM client c
    WHERE c.deleted = 0 AND c.cl_co_name <> '' AND COALESCE(c.cl_zei_ten, '') IN ('', '2', '3')
      AND (c.cl_tanka_type IS NULL OR c.cl_tanka_type IN ('', '1'))
      AND (SELECT COUNT(*) FROM client d WHERE d.cl_co_name = c.cl_co_name AND d.deleted = 0) = 1
    ORDER BY c.cl_id LIMIT 1`);
}

test('sales slip: an item fills its name, price and class, each line and the totals per rate show live as on the order form; saved, the same totals and the customer\'s 売掛', async ({ page }) => {
  const errors = trackErrors(page);
  const customer = gaizeiCustomer();
  await login(page);
  await page.goto('/#/sales/new');
  await expect(page.getByRole('heading', { name: '売上伝票登録' })).toBeVisible();
  await fillField(page, '顧客', { pick: customer.cl_co_name });
  const lines = page.getByRole('table', { name: '明細' });
  await fillField(page, '1行目の商品', { pick: '天然水 12L（リターナブル）' });
  await lines.getByLabel('1行目の数量').fill('2');
  // Live, before 保存: the item's name, the customer's unit price and the item's class fill what the line leaves empty.
  await expect(lines.getByLabel('1行目の品名')).toHaveAttribute('placeholder', '天然水 12L（リターナブル）');
  await expect(lines.getByLabel('1行目の単価')).toHaveAttribute('placeholder', '1300');
  await expect(lines.getByLabel('1行目の税区分').locator('option').first()).toHaveText('軽減税率（商品の税区分）');
  await expect(page.getByTestId('line-1-amount')).toHaveText('2,600円');
  await expect(page.getByTestId('line-1-tax_rate')).toHaveText('8%');
  await expect(page.getByTestId('rate-8')).toContainText('2,600円（税 208円）');
  await page.getByRole('button', { name: '＋ 明細を追加' }).click();
  await fillField(page, '2行目の商品', { pick: 'サーバーレンタル（月額）' });
  await lines.getByLabel('2行目の数量').fill('1');
  await page.getByRole('button', { name: '＋ 明細を追加' }).click();
  await fillField(page, '3行目の商品', { pick: '天然水 12L（リターナブル）' });
  await lines.getByLabel('3行目の数量').fill('-1');
  await lines.getByLabel('3行目の品名').fill('返品 天然水');
  await expect(page.getByTestId('line-3-amount')).toHaveText('-1,300円');
  await expect(page.getByTestId('rate-10')).toContainText('1,100円（税 110円）');
  await expect(page.getByTestId('rate-8')).toContainText('1,300円（税 104円）');
  await expect(page.getByTestId('grand-total')).toHaveText('2,614円');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/sales\/detail\/\d+$/);

  // 8%: 1,300 × 2 − 1,300 = 1,300 → 104; 10%: 1,100 → 110.
  await expect(page.getByTestId('line-3-amount')).toHaveText('-1,300円');
  await expect(page.getByTestId('line-2-tax_rate')).toHaveText('10%');
  await expect(page.getByLabel('税抜金額', { exact: true })).toHaveValue('2,400円');
  await expect(page.getByLabel('消費税', { exact: true })).toHaveValue('214円');
  await expect(page.getByLabel('合計金額', { exact: true })).toHaveValue('2,614円');
  await expect(page.getByLabel('税率ごとの合計', { exact: true })).toHaveValue('10%対象 1,100円（消費税 110円）／8%対象（軽減税率） 1,300円（消費税 104円）');

  await page.goto(`/#/client/detail/${customer.cl_id}`);
  await expect(page.getByLabel('売掛')).toContainText('売掛残高');
  expect(errors).toEqual([]);
});

test('a long detail page scrolls under a header and a side menu that stay in place, however it is scrolled', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto(`/#/client/detail/${gaizeiCustomer().cl_id}`);
  await expect(page.getByRole('heading', { name: '顧客詳細' })).toBeVisible();
  const header = page.locator('header').first();
  const menu = page.getByRole('navigation', { name: 'メニュー' });
  const main = page.locator('#main');
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(await page.evaluate(() => window.innerHeight));
  // The wheel over the header, over the content, and the End key inside the content.
  await page.mouse.move(640, 20);
  await page.mouse.wheel(0, 3000);
  await page.mouse.move(900, 400);
  await page.mouse.wheel(0, 3000);
  await main.focus();
  await page.keyboard.press('End');
  await expect.poll(() => main.evaluate((el) => (el.parentElement as HTMLElement).scrollTop)).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect((await header.boundingBox())?.y).toBe(0);
  expect((await menu.boundingBox())?.y).toBe((await header.boundingBox())?.height);
  expect(errors).toEqual([]);
});
