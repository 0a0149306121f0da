/**
 * Finding things in the browser (issue 10), on the seeded demo company: the keyword finds what staff
 * type (a phone without hyphens, a name without its space, kana in hiragana, full-width digits); sorting
 * by 会社名 follows the reading; カナ and 番地 convert as they are typed; a payment method in use cannot be
 * deleted and the refusal links to the customers using it; a customer's orders are a tab with its count,
 * a refused delete links to them, and the order search finds them by customer and by phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { searchList } from './crud';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

const toHiragana = (kana: string): string => kana.replace(/[\u30A1-\u30F6]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));
const toFullWidthDigits = (text: string): string => text.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
const total = (scope: Page | ReturnType<Page['getByRole']>, n: number) => expect(scope.getByText(`全 ${n.toLocaleString('ja-JP')} 件`)).toBeVisible();

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('the customer keyword finds a phone without hyphens, a name without its space, kana in hiragana and full-width digits', async ({ page }) => {
  const errors = trackErrors(page);
  const customer = readRow<{ cl_id: number; cl_name: string; cl_name_kana: string; cl_tel_1: string }>(
    `SELECT cl_id, cl_name, cl_name_kana, cl_tel_1 FROM client WHERE deleted = 0 AND cl_name LIKE '% %' AND cl_name_kana LIKE '% %' AND cl_tel_1 LIKE '%-%' ORDER BY cl_id LIMIT 1`,
  );
  const digits = customer.cl_tel_1.replace(/-/g, '');
  await page.goto('/#/client/list');
  const row = page.getByRole('table').getByRole('link', { name: String(customer.cl_id), exact: true });
  for (const typed of [digits, toFullWidthDigits(customer.cl_tel_1), customer.cl_name.replace(/\s/g, ''), toHiragana(customer.cl_name_kana).replace(/\s/g, '')]) {
    await searchList(page, typed);
    await expect(row, `「${typed}」 finds ${customer.cl_name}`).toBeVisible();
  }
  expect(errors).toEqual([]);
});

test('sorting customers by 会社名 follows the reading (会社名カナ), not the code points of the kanji', async ({ page }) => {
  const ids = (order: string) =>
    readRow<{ ids: string }>(
      `SELECT group_concat(cl_id) AS ids FROM (SELECT cl_id FROM client WHERE deleted = 0 AND cl_search LIKE '%株式会社%' ORDER BY ${order} LIMIT 10)`,
    ).ids.split(',');
  const byReading = ids('cl_co_name_kana, cl_co_name, cl_id');
  expect(byReading, 'the demo data sorts differently by name and by reading').not.toEqual(ids('cl_co_name, cl_id'));
  await page.goto('/#/client/list');
  await searchList(page, '株式会社');
  await page.getByRole('button', { name: /会社名/ }).first().click();
  const links = page.getByRole('table').getByRole('row').locator('td:first-child a');
  await expect(links).toHaveText(byReading);
});

test('カナ and 番地 convert as typed: hiragana to katakana, full-width digits to half-width', async ({ page }) => {
  await page.goto('/#/client/new');
  const kana = page.getByLabel('会社名カナ', { exact: true });
  await kana.fill('すいどうしょうじ');
  await kana.press('Tab');
  await expect(kana).toHaveValue('スイドウショウジ');
  const address = page.getByLabel('番地', { exact: true });
  await address.fill('丸の内１－２－３');
  await address.press('Tab');
  await expect(address).toHaveValue('丸の内1-2-3');
});

test('a payment method customers use cannot be deleted: the refusal names how many and links to them', async ({ page }) => {
  const errors = trackErrors(page);
  const method = readRow<{ mo_value: string; mo_text: string; n: number }>(
    `SELECT mo_value, mo_text, (SELECT count(*) FROM client WHERE deleted = 0 AND cl_pm_id = mo_value) AS n
     FROM master_option WHERE deleted = 0 AND mo_table = 'mt_pmt_method' ORDER BY n DESC LIMIT 1`,
  );
  expect(method.n).toBeGreaterThan(0);
  await page.goto('/#/system/master/?table=mt_pmt_method');
  await page.getByRole('button', { name: `「${method.mo_text}」を削除` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '削除する' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: '削除できません' });
  await expect(refusal).toContainText(`この支払方法「${method.mo_text}」は顧客（${method.n}件）の「支払方法」`);
  await expect(page.getByText('削除しました。')).toHaveCount(0);
  await expect(page.getByRole('button', { name: `「${method.mo_text}」を削除` })).toBeVisible();

  await refusal.getByRole('link', { name: `顧客（${method.n}件）の「支払方法」を表示` }).click();
  await expect(page).toHaveURL(/#\/client\/list$/);
  await total(page, method.n);
  const filters = page.getByRole('region', { name: '絞り込み条件' });
  if ((await filters.getByRole('group', { name: '支払方法' }).count()) === 0) await filters.getByRole('button', { name: /詳細検索/ }).click();
  await expect(filters.getByRole('group', { name: '支払方法' }).getByRole('checkbox', { name: method.mo_text })).toBeChecked();
  expect(errors).toEqual([]);
});

test("a customer's orders: the 受注 tab with its count, a refused delete links to them, the order search finds them by customer and phone", async ({ page }) => {
  const errors = trackErrors(page);
  const customer = readRow<{ cl_id: number; cl_co_name: string; cl_name: string; cl_tel_1: string; n: number }>(
    `SELECT cl_id, cl_co_name, cl_name, cl_tel_1, (SELECT count(*) FROM orders WHERE deleted = 0 AND od_cl_id = cl_id) AS n
     FROM client WHERE deleted = 0 AND cl_co_name <> '' AND cl_tel_1 <> '' ORDER BY n DESC, cl_id LIMIT 1`,
  );
  expect(customer.n).toBeGreaterThan(0);
  await page.goto(`/#/client/detail/${customer.cl_id}`);
  const related = page.getByRole('region', { name: '関連情報' });
  const tab = related.getByRole('tab', { name: `受注（${customer.n}）` });
  await expect(tab).toBeVisible();
  await tab.click();
  await total(related, customer.n);

  await page.getByRole('button', { name: '削除', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: /削除|OK|はい/ }).click();
  const refusal = page.getByRole('alert').filter({ hasText: '削除できません' });
  await expect(refusal).toContainText(`受注（${customer.n}件）の「顧客」`);
  await refusal.getByRole('link', { name: `受注（${customer.n}件）の「顧客」を表示` }).click();
  await expect(page).toHaveURL(/#\/orders\/list\/search$/);
  await total(page, customer.n);
  const filters = page.getByRole('region', { name: '絞り込み条件' });
  const picker = filters.getByRole('combobox', { name: '顧客' });
  if ((await picker.count()) === 0) await filters.getByRole('button', { name: /詳細検索/ }).click();
  await expect(picker).toHaveValue(customer.cl_co_name);

  // The same list by picking the customer, then by the phone number typed without hyphens.
  await filters.getByRole('button', { name: '条件をクリア' }).click();
  await picker.fill(customer.cl_co_name);
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(`ID ${customer.cl_id}$`) }).click();
  await total(page, customer.n);
  await filters.getByRole('button', { name: '条件をクリア' }).click();
  const phone = filters.getByLabel('電話番号', { exact: true });
  await phone.fill(customer.cl_tel_1.replace(/-/g, ''));
  await phone.press('Enter');
  await expect(page.getByRole('table')).toContainText(customer.cl_co_name);
  await expect(page.getByRole('table')).not.toContainText('該当するデータはありません。');
  expect(errors).toEqual([]);
});
