/**
 * 配送実績 and 配送売上: a round entered, found, edited and deleted (the one CRUD walk-through); a
 * delivery result entered on a round's 訪問先 moving the customer's bottle balance on the customer
 * detail; the /hod/uriage screen showing the period's totals by customer with the grand total.
 */
import { expect, test } from '@playwright/test';
import { crudRoundTrip, fillField } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

const unique = `E2E${Date.now().toString().slice(-6)}`;
const yen = (n: number) => `${n.toLocaleString('ja-JP')}円`;

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('round: create → find → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  const detailPath = await crudRoundTrip(page, {
    newPath: '/hod/report/new',
    listPath: '/hod/report/',
    fill: [['配送日', '2026-10-01'], ['チーム', '東ルート班'], ['車両・ルート', `${unique}便`]],
    keyword: `${unique}便`,
    edit: ['備考', `${unique} 雨天`],
  });
  expect(detailPath).toMatch(/^\/hod\/report\/\d+$/);
  expect(errors).toEqual([]);
});

test('a delivery result moves the customer\'s bottle balance; the uriage screen shows it with the totals', async ({ page }) => {
  const errors = trackErrors(page);
  // A customer without bottle movements and a returnable item.
  const customer = readRow<{ cl_id: number; label: string }>(
    `SELECT cl_id, cl_co_name AS label FROM client WHERE deleted = 0 AND cl_co_name <> ''
       AND cl_id NOT IN (SELECT bt_cl_id FROM bottle) ORDER BY cl_id LIMIT 1`,
  );
  const item = readRow<{ it_id: number; name: string }>(`SELECT it_id, it_name AS name FROM item WHERE deleted = 0 AND it_returnable = 1 ORDER BY it_id LIMIT 1`);
  const date = '2026-10-15';

  await page.goto('/#/hod/report/new');
  await fillField(page, '配送日', date);
  await fillField(page, '車両・ルート', `${unique}実績便`);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(/\/hod\/report\/\d+$/);

  const stops = page.getByRole('table', { name: '訪問先' });
  await fillField(page, '1件目の顧客', { pick: customer.label });
  await fillField(page, '1件目のボトル', { pick: item.name });
  await stops.getByLabel('1件目のお届け本数').fill('3');
  await stops.getByLabel('1件目の回収本数').fill('0');
  await stops.getByLabel('1件目の集金額').fill('3888');
  // The stops are saved with the round, by its one 保存.
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page.getByLabel('お届け本数計', { exact: true })).toHaveValue('3');

  await page.goto(`/#/client/detail/${customer.cl_id}`);
  await expect(page.getByLabel('預けボトル')).toContainText(`預けボトル（${item.name}）: 3本`);

  // Collecting more than the customer holds is refused, naming the customer.
  await page.goBack();
  await expect(page.getByRole('table', { name: '訪問先' })).toBeVisible();
  await stops.getByLabel('1件目の回収本数').fill('9');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: customer.label })).toContainText('預け本数');

  const expected = readRow<{ total: number }>(
    `SELECT COALESCE(SUM(od_uriage_total), 0) AS total FROM orders WHERE deleted = 0 AND od_status IN ('shipped', 'processed')
       AND od_delivery_date BETWEEN '2026-10-01' AND '2026-10-31'`,
  );
  // The refused stop is still unsaved on the round's form: leaving asks first.
  await page.goto('/#/hod/uriage');
  await page.getByRole('alertdialog').getByRole('button', { name: 'このページを離れる' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('配送売上');
  await page.getByLabel('開始日').fill('2026-10-01');
  await page.getByLabel('終了日').fill('2026-10-31');
  await page.getByLabel('集計単位').selectOption({ label: '顧客別' });
  await page.getByRole('button', { name: '集計' }).click();
  const table = page.getByRole('table', { name: /配送売上/ });
  await expect(table).toContainText('2026');
  await expect(table.getByRole('row').filter({ hasText: customer.label })).toContainText('3本');
  const totalRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '合計' }) });
  await expect(totalRow).toContainText(yen(expected.total));
  await expect(totalRow).toContainText('3,888円');
  expect(errors).toEqual([]);
});
