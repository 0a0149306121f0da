import { expect, test, type Page } from '@playwright/test';
import { todayJst } from '../../lib/format';
import { crudRoundTrip, fillField, openFilters, searchList } from './crud';
import { login, trackErrors } from './fixtures';

const unique = `E2E${Date.now().toString().slice(-6)}`;

/** Opens a list, searches and opens the only row found. */
async function openOnly(page: Page, listPath: string, keyword: string): Promise<void> {
  await page.goto(`/#${listPath}`);
  await searchList(page, keyword);
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(2);
  await rows.nth(1).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/detail\/\d+$/);
}

/** The quantity a stock table shows in the row naming `name` (e.g. 「120本」 → 120). */
async function stockIn(page: Page, table: string, name: string): Promise<number> {
  const row = page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  const text = (await row.getByRole('cell').nth(2).textContent()) ?? '';
  return Number(text.replace(/[^\d]/g, ''));
}

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('warehouse: create → find → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  await crudRoundTrip(page, {
    newPath: '/warehouse/new',
    listPath: '/warehouse/list',
    fill: [['倉庫コード', `${unique}-W`], ['倉庫名', `${unique}倉庫`], ['都道府県', { select: '千葉県' }], ['電話番号', '043-123-4567']],
    keyword: `${unique}-W`,
    edit: ['倉庫名', `${unique}第二倉庫`],
  });
  expect(errors).toEqual([]);
});

test('water server: create → find → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  await crudRoundTrip(page, {
    newPath: '/server/new',
    listPath: '/server/list',
    fill: [['製造番号', `${unique}-SV`], ['機種', { select: 'アクアスリム（卓上）' }], ['状態', { select: '在庫' }], ['保管倉庫', { select: '横浜倉庫' }]],
    keyword: `${unique}-SV`,
    edit: ['備考', '展示用に確保'],
  });
  expect(errors).toEqual([]);
});

test('bottle movement: create → find → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  await crudRoundTrip(page, {
    newPath: '/bottle/new',
    listPath: '/bottle/list',
    fill: [['顧客', { pick: '株式会社' }], ['商品', { select: '天然水 12L（リターナブル）' }], ['お届け本数', '2'], ['備考', `${unique}追加注文`]],
    keyword: `${unique}追加注文`,
    edit: ['備考', `${unique}追加注文（不在のため宅配ボックス）`],
  });
  expect(errors).toEqual([]);
});

test('tax rate: an admin closes the current rate, then adds, edits and deletes a future one', async ({ page }) => {
  const errors = trackErrors(page);
  const setLastDay = async (day: string) => {
    await openOnly(page, '/tax/list', '標準税率 10%');
    await page.getByLabel('適用終了日', { exact: true }).fill(day);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    // The next walk-through waits for its own 「保存しました。」.
    await expect(page.getByText('保存しました。')).toBeHidden();
  };
  await setLastDay('2099-12-31');
  await crudRoundTrip(page, {
    newPath: '/tax/new',
    listPath: '/tax/list',
    fill: [['税率区分', { select: '標準税率' }], ['税率（%）', '12'], ['適用開始日', '2100-01-01'], ['表示名', `${unique}標準税率 12%`]],
    keyword: `${unique}標準税率`,
    edit: ['備考', '改正法の施行日から'],
  });
  await setLastDay('');
  expect(errors).toEqual([]);
});

test('tax rate: an overlapping period is refused under its field', async ({ page }) => {
  await page.goto('/#/tax/new');
  await fillField(page, '税率区分', { select: '軽減税率' });
  await fillField(page, '税率（%）', '6');
  await fillField(page, '適用開始日', '2030-04-01');
  await fillField(page, '表示名', `${unique}軽減`);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '軽減税率「軽減税率 8%」（2019-10-01〜）と重なっています' }).first()).toBeVisible();
  await expect(page).toHaveURL(/#\/tax\/new$/);
});

