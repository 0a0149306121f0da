/**
 * Orders in daily use (issue 10), in real Chromium against the real server and the demo company:
 * live totals of typed quantities (full-width, invalid) and of the prefecture's delivery fee before
 * saving, 「前回の受注」, order numbers instead of ids, the settings form of /system/orders, the status
 * lists without a 状態 filter, the not-found screen of every detail route, and the status buttons
 * (unsaved changes saved first, every missing field at once, 保留 with its reason, own drivers without
 * a tracking number).
 */
import { expect, test, type Page } from '@playwright/test';
import { fillPath, ROUTES } from '../../lib/routes';
import { fillField, openFilters, searchList } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

/**
 * A demo customer with standard prices, no credit-limit problem, a warehouse holding 天然水 12L and a
 * unique name; `own` picks one whose orders the company's own driver delivers (a 配送担当者), else one
 * whose orders go by carrier.
 */
function customer(own: boolean): { cl_id: number; cl_co_name: string; pref: string } {
  return readRow<{ cl_id: number; cl_co_name: string; pref: string }>(`
    SELECT c.cl_id, c.cl_co_name,
      CASE WHEN COALESCE(c.cl_shipping_address, '') <> '' OR COALESCE(c.cl_shipping_pref, '') <> '' OR COALESCE(c.cl_shipping_city, '') <> '' THEN c.cl_shipping_pref ELSE c.cl_pref END AS pref
    FROM client c
    JOIN stock s ON s.st_sk_id = CAST(c.cl_sk_id AS INTEGER)
    JOIN item i ON i.it_id = s.st_it_id
    WHERE c.deleted = 0 AND c.cl_co_name <> '' AND c.cl_sk_id <> ''
      AND (c.cl_tanka_type IS NULL OR c.cl_tanka_type IN ('', '1'))
      AND (c.cl_zei_kiri IS NULL OR c.cl_zei_kiri IN ('', '0'))
      AND (c.cl_yoshin_gendo IS NULL OR c.cl_yoshin_gendo = 0 OR c.cl_yoshin_gendo - COALESCE(c.cl_uri_zan, 0) > 100000)
      AND i.it_code = 'W12R' AND s.st_quantity >= 5
      AND ${own ? 'c.cl_delivery_usr_id > 0' : '(c.cl_delivery_usr_id IS NULL OR c.cl_delivery_usr_id = 0)'}
      AND (SELECT COUNT(*) FROM client d WHERE d.cl_co_name = c.cl_co_name AND d.deleted = 0) = 1
    ORDER BY c.cl_id LIMIT 1`);
}

const total = (page: Page) => page.getByTestId('grand-total');

/** Opens a new order for a customer with one line of 天然水 12L (1,300円, 8%). */
async function newOrder(page: Page, name: string, fee: string | null = '0'): Promise<void> {
  await page.goto('/#/orders/new');
  await expect(page.getByRole('heading', { name: '受注登録' })).toBeVisible();
  await fillField(page, '顧客', { pick: name });
  if (fee !== null) await fillField(page, '送料（税抜）', fee);
  await fillField(page, '1行目の商品', { pick: '天然水 12L（リターナブル）' });
}

/** Saves a new order; answers its number (from the heading). */
async function saveNew(page: Page): Promise<string> {
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page).toHaveURL(/#\/orders\/detail\/\d+$/);
  await expect(page.getByTestId('order-status')).toHaveText('未処理');
  const number = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').match(/OD\d{8}-\d+/)?.[0] ?? '';
  expect(number).not.toBe('');
  return number;
}

async function moveTo(page: Page, status: string): Promise<void> {
  await page.getByRole('button', { name: `「${status}」にする` }).click();
  await expect(page.getByTestId('order-status')).toHaveText(status);
}

test('order form: full-width and invalid quantities count (or are marked) before saving, the same as the save', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await newOrder(page, customer(false).cl_co_name);
  const quantity = page.getByLabel('1行目の数量');
  await quantity.fill('２');
  await expect(page.getByTestId('rate-8')).toContainText('2,600円（税 208円）');
  await expect(total(page)).toHaveText('2,808円');

  await quantity.fill('ab');
  await expect(quantity).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('数量は整数で入力してください。')).toBeVisible();
  await expect(total(page)).not.toHaveText('0円');
  await expect(total(page)).toHaveText('—');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page).toHaveURL(/#\/orders\/new$/);
  await expect(quantity).toBeFocused();

  await quantity.fill('３');
  await quantity.blur();
  await expect(quantity).toHaveValue('3');
  await expect(quantity).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('1行目の単価').fill('１，２００');
  await expect(page.getByTestId('rate-8')).toContainText('3,600円（税 288円）');
  await expect(total(page)).toHaveText('3,888円');
  await saveNew(page);
  await expect(total(page)).toHaveText('3,888円');
  expect(errors).toEqual([]);
});

