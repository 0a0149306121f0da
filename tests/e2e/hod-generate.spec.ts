/**
 * 定期配送の受注生成 → 配送リスト: a week of regular deliveries generated on /orders/hod (「受注を作成」, a job whose
 * progress bar reaches 100 % with the result), then found on /hod/list by company name, the filters remembered after
 * a reload, and the route sheet printed without the shell. A run someone else started shows on opening the screen,
 * its bar following the job until its result.
 */
import { expect, test } from '@playwright/test';
import { addDays } from '../../lib/format';
import { readRow, writeJob } from './db';
import { login, trackErrors } from './fixtures';

interface Weekly {
  cl_id: number;
  label: string;
  anchor: string;
}

/** A demo customer delivered every week, without pauses or skips, whose next delivery has no order yet. */
const weeklyCustomer = (): Weekly =>
  readRow<Weekly>(
    `SELECT cl_id, COALESCE(NULLIF(cl_co_name, ''), cl_name) AS label, cl_next_shipping_date AS anchor FROM client c
     WHERE deleted = 0 AND cl_haiso_flag = 1 AND cl_haiso_type = '1' AND cl_haiso_wks = 1 AND cl_haiso_num > 0
       AND cl_next_shipping_date <> '' AND cl_co_name <> ''
       AND NOT EXISTS (SELECT 1 FROM hod_pause p WHERE p.hp_cl_id = c.cl_id AND p.deleted = 0)
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.od_cl_id = c.cl_id AND o.od_hod_date >= c.cl_next_shipping_date)
     ORDER BY cl_id LIMIT 1`,
  );

test('generate a week of regular deliveries and see them in the delivery list, filters remembered', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  await login(page);
  const customer = weeklyCustomer();
  const from = customer.anchor;
  const to = addDays(from, 6);

  await page.goto('/#/orders/hod');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('定期配送の受注生成');
  await page.getByLabel('開始日').fill(from);
  await page.getByLabel('終了日').fill(to);
  await page.getByRole('button', { name: '表示' }).click();
  const previewRow = page.getByRole('table', { name: '定期配送の予定' }).getByRole('row').filter({ hasText: customer.label });
  await expect(previewRow.first()).toContainText('配送');
  await page.getByRole('button', { name: '受注を作成' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '受注を作成' }).click();
  const progress = page.getByRole('progressbar', { name: '定期配送の受注作成の進み具合' });
  await expect(progress).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
  const card = page.getByRole('status', { name: '定期配送の受注作成' });
  await expect(card).toContainText(/受注を作成しました（.*・作成 [1-9]\d*件/);
  await expect(card).toContainText(/(\d+) \/ \1件（100%）/);

  const order = readRow<{ od_id: number; od_delivery_date: string; od_number: string; od_status: string }>(
    `SELECT od_id, od_delivery_date, od_number, od_status FROM orders WHERE deleted = 0 AND od_cl_id = ? AND od_hod_date >= ? AND od_hod_date <= ?`,
    customer.cl_id, from, to,
  );
  expect(['untreated', 'pending']).toContain(order.od_status);

  // The week's schedules now start after it: nothing left to create (a second run is refused nothing, API-tested).
  await expect(page.getByRole('button', { name: '受注を作成' })).toBeDisabled();
  expect(readRow<{ n: number }>(`SELECT COUNT(*) AS n FROM orders WHERE deleted = 0 AND od_cl_id = ? AND od_hod_date >= ? AND od_hod_date <= ?`, customer.cl_id, from, to).n).toBe(1);

  await page.goto('/#/hod/list');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('配送リスト');
  const filters = page.getByRole('form', { name: '絞り込み' });
  await filters.getByLabel('開始日').fill(from);
  await filters.getByLabel('終了日').fill(addDays(to, 7));
  await filters.getByLabel('会社名').fill(customer.label);
  await filters.getByRole('button', { name: '表示' }).click();
  const stop = page.getByRole('row').filter({ hasText: order.od_number });
  await expect(stop).toContainText(customer.label);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();

  await page.reload();
  await expect(page.getByRole('form', { name: '絞り込み' }).getByLabel('会社名')).toHaveValue(customer.label);
  await expect(page.getByRole('form', { name: '絞り込み' }).getByLabel('開始日')).toHaveValue(from);
  await expect(page.getByRole('row').filter({ hasText: order.od_number })).toContainText(customer.label);

  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header').first()).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'メニュー' })).toBeHidden();
  await expect(page.getByRole('button', { name: '印刷' })).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: order.od_number })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a run started elsewhere shows on opening the screen, its bar following the job to its result', async ({ page }) => {
  const errors = trackErrors(page);
  const now = new Date().toISOString();
  // Another user's run on another host, a third of the way (its heartbeat fresh: a live server runs it).
  const id = writeJob(
    `INSERT INTO job (job_kind, job_scope, job_params, job_usr_id, job_usr_name, job_state, job_done, job_total, job_started, job_host, job_pid, job_beat, created, modified, deleted)
     VALUES ('hod_generate', '2031-01-01..2031-01-31', '{}', 1, '別拠点 花子', 'running', 1000, 3000, ?, 'elsewhere', 1, ?, ?, ?, 0)`,
    now, now, now, now,
  );
  try {
    await login(page);
    await page.goto('/#/orders/hod');
    const card = page.getByRole('status', { name: '定期配送の受注作成' });
    await expect(card).toContainText('別拠点 花子さんが');
    await expect(card).toContainText('1,000 / 3,000件（33%）');
    const progress = page.getByRole('progressbar', { name: '定期配送の受注作成の進み具合' });
    await expect(progress).toHaveAttribute('aria-valuenow', '33');
    writeJob('UPDATE job SET job_done = 2400 WHERE job_id = ?', id);
    await expect(progress).toHaveAttribute('aria-valuenow', '80');
    const result = { from: '2031-01-01', to: '2031-01-31', created: 3000, existed: 0, held: 2, skipped: 5, advanced: 40, orders: [] };
    writeJob(`UPDATE job SET job_state = 'done', job_done = 3000, job_result = ?, job_finished = ? WHERE job_id = ?`, JSON.stringify(result), new Date().toISOString(), id);
    await expect(progress).toHaveAttribute('aria-valuenow', '100');
    await expect(card).toContainText('受注を作成しました（2031年1月1日（水）〜2031年1月31日（金）・作成 3000件・うち保留 2件・作成済み 0件）。');
    expect(errors).toEqual([]);
  } finally {
    writeJob(`UPDATE job SET job_state = 'done' WHERE job_id = ? AND job_state = 'running'`, id);
  }
});
