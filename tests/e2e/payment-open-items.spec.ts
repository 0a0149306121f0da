/**
 * Issue 12 in the browser: on /payment/new, choosing a customer shows its 売掛残高 and the slips the payments do not
 * cover yet (oldest first); saving a payment lowers the balance the panel shows on the payment's detail.
 */
import { expect, test } from '@playwright/test';
import { formatMoney } from '../../lib/format';
import { fillField } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('choose a customer on /payment/new: balance and open slips; save a payment, the balance drops', async ({ page }) => {
  const errors = trackErrors(page);
  // A demo customer billed on its own with an unpaid balance (its recent slips, no returns) and a unique name.
  const customer = readRow<{ id: number; name: string; zan: number }>(
    `SELECT cl_id AS id, cl_co_name AS name, cl_uri_zan AS zan FROM client c WHERE deleted = 0 AND cl_co_name <> '' AND cl_uri_zan > 2000
       AND cl_parent_id IS NULL AND NOT EXISTS (SELECT 1 FROM client s WHERE s.cl_parent_id = c.cl_id)
       AND NOT EXISTS (SELECT 1 FROM sales r WHERE r.sl_cl_id = c.cl_id AND r.sl_total <= 0)
       AND (SELECT COUNT(*) FROM client o WHERE o.cl_co_name = c.cl_co_name) = 1 ORDER BY cl_id LIMIT 1`,
  );
  await page.goto('/#/payment/new');
  const panel = page.getByRole('region', { name: '売掛残高と未入金の請求・伝票' });
  await expect(panel).toContainText('顧客を選ぶと、売掛残高と未入金の請求・伝票を表示します。');
  await fillField(page, '顧客', { pick: customer.name });
  await expect(panel.getByLabel('売掛残高')).toContainText(`売掛残高: ${formatMoney(customer.zan)}`);
  const open = panel.getByRole('table', { name: '未入金の請求・伝票' });
  const rows = open.locator('tbody').getByRole('row');
  await expect(rows.first()).toBeVisible();
  const dates = await rows.locator('td:nth-child(2)').allTextContents();
  expect(dates).toEqual([...dates].sort());
  const unpaid = (await rows.locator('td:last-child').allTextContents()).reduce((sum, text) => sum + Number(text.replace(/[^0-9-]/g, '')), 0);
  expect(unpaid).toBe(Number(customer.zan));

  await fillField(page, '入金日', '2026-05-27');
  await fillField(page, '金額', '1000');
  await fillField(page, '入金区分', { select: '現金' });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(/#\/payment\/detail\/\d+$/);
  await expect(page.getByRole('region', { name: '売掛残高と未入金の請求・伝票' }).getByLabel('売掛残高')).toContainText(`売掛残高: ${formatMoney(Number(customer.zan) - 1000)}`);
  expect(Number(readRow<{ zan: number }>('SELECT cl_uri_zan AS zan FROM client WHERE cl_id = ?', customer.id).zan)).toBe(Number(customer.zan) - 1000);
  expect(errors).toEqual([]);
});