test('stock: adjusting a warehouse shows on its history and on the item\'s stock per warehouse', async ({ page }) => {
  const errors = trackErrors(page);
  await openOnly(page, '/warehouse/list', 'TKY');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('倉庫詳細');
  const before = await stockIn(page, '商品別在庫', '紙コップ（100個入）');

  const form = page.getByRole('form', { name: '在庫調整' });
  await fillField(page, '商品', { pick: '紙コップ', option: /紙コップ（100個入）/ });
  await form.getByLabel('区分').selectOption({ label: '入庫' });
  await form.getByLabel('数量').fill('２５');
  await form.getByLabel('理由').fill(`${unique}入庫`);
  await form.getByRole('button', { name: '在庫を調整' }).click();
  await expect(page.getByText('在庫を調整しました。')).toBeVisible();
  await expect.poll(() => stockIn(page, '商品別在庫', '紙コップ（100個入）')).toBe(before + 25);
  await expect(page.getByRole('table', { name: '入出庫履歴' }).getByRole('row').filter({ hasText: `${unique}入庫` })).toContainText('+25');

  // Below zero is refused, with the reason in Japanese; nothing changes.
  await form.getByLabel('区分').selectOption({ label: '出庫' });
  await form.getByLabel('数量').fill(String(before + 26));
  await form.getByLabel('理由').fill('出しすぎ');
  await form.getByRole('button', { name: '在庫を調整' }).click();
  await expect(form.getByRole('alert').first()).toContainText('在庫が足りません');
  expect(await stockIn(page, '商品別在庫', '紙コップ（100個入）')).toBe(before + 25);

  // The item's detail shows the warehouse's new quantity.
  await page.getByRole('table', { name: '商品別在庫' }).getByRole('link', { name: '紙コップ（100個入）' }).click();
  await expect(page).toHaveURL(/#\/item\/detail\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('商品詳細');
  expect(await stockIn(page, '倉庫別在庫', '東京本社倉庫')).toBe(before + 25);
  await expect(page.getByText(/本日の税率（標準税率）: 10%/)).toBeVisible();
  expect(errors).toEqual([]);
});

test('bottles: a customer\'s balance follows the movements added on their detail', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('/#/client/new');
  await page.getByLabel('会社名', { exact: true }).fill(`${unique}ボトル商会`);
  await page.getByLabel('状態').selectOption({ label: '契約中' });
  await page.getByLabel('電話番号1').fill('03-5555-1212');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(/#\/client\/detail\/\d+$/);
  const customer = new URL(page.url()).hash.slice(1);
  await expect(page.getByText('預けボトルはありません')).toBeVisible();

  const addMovement = async (delivered: string, collected: string, deposit: string) => {
    await page.getByRole('tab', { name: 'ボトル' }).click();
    await page.getByRole('link', { name: 'ボトルを登録' }).click();
    await expect(page).toHaveURL(new RegExp(`#${customer}/bottle/new$`));
    await expect(page.getByLabel('顧客', { exact: true })).toHaveValue(`${unique}ボトル商会`);
    await fillField(page, '商品', { select: '天然水 12L（リターナブル）' });
    await fillField(page, 'お届け本数', delivered);
    await fillField(page, '空ボトル回収本数', collected);
    // The deposit is derived from the bottles and the item (read-only, with where it comes from).
    const derived = page.getByLabel('容器保証金（預り金・不課税）', { exact: true });
    await expect(derived).not.toBeEditable();
    await expect(derived).toHaveAccessibleDescription(/商品の容器保証金/);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page).toHaveURL(new RegExp(`#${customer}/bottle/\\d+$`));
    await expect(derived).toHaveValue(deposit);
    await page.getByRole('link', { name: '顧客へ戻る' }).click();
    await expect(page).toHaveURL(new RegExp(`#${customer}$`));
  };

  await addMovement('3', '0', '3,000円');
  await expect(page.getByText('預けボトル（天然水 12L（リターナブル））: 3本')).toBeVisible();
  await addMovement('2', '3', '-1,000円');
  await expect(page.getByText('預けボトル（天然水 12L（リターナブル））: 2本')).toBeVisible();
  // The deposit follows the bottles (issue 12): 預け本数 2 × the item's deposit.
  await expect(page.getByText('保証金 2,000円')).toBeVisible();
  await page.getByRole('tab', { name: 'ボトル' }).click();
  const ledger = page.getByRole('table', { name: 'ボトル一覧' });
  await expect(ledger.locator('tbody').getByRole('row')).toHaveCount(2);
  await expect(ledger.getByRole('row').nth(1)).toContainText(todayJst());

  // Collecting more than the customer holds is refused.
  await page.getByRole('link', { name: 'ボトルを登録' }).click();
  await fillField(page, '商品', { select: '天然水 12L（リターナブル）' });
  await fillField(page, '空ボトル回収本数', '5');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText(/の時点で預け本数が -3 本になるため/).first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('servers: the メンテ期限 quick filter lists the overdue ones', async ({ page }) => {
  await page.goto('/#/server/list');
  await openFilters(page);
  await page.getByLabel('メンテ期限').selectOption({ label: '期限切れ' });
  const table = page.getByRole('table');
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const today = todayJst();
  // The filtered rows replace the unfiltered ones after the list answers: wait until the rows shown are the filter's.
  const dues = () => table.getByRole('row').locator('td:nth-child(7)').allTextContents();
  await expect.poll(async () => (await dues()).filter((due) => !(due < today))).toEqual([]);
  expect((await dues()).length).toBeGreaterThan(0);
  for (const due of await dues()) expect(due < today, due).toBe(true);
  await page.getByLabel('メンテ期限').selectOption({ label: '（指定なし）' });
});
