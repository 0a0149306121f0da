/**
 * Regular delivery (HOD): a pause entered, found, edited and deleted under a customer (the one CRUD
 * walk-through), and the preview screen /orders/hod showing a scheduled customer's delivery and a
 * one-off skip entered from the customer's 休配・スキップ tab.
 */
import { expect, test } from '@playwright/test';
import { crudRoundTrip, fillForm } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

const unique = `E2E${Date.now().toString().slice(-6)}`;

interface Scheduled {
  cl_id: number;
  label: string;
  anchor: string;
}

/** A demo customer with a monthly (date) schedule whose next delivery day is a business day (no holiday move). */
const scheduledCustomer = (): Scheduled =>
  readRow<Scheduled>(
    `SELECT cl_id, COALESCE(NULLIF(cl_co_name, ''), cl_name) AS label, cl_next_shipping_date AS anchor FROM client
     WHERE deleted = 0 AND cl_haiso_flag = 1 AND cl_haiso_type = '2' AND cl_next_shipping_date <> ''
       AND strftime('%w', cl_next_shipping_date) <> '0' AND cl_next_shipping_date NOT IN ('2026-11-23', '2027-01-01')
     ORDER BY cl_id LIMIT 1`,
  );

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('pause under a customer: create → find in the customer tab → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  const { cl_id } = scheduledCustomer();
  const clientPath = `/client/detail/${cl_id}`;
  const detailPath = await crudRoundTrip(page, {
    newPath: `${clientPath}/hodpause/new`,
    listPath: clientPath,
    listTab: '休配・スキップ',
    fill: [['種別', { select: '休止期間' }], ['開始日', '2026-12-28'], ['終了日', '2027-01-05'], ['理由', `${unique}年末年始`]],
    keyword: `${unique}年末年始`,
    edit: ['理由', `${unique}帰省`],
  });
  expect(detailPath).toMatch(new RegExp(`^${clientPath}/hodpause/\\d+$`));
  expect(errors).toEqual([]);
});

test('a pause ending before it starts is refused on the form', async ({ page }) => {
  const { cl_id } = scheduledCustomer();
  await page.goto(`/#/client/detail/${cl_id}/hodpause/new`);
  await fillForm(page, [['開始日', '2026-12-10'], ['終了日', '2026-12-01']]);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('終了日は開始日以降の日付を入力してください。').first()).toBeVisible();
  await expect(page).toHaveURL(/\/hodpause\/new$/);
});

test('preview: a scheduled customer is due on their day; a skip entered on the customer shows as スキップ', async ({ page }) => {
  const errors = trackErrors(page);
  const customer = scheduledCustomer();
  const showRange = async () => {
    await page.goto('/#/orders/hod');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('定期配送の受注生成');
    await page.getByLabel('開始日').fill(customer.anchor);
    await page.getByLabel('終了日').fill(customer.anchor);
    await page.getByRole('button', { name: '表示' }).click();
    await expect(page.getByRole('definition').first()).toContainText(customer.anchor.slice(0, 4));
    return page.getByRole('table', { name: '定期配送の予定' }).getByRole('row').filter({ hasText: customer.label });
  };

  const row = await showRange();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('配送');
  await expect(page.getByLabel('集計')).toContainText('定期配送の顧客');

  await page.goto(`/#/client/detail/${customer.cl_id}/hodpause/new`);
  await fillForm(page, [['種別', { select: 'スキップ' }], ['開始日', customer.anchor], ['終了日', ''], ['理由', `${unique}不在`]]);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page.getByLabel('終了日', { exact: true })).toHaveValue(customer.anchor);

  const skipped = await showRange();
  await expect(skipped).toHaveCount(1);
  await expect(skipped).toContainText('スキップ');
  await expect(skipped).toContainText(`スキップ（${unique}不在）`);
  expect(errors).toEqual([]);
});
