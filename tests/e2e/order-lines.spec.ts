import { expect, test } from '@playwright/test';
import { fillField } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

/**
 * The order screen on the record controller with the one lines editor: line edits count as unsaved changes
 * (the leave guard asks), lines are reordered and saved in that order, and a stale edit offers the reload.
 */
function untreatedOrderWithLines(offset = 0): { od_id: number; lines: number } {
  return readRow<{ od_id: number; lines: number }>(`
    SELECT o.od_id, (SELECT COUNT(*) FROM order_detail d WHERE d.odd_od_id = o.od_id AND d.odd_fee = 0) AS lines FROM orders o
    JOIN client c ON c.cl_id = o.od_cl_id
    WHERE o.deleted = 0 AND o.od_status = 'untreated' AND c.cl_zei_ten IN ('2', '3')
      AND (SELECT COUNT(*) FROM order_detail d WHERE d.odd_od_id = o.od_id AND d.odd_fee = 0) = 1
    ORDER BY o.od_id LIMIT 1 OFFSET ${offset}`);
}

test('order lines: an unsaved line edit holds the leave guard; rows move and save in their new order; a stale edit offers the reload', async ({ page }) => {
  const errors = trackErrors(page);
  const order = untreatedOrderWithLines();
  await login(page);
  await page.goto(`/#/orders/detail/${order.od_id}`);
  const lines = page.getByRole('table', { name: '明細' });
  const quantity = lines.getByLabel('1行目の数量');
  await expect(quantity).not.toHaveValue('');
  const stored = await quantity.inputValue();
  // The picker shows 「ID n」 until the item's name has arrived: read it once it has.
  const firstItemBox = lines.getByRole('combobox', { name: '1行目の商品' });
  await expect(firstItemBox).not.toHaveValue(/^(ID \d+)?$/);
  const firstItem = await firstItemBox.inputValue();

  // Only a line changed: leaving asks, and staying keeps the edit.
  await quantity.fill(String(Number(stored) + 1));
  await page.getByRole('navigation', { name: 'メニュー' }).getByRole('link', { name: '受注検索' }).click();
  const guard = page.getByRole('alertdialog', { name: '保存されていない変更' });
  await expect(guard).toBeVisible();
  await guard.getByRole('button', { name: '編集を続ける' }).click();
  await expect(page).toHaveURL(new RegExp(`#/orders/detail/${order.od_id}$`));
  await expect(quantity).toHaveValue(String(Number(stored) + 1));

  // A second line, moved to the top, is saved there.
  await page.getByRole('button', { name: '＋ 明細を追加' }).click();
  await fillField(page, '2行目の商品', { pick: 'サーバーレンタル（月額）' });
  await expect(lines.getByTestId('line-2-amount')).not.toHaveText('');
  await lines.getByRole('button', { name: '2行目を上へ' }).click();
  await expect(lines.getByRole('combobox', { name: '1行目の商品' })).toHaveValue(/サーバーレンタル/);
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(lines.getByRole('combobox', { name: '1行目の商品' })).toHaveValue(/サーバーレンタル/);
  await expect(lines.getByRole('combobox', { name: '2行目の商品' })).toHaveValue(firstItem);
  await expect(lines.getByLabel('2行目の数量')).toHaveValue(String(Number(stored) + 1));
  expect(readRow<{ n: number }>(`SELECT COUNT(*) AS n FROM order_detail WHERE odd_od_id = ${order.od_id} AND odd_fee = 0`).n).toBe(2);

  // Someone else saves the order first: this screen's line edit is refused, kept, and the reload shows theirs.
  const other = await page.context().newPage();
  await other.goto(`/#/orders/detail/${order.od_id}`);
  await other.getByLabel('備考', { exact: true }).fill('別の担当者が先に保存');
  await other.getByRole('button', { name: '保存', exact: true }).click();
  await expect(other.getByText('保存しました。')).toBeVisible();
  await other.close();

  await lines.getByLabel('1行目の数量').fill('7');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  const banner = page.getByRole('status').filter({ hasText: '他のユーザーが先に更新したため保存できませんでした' });
  await expect(banner).toBeVisible();
  await expect(lines.getByLabel('1行目の数量')).toHaveValue('7');
  await banner.getByRole('button', { name: '最新の内容を読み込む（編集内容は破棄されます）' }).click();
  await expect(page.getByLabel('備考', { exact: true })).toHaveValue('別の担当者が先に保存');
  await expect(lines.getByLabel('1行目の数量')).toHaveValue('1');
  // Nothing unsaved is left: leaving asks nothing.
  await page.getByRole('navigation', { name: 'メニュー' }).getByRole('link', { name: '受注検索' }).click();
  await expect(page).toHaveURL(/#\/orders\/list\/search$/);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('order lines: a line failing the save\'s check is marked at its cell and focused when saving', async ({ page }) => {
  const errors = trackErrors(page);
  const order = untreatedOrderWithLines();
  await login(page);
  await page.goto(`/#/orders/detail/${order.od_id}`);
  const lines = page.getByRole('table', { name: '明細' });
  // The quantity's range is the save's own (lib/orders/lines), checked as it is typed.
  await lines.getByLabel('1行目の数量').fill('100000');
  await expect(lines.getByLabel('1行目の数量')).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: '明細に誤りがあります' })).toBeVisible();
  await expect(lines.getByLabel('1行目の数量')).toBeFocused();
  expect(errors).toEqual([]);
});

