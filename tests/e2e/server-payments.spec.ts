/**
 * Issue 12 in the browser: a server installed at a customer and then exchanged from the customer's サーバー tab
 * (設置・交換 dialogs), the history on the サーバー履歴 tab; a payment entered from the customer's 入金 tab and
 * found on /payment/list with its total.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fillField, searchList } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

const unique = `E2E${Date.now().toString().slice(-6)}`;

test.beforeEach(async ({ page }) => {
  await login(page);
});

/** Chooses the server with this serial number in a dialog's picker (narrowed by its keyword first). */
async function chooseServer(dialog: Locator, label: string, serial: string, narrow = true): Promise<void> {
  if (narrow) await dialog.getByLabel('在庫サーバーの絞り込み').fill(serial);
  const select = dialog.getByLabel(label, { exact: true });
  const option = select.locator('option', { hasText: serial });
  await expect(option).toHaveCount(1);
  await select.selectOption(await option.getAttribute('value') ?? '');
}

async function openTab(page: Page, name: RegExp): Promise<Locator> {
  const related = page.getByRole('region', { name: '関連情報' });
  await related.getByRole('tab', { name }).click();
  return related;
}

test('install a server from the customer\'s サーバー tab, then exchange it; the history shows both', async ({ page }) => {
  const errors = trackErrors(page);
  // A customer with a live agreement and no server yet, and two servers in stock.
  const customer = readRow<{ id: number }>(
    `SELECT ag_cl_id AS id FROM agreement a WHERE deleted = 0 AND ag_status = '1'
       AND NOT EXISTS (SELECT 1 FROM water_server s WHERE s.sv_cl_id = a.ag_cl_id AND s.deleted = 0) ORDER BY ag_cl_id LIMIT 1`,
  );
  const first = readRow<{ serial: string }>(`SELECT sv_serial_no AS serial FROM water_server WHERE deleted = 0 AND sv_status = 'stock' ORDER BY sv_serial_no LIMIT 1`);
  const second = readRow<{ serial: string }>(`SELECT sv_serial_no AS serial FROM water_server WHERE deleted = 0 AND sv_status = 'stock' ORDER BY sv_serial_no DESC LIMIT 1`);

  await page.goto(`/#/client/detail/${customer.id}`);
  let related = await openTab(page, /^サーバー（0）$/);
  await related.getByRole('button', { name: '設置', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: 'サーバーの設置' });
  await chooseServer(dialog, '設置するサーバー', first.serial);
  await dialog.getByLabel('設置日').fill('2026-04-01');
  await dialog.getByRole('button', { name: '設置する' }).click();
  await expect(page.getByText(`サーバー ${first.serial} を設置しました（設置中）。`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(related.getByRole('tab', { name: /^サーバー（1）$/ })).toBeVisible();
  await expect(related.getByRole('table').getByRole('row', { name: new RegExp(first.serial) })).toContainText('設置中');

  await related.getByRole('button', { name: '交換', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'サーバーの交換' });
  await chooseServer(dialog, '交換する（引上げる）サーバー', first.serial, false);
  await chooseServer(dialog, '新しく設置するサーバー', second.serial);
  await dialog.getByLabel('交換日').fill('2026-04-20');
  await dialog.getByRole('button', { name: '交換する' }).click();
  await expect(page.getByText(`サーバー ${second.serial} を交換しました（設置中）。`)).toBeVisible();
  const servers = related.getByRole('table');
  await expect(servers.getByRole('row', { name: new RegExp(second.serial) })).toBeVisible();
  await expect(servers.getByRole('row', { name: new RegExp(first.serial) })).toHaveCount(0);

  related = await openTab(page, /^サーバー履歴/);
  const history = related.getByRole('table');
  await expect(history.locator('tbody').getByRole('row')).toHaveCount(3);
  await expect(history.getByRole('row', { name: /交換（引上げ）/ })).toContainText(first.serial);
  await expect(history.getByRole('row', { name: /交換（設置）/ })).toContainText(second.serial);
  await expect(history.getByRole('row', { name: /2026-04-01/ })).toContainText('設置');

  // A refusal is shown in the dialog and changes nothing: the installed server cannot be installed twice.
  related = await openTab(page, /^サーバー（1）$/);
  await related.getByRole('button', { name: '引上げ', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'サーバーの引上げ' });
  await chooseServer(dialog, '引上げるサーバー', second.serial, false);
  await dialog.getByLabel('引上げ日').fill('2026-04-10');
  await dialog.getByLabel('保管倉庫').selectOption({ index: 1 });
  await dialog.getByRole('button', { name: '引上げする' }).click();
  await expect(dialog.getByRole('alert')).toContainText('引上げ日（2026-04-10）は製造番号');
  await dialog.getByRole('button', { name: '閉じる' }).click();
  await expect(related.getByRole('tab', { name: /^サーバー（1）$/ })).toBeVisible();
  expect(errors).toEqual([]);
});

test('enter a payment from the customer\'s 入金 tab; /payment/list finds it with its total', async ({ page }) => {
  const errors = trackErrors(page);
  const customer = readRow<{ id: number; name: string }>(`SELECT cl_id AS id, cl_co_name AS name FROM client WHERE deleted = 0 AND cl_co_name <> '' ORDER BY cl_id DESC LIMIT 1`);
  await page.goto(`/#/client/detail/${customer.id}`);
  const related = await openTab(page, /^入金/);
  await related.getByRole('link', { name: '入金を登録' }).click();
  await expect(page).toHaveURL(new RegExp(`#/client/detail/${customer.id}/payment/new$`));
  await fillField(page, '入金日', '2026-05-27');
  await fillField(page, '金額', '0');
  await fillField(page, '入金区分', { select: '振込' });
  await fillField(page, '銀行', { select: 'みずほ銀行' });
  await fillField(page, '備考', `${unique} 5月分`);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('金額に0円は入力できません。').first()).toBeVisible();
  await fillField(page, '金額', '１２，３４０');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  await page.goto('/#/payment/list');
  await searchList(page, unique);
  const table = page.getByRole('table');
  await expect(table.locator('tbody').getByRole('row')).toHaveCount(1);
  const row = table.locator('tbody').getByRole('row').first();
  await expect(row).toContainText('2026-05-27');
  await expect(row).toContainText(customer.name);
  await expect(row).toContainText('振込');
  await expect(row).toContainText('みずほ銀行');
  await expect(row).toContainText('12,340円');
  await expect(table.locator('tfoot')).toContainText('12,340円');
  expect(errors).toEqual([]);
});