test('delivery fee: tax-exclusive on /system/deliveryfee and the order; an empty fee is the prefecture’s, shown before saving', async ({ page }) => {
  const errors = trackErrors(page);
  const who = customer(false);
  const fee = readRow<{ df_fee: number }>('SELECT df_fee FROM delivery_fee WHERE df_pref_name = ? AND deleted = 0', who.pref).df_fee;
  await login(page);
  await page.goto('/#/system/deliveryfee');
  await expect(page.getByRole('columnheader', { name: '送料（税抜・円）' })).toBeVisible();
  await expect(page.getByText('1 配送あたりの送料（税抜・円）')).toBeVisible();
  await expect(page.getByText('税込')).toHaveCount(0);

  await newOrder(page, who.cl_co_name, null);
  await expect(page.getByLabel('送料（税抜）', { exact: true })).toHaveValue('');
  // 8%: 1,300 → 104; 10%: the fee.
  const tax = 104 + Math.floor(fee * 0.1);
  const expected = `${(1300 + fee + tax).toLocaleString('ja-JP')}円`;
  await expect(page.getByTestId('delivery-fee')).toContainText(`${fee.toLocaleString('ja-JP')}円`);
  await expect(page.getByTestId('delivery-fee')).toContainText(who.pref);
  await expect(page.getByTestId('tax-total')).toHaveText(`${tax.toLocaleString('ja-JP')}円`);
  await expect(total(page)).toHaveText(expected);
  await saveNew(page);
  await expect(page.getByLabel('送料（税抜）', { exact: true })).toHaveValue(String(fee));
  await expect(total(page)).toHaveText(expected);
  expect(errors).toEqual([]);
});

