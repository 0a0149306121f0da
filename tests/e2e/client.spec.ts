import { expect, test, type Page } from '@playwright/test';
import { login, trackErrors } from './fixtures';

const unique = `E2E${Date.now().toString().slice(-6)}`;

async function search(page: Page, keyword: string) {
  const box = page.getByLabel('キーワード');
  await box.fill(keyword);
  await box.press('Enter');
}

test('customer: create → search (width-insensitive) → edit → conflict from a second tab → delete with confirmation', async ({ page, context }) => {
  test.setTimeout(120_000);
  const errors = trackErrors(page);
  await login(page);

  // Create.
  await page.goto('/#/client/new');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('顧客');
  await page.getByLabel('会社名', { exact: true }).fill(`${unique}青葉商事`);
  await page.getByLabel('会社名カナ').fill('アオバショウジ');
  await page.getByLabel('状態').selectOption({ label: '契約中' });
  const tel = page.getByLabel('電話番号1');
  await tel.fill('０３－１２３４－５６７８');
  await tel.blur();
  await expect(tel).toHaveValue('03-1234-5678');
  await page.getByLabel('郵便番号', { exact: true }).fill('１００－０００１');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(/#\/client\/detail\/\d+$/);
  const id = /detail\/(\d+)/.exec(page.url())![1];

  // Search with full-width letters and digits: finds the half-width name.
  await page.goto('/#/client/list');
  await search(page, unique.replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)));
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(`${unique}青葉商事`);

  // Edit.
  await table.getByRole('link', { name: id, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`#/client/detail/${id}$`));
  await expect(page.getByLabel('会社名', { exact: true })).toHaveValue(`${unique}青葉商事`);

  // A second tab opens the same customer before the first one saves.
  const other = await context.newPage();
  await other.goto(`/#/client/detail/${id}`);
  await expect(other.getByLabel('会社名', { exact: true })).toHaveValue(`${unique}青葉商事`);

  await page.getByLabel('会社名', { exact: true }).fill(`${unique}青葉商事 本社`);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  // The second tab's stale edit is refused, not silently overwritten.
  await other.getByLabel('部署', { exact: true }).fill('総務部');
  await other.getByRole('button', { name: '保存' }).click();
  await expect(other.getByText('このデータは他のユーザーによって更新されています', { exact: false })).toBeVisible();
  await other.close();
  await page.reload();
  await expect(page.getByLabel('会社名', { exact: true })).toHaveValue(`${unique}青葉商事 本社`);
  await expect(page.getByLabel('部署', { exact: true })).toHaveValue('');

  // Delete, after confirming.
  await page.getByRole('button', { name: '削除', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('このデータを本当に削除しますか？');
  await dialog.getByRole('button', { name: /削除|OK|はい/ }).click();
  await expect(page).toHaveURL(/#\/client\/list$/);
  await search(page, unique);
  await expect(page.getByText('該当するデータはありません。')).toBeVisible();
  expect(errors).toEqual([]);
});

test('customer: leaving with unsaved changes asks first', async ({ page }) => {
  await login(page);
  await page.goto('/#/client/new');
  await page.getByLabel('会社名', { exact: true }).fill('未保存のテスト');
  await page.getByRole('navigation', { name: 'メニュー' }).getByRole('link', { name: '顧客一覧' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('保存されていない変更があります');
  await dialog.getByRole('button', { name: '編集を続ける' }).click();
  await expect(page).toHaveURL(/#\/client\/new$/);
  await expect(page.getByLabel('会社名', { exact: true })).toHaveValue('未保存のテスト');
  // Leaving on purpose discards the edit.
  await page.getByRole('navigation', { name: 'メニュー' }).getByRole('link', { name: '顧客一覧' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'このページを離れる' }).click();
  await expect(page.getByRole('heading', { name: '顧客一覧' })).toBeVisible();
});

test('customer list: sorting by a header, paging and page size persist', async ({ page }) => {
  await login(page);
  await page.goto('/#/client/list');
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(11);
  const header = table.getByRole('columnheader', { name: /会社名/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', /ascending|descending/);
  await page.getByLabel('表示件数').selectOption('20');
  await expect(table.getByRole('row')).toHaveCount(21);
  const paging = page.getByRole('navigation', { name: 'ページ送り', exact: true });
  await paging.getByRole('button', { name: '2ページ' }).click();
  await expect(paging.getByRole('button', { name: '2ページ' })).toHaveAttribute('aria-current', /page|true/);
  await page.reload();
  await expect(page.getByLabel('表示件数')).toHaveValue('20');
  await expect(paging.getByRole('button', { name: '2ページ' })).toHaveAttribute('aria-current', /page|true/);
});

test('customer list: a saved search round trip (save, pick, delete)', async ({ page }) => {
  await login(page);
  await page.goto('/#/client/list');
  await search(page, '東京都');
  await expect(page.getByRole('table')).toContainText('東京都');
  await page.getByRole('button', { name: '検索条件を保存' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill('東京の顧客');
  await dialog.getByRole('button', { name: /保存/ }).click();
  await expect(page.getByText('検索条件を保存しました。')).toBeVisible();

  await search(page, '');
  await expect(page.getByLabel('キーワード')).toHaveValue('');
  await page.getByLabel('保存した検索').selectOption({ label: '東京の顧客' });
  await expect(page.getByLabel('キーワード')).toHaveValue('東京都');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText('東京都');

  await page.getByRole('button', { name: '削除', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: /削除|OK|はい/ }).click();
  await expect(page.getByLabel('保存した検索').getByRole('option', { name: '東京の顧客' })).toHaveCount(0);
});

test('customer: the picture is read from a file as a data URL, saved, and the map box explains a missing key', async ({ page }) => {
  await login(page);
  await page.goto('/#/client/detail/2');
  await expect(page.getByLabel('会社名', { exact: true })).not.toHaveValue('');
  await expect(page.getByText('地図を表示するには Google Maps API キーの設定が必要です', { exact: false })).toBeVisible();
  // A 1×1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'ファイル参照' }).click();
  await (await chooser).setFiles({ name: 'shop.png', mimeType: 'image/png', buffer: png });
  const preview = page.getByRole('img', { name: '画像' });
  await expect(preview).toHaveAttribute('src', /^data:image\/png;base64,/);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('img', { name: '画像' })).toHaveAttribute('src', /^data:image\/png;base64,/);
});

test('郵便番号 fills 都道府県・市区町村・町域 in every address block from the bundled postal data; an unknown code leaves them alone', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/client/new');
  // The customer's own address: typed as staff type it, filled once 7 digits are there.
  await page.getByLabel('郵便番号', { exact: true }).fill('〒１００－０００１');
  await expect(page.getByLabel('都道府県', { exact: true })).toHaveValue('東京都');
  await expect(page.getByLabel('市区町村', { exact: true })).toHaveValue('千代田区');
  await expect(page.getByLabel('番地', { exact: true })).toHaveValue('千代田');
  await expect(page.getByText('郵便番号 100-0001 の住所（東京都千代田区千代田）を入力しました。')).toBeVisible();

  // 配送先: the same input; a code with several 町域 offers them.
  await page.getByRole('tab', { name: '配送先' }).click();
  await page.getByLabel('配送先郵便番号', { exact: true }).fill('060-0042');
  await expect(page.getByLabel('配送先都道府県', { exact: true })).toHaveValue('北海道');
  await expect(page.getByLabel('配送先市区町村', { exact: true })).toHaveValue('札幌市中央区');
  await expect(page.getByLabel('配送先番地', { exact: true })).toHaveValue('大通西');
  await page.getByLabel('配送先郵便番号', { exact: true }).fill('452-0961');
  await page.getByLabel('配送先郵便番号の町域').selectOption({ label: '春日夢の森' });
  await expect(page.getByLabel('配送先市区町村', { exact: true })).toHaveValue('清須市');
  await expect(page.getByLabel('配送先番地', { exact: true })).toHaveValue('春日夢の森');

  // 請求先: an unknown code says so and changes nothing.
  await page.getByRole('tab', { name: '請求先' }).click();
  await page.getByLabel('請求先都道府県', { exact: true }).selectOption('大阪府');
  await page.getByLabel('請求先市区町村', { exact: true }).fill('大阪市北区');
  await page.getByLabel('請求先郵便番号', { exact: true }).fill('999-9999');
  await expect(page.getByText('郵便番号 999-9999 の住所は見つかりませんでした。住所はそのまま入力してください。')).toBeVisible();
  await expect(page.getByLabel('請求先都道府県', { exact: true })).toHaveValue('大阪府');
  await expect(page.getByLabel('請求先市区町村', { exact: true })).toHaveValue('大阪市北区');

  // 自社情報 has one 住所 field: it takes the whole address (a second tab: the customer's form keeps its edits).
  const other = await page.context().newPage();
  await other.goto('/#/system/company');
  await other.getByLabel('郵便番号', { exact: true }).fill('530-0001');
  await expect(other.getByLabel('住所', { exact: true })).toHaveValue(/^大阪府大阪市北区梅田/);
  await other.close();
  expect(errors).toEqual([]);
});