test('order lines: the delivery fee is a read-only line after the typed ones, follows 送料 live and is stored as the fee line', async ({ page }) => {
  const errors = trackErrors(page);
  const order = untreatedOrderWithLines(1);
  await login(page);
  await page.goto(`/#/orders/detail/${order.od_id}`);
  const lines = page.getByRole('table', { name: '明細' });
  await expect(lines.getByLabel('1行目の数量')).not.toHaveValue('');
  // A 外税 customer: the fee line is the fee, at the standard rate, with no input of its own.
  await fillField(page, '送料（税抜）', '880');
  const fee = lines.getByTestId('fixed-row-fee');
  await expect(fee).toContainText('送料');
  await expect(lines.getByTestId('fixed-fee-amount')).toHaveText('880円');
  await expect(lines.getByTestId('fixed-fee-tax_rate')).toHaveText('10%');
  await expect(fee.getByRole('textbox')).toHaveCount(0);
  await expect(lines.getByRole('row').last()).toHaveAttribute('data-testid', 'fixed-row-fee');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  const stored = readRow<{ odd_name: string; odd_price: number; odd_sort: number; last: number; total: number }>(`
    SELECT d.odd_name, d.odd_price, d.odd_sort, (SELECT MAX(odd_sort) FROM order_detail WHERE odd_od_id = d.odd_od_id) AS last, o.od_uriage_total AS total
    FROM order_detail d JOIN orders o ON o.od_id = d.odd_od_id WHERE d.odd_od_id = ${order.od_id} AND d.odd_fee = 1`);
  expect([stored.odd_name, stored.odd_price, stored.odd_sort]).toEqual(['送料', 880, stored.last]);
  await expect(page.getByTestId('grand-total')).toHaveText(`${stored.total.toLocaleString('ja-JP')}円`);

  // No fee, no fee line.
  await fillField(page, '送料（税抜）', '0');
  await expect(lines.getByTestId('fixed-row-fee')).toHaveCount(0);
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  // The earlier save's notice may still be on screen: wait for this save's row, not for the notice alone.
  await expect.poll(() => readRow<{ n: number }>(`SELECT COUNT(*) AS n FROM order_detail WHERE odd_od_id = ${order.od_id} AND odd_fee = 1`).n).toBe(0);
  expect(errors).toEqual([]);
});