test('前回の受注 is the customer’s order before this one; a new order shows the latest; the customer header names the latest by number', async ({ page }) => {
  const errors = trackErrors(page);
  const { cl_id } = readRow<{ cl_id: number }>('SELECT od_cl_id AS cl_id FROM orders WHERE deleted = 0 GROUP BY od_cl_id HAVING COUNT(*) >= 3 ORDER BY COUNT(*) DESC, od_cl_id LIMIT 1');
  const ordered = (offset: number) => readRow<{ od_id: number; od_number: string }>(
    'SELECT od_id, od_number FROM orders WHERE deleted = 0 AND od_cl_id = ? ORDER BY od_date DESC, od_id DESC LIMIT 1 OFFSET ?', cl_id, offset);
  const [latest, second, third] = [ordered(0), ordered(1), ordered(2)];
  await login(page);
  await page.goto(`/#/orders/detail/${second.od_id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(second.od_number);
  await expect(page.getByTestId('last-order')).toContainText(`前回の受注: ${third.od_number}`);
  await page.goto(`/#/orders/detail/${latest.od_id}`);
  await expect(page.getByTestId('last-order')).toContainText(`前回の受注: ${second.od_number}`);

  const name = readRow<{ cl_co_name: string; cl_name: string }>('SELECT cl_co_name, cl_name FROM client WHERE cl_id = ?', cl_id);
  await page.goto('/#/orders/new');
  await fillField(page, '顧客', { pick: name.cl_co_name || name.cl_name });
  await expect(page.getByTestId('last-order')).toContainText(`前回の受注: ${latest.od_number}`);

  // The new order has unsaved input: leaving it asks first.
  await page.goto(`/#/client/detail/${cl_id}`);
  await page.getByRole('alertdialog').getByRole('button', { name: 'このページを離れる' }).click();
  await expect(page.getByRole('link', { name: `最新の受注: ${latest.od_number}` })).toBeVisible();
  await expect(page.getByText(/最新の受注: #/)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('/system/orders is a settings form: no list, no id in the title, no delete, no way back to a missing list', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/orders');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('受注設定');
  await expect(page.getByLabel('受注番号の形式', { exact: true })).toHaveValue('OD{yyyy}{mm}{dd}-{id:6}');
  const main = page.getByRole('main');
  await expect(main.getByText(/ID\s*1/)).toHaveCount(0);
  await expect(main.getByRole('link', { name: '一覧へ戻る' })).toHaveCount(0);
  await expect(main.getByRole('button', { name: '削除' })).toHaveCount(0);
  await expect(main.getByRole('button', { name: '保存', exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a status list offers no 状態 filter; the search list does', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/orders/list/pending');
  await expect(page.getByRole('heading', { name: '受注一覧（保留）' })).toBeVisible();
  await openFilters(page);
  await expect(page.getByRole('group', { name: '合計金額' })).toBeVisible();
  await expect(page.getByRole('group', { name: '状態' })).toHaveCount(0);
  await page.goto('/#/orders/list/search');
  await expect(page.getByRole('heading', { name: '受注検索' })).toBeVisible();
  await openFilters(page);
  await expect(page.getByRole('group', { name: '状態' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('every detail route of a missing record shows the not-found screen, never an editable blank form', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  const client = readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 ORDER BY cl_id LIMIT 1').cl_id;
  await login(page);
  const detailRoutes = ROUTES.filter((r) => /\/:\w+$/.test(r.path) && (r.screen.kind === 'detail' || (r.screen.kind === 'custom' && r.path.startsWith('/orders/'))));
  expect(detailRoutes.length).toBeGreaterThan(10);
  for (const route of detailRoutes) {
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const params = Object.fromEntries(names.map((name, i) => [name, i < names.length - 1 ? String(client) : '999999']));
    const path = fillPath(route.path, params);
    await page.goto(`/#${path}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 }), path).toContainText('見つかりません');
    await expect(main.getByRole('button', { name: '保存', exact: true }), path).toHaveCount(0);
    await expect(main.getByRole('link', { name: '複製' }), path).toHaveCount(0);
    await expect(main.getByRole('textbox'), path).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('status buttons: unsaved changes are saved first, every missing field is named at once, 保留 asks its reason', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await newOrder(page, customer(false).cl_co_name);
  const number = await saveNew(page);

  // 保留 asks for the reason; cancelling changes nothing.
  await page.getByRole('button', { name: '「保留」にする' }).click();
  let dialog = page.getByRole('dialog', { name: '保留にする' });
  await expect(dialog.getByLabel('保留理由')).toBeVisible();
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('未処理');
  await page.getByRole('button', { name: '「保留」にする' }).click();
  dialog = page.getByRole('dialog', { name: '保留にする' });
  await dialog.getByRole('button', { name: '保留にする' }).click();
  await expect(dialog.getByText('保留理由を入力してください。')).toBeVisible();
  await dialog.getByLabel('保留理由').fill('入金確認待ち');
  await dialog.getByRole('button', { name: '保留にする' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('保留');
  await expect(page.getByLabel('保留理由', { exact: true })).toHaveValue('入金確認待ち');
  await moveTo(page, '出荷待ち');

  // An unsaved change is saved first: the warehouse emptied on screen, no tracking number → both named at once.
  const warehouse = page.getByLabel('出荷倉庫', { exact: true });
  const chosen = await warehouse.inputValue();
  expect(chosen).not.toBe('');
  await warehouse.selectOption('');
  await page.getByRole('button', { name: '「出荷済」にする' }).click();
  const alert = page.getByRole('alert').filter({ hasText: '次を入力してください' });
  await expect(alert).toContainText('送り状番号');
  await expect(alert).toContainText('出荷倉庫');
  await expect(page.getByLabel('送り状番号', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(warehouse).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('order-status')).toHaveText('出荷待ち');

  // Both entered on screen, not saved: the move saves them and ships.
  await warehouse.selectOption(chosen);
  await fillField(page, '送り状番号', '1111-2222-3332');
  await moveTo(page, '出荷済');
  await expect(page.getByLabel('出荷倉庫', { exact: true })).toHaveValue(chosen);
  await expect(page.getByLabel('送り状番号', { exact: true })).toHaveValue('1111-2222-3332');
  const stored = readRow<{ od_status: string; od_sk_id: string; od_tracking_no: string }>('SELECT od_status, od_sk_id, od_tracking_no FROM orders WHERE od_number = ?', number);
  expect(stored).toEqual({ od_status: 'shipped', od_sk_id: chosen, od_tracking_no: '1111-2222-3332' });
  expect(errors).toEqual([]);
});

test('an order the company’s own driver delivers ships without a tracking number', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await newOrder(page, customer(true).cl_co_name);
  await saveNew(page);
  await moveTo(page, '出荷待ち');
  await expect(page.getByLabel('送り状番号', { exact: true })).toHaveValue('');
  await moveTo(page, '出荷済');
  expect(errors).toEqual([]);
});

test('bulk status answers and the mail preview speak order numbers', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await newOrder(page, customer(false).cl_co_name);
  const number = await saveNew(page);
  await moveTo(page, '出荷待ち');
  await page.goto('/#/orders/list/waitshipping');
  await page.getByLabel('キーワード').first().fill(number);
  await page.getByLabel('キーワード').first().press('Enter');
  const rows = page.getByRole('table').getByRole('row');
  // The found order and the total row (the table's foot).
  await expect(page.getByRole('table').locator('tbody').getByRole('row')).toHaveCount(1);
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: /次の状態へ/ }).click();
  const report = page.getByRole('status').filter({ hasText: '変更できませんでした' });
  await expect(report).toContainText(`${number}:`);
  await expect(report).toContainText('送り状番号');

  await page.goto('/#/system/mailtemplate/list');
  await searchList(page, 'ご注文内容の確認');
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
  await page.getByLabel('プレビューする受注番号').fill(number);
  await page.getByLabel('プレビューする受注番号').press('Enter');
  await expect(page.getByTestId('preview-subject')).toContainText(`受注番号 ${number}`);
  expect(errors).toEqual([]);
});
