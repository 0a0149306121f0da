import { expect, test } from '@playwright/test';
import { crudRoundTrip, fillField, fillForm, searchList } from './crud';
import { login, trackErrors } from './fixtures';

const tag = Date.now().toString().slice(-6);

test.describe('customer relations and items', () => {
  test.beforeEach(async ({ page }) => {
    await login(page);
  });

  test('contact: create → find → edit → delete, the customer picked by keyword', async ({ page }) => {
    const errors = trackErrors(page);
    await crudRoundTrip(page, {
      newPath: '/contact/new',
      listPath: '/contact/list',
      fill: [
        ['顧客', { pick: '東京', option: /./ }],
        ['件名', `配送日変更の依頼 ${tag}`],
        ['受付方法', { select: 'メール' }],
        ['内容', '次回の配送を一週間遅らせてほしい。'],
      ],
      keyword: `配送日変更の依頼 ${tag}`,
      edit: ['件名', `配送日変更の依頼 ${tag} 対応済み`],
    });
    expect(errors).toEqual([]);
  });

  test('contact: the reception date is remembered for the next entry', async ({ page }) => {
    await page.goto('/#/contact/new');
    await fillForm(page, [
      ['顧客', { pick: '大阪', option: /./ }],
      ['受付日', '2026-11-02'],
      ['件名', `受付日の記憶 ${tag}`],
    ]);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await page.goto('/#/contact/list');
    await page.goto('/#/contact/new');
    await expect(page.getByLabel('受付日', { exact: true })).toHaveValue('2026-11-02');
  });

  test('report and daily report: create → find → edit → delete', async ({ page }) => {
    await crudRoundTrip(page, {
      newPath: '/report/new',
      listPath: '/report/list',
      fill: [
        ['顧客', { pick: '株式会社', option: /./ }],
        ['件名', `新規設置の提案 ${tag}`],
        ['報告内容', 'オフィス移転に合わせてサーバー 2 台を提案。'],
        ['結果', { select: '見込み（高）' }],
      ],
      keyword: `新規設置の提案 ${tag}`,
      edit: ['次回アクション', '見積書を送付する'],
    });
    await crudRoundTrip(page, {
      newPath: '/daily/new',
      listPath: '/daily/list',
      fill: [
        ['日付', '2026-11-22'],
        ['業務内容', `日曜当番 ${tag}：配送 12 件`],
        ['配送件数', '12'],
      ],
      keyword: `日曜当番 ${tag}`,
      edit: ['翌日の予定', '通常ルート'],
    });
  });

  test('daily report: a second report for the same person and day is refused with a message', async ({ page }) => {
    await page.goto('/#/daily/new');
    await fillForm(page, [['日付', '2026-11-21'], ['業務内容', `一件目 ${tag}`]]);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await page.goto('/#/daily/list');
    await page.goto('/#/daily/new');
    await fillForm(page, [['日付', '2026-11-21'], ['業務内容', `二件目 ${tag}`]]);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('この担当者のこの日の日報は既に登録されています。').first()).toBeVisible();
    await expect(page).toHaveURL(/#\/daily\/new$/);
  });

  test('item: create → find → edit → delete; a duplicate code is named on the form', async ({ page }) => {
    await crudRoundTrip(page, {
      newPath: '/item/new',
      listPath: '/item/list',
      fill: [
        ['商品コード', `E2E-${tag}`],
        ['商品名', `テスト天然水 ${tag}`],
        ['標準単価（税抜）', '1,200'],
        ['税区分', { select: '軽減税率' }],
        { tab: '在庫・容器' },
        ['リターナブルボトル', { check: true }],
        ['容器保証金（1本）', '1000'],
      ],
      keyword: `テスト天然水 ${tag}`,
      edit: ['商品名', `テスト天然水 ${tag} 改`],
    });
    await page.goto('/#/item/new');
    await fillForm(page, [['商品コード', 'W12R'], ['商品名', '重複コード'], ['標準単価（税抜）', '100']]);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('商品コード「W12R」は既に登録されています。').first()).toBeVisible();
  });

  test('customer detail: agreements, contacts and reports in tabs; an agreement entered, edited and deleted under the customer', async ({ page }) => {
    await page.goto('/#/client/list');
    await searchList(page, '株式会社');
    await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
    await expect(page).toHaveURL(/#\/client\/detail\/\d+$/);
    const clientPath = new URL(page.url()).hash.slice(1);
    const related = page.getByRole('region', { name: '関連情報' });
    await expect(related.getByRole('tab')).toHaveText(['受注', '契約', '対応履歴', '営業報告', 'ボトル', 'サーバー', 'サーバー履歴', '請求', '売上', '入金', '休配・スキップ'].map((name) => new RegExp(`^${name}（\\d+）$`)));
    await related.getByRole('tab', { name: /^契約/ }).click();

    await related.getByRole('link', { name: '契約を登録' }).click();
    await expect(page).toHaveURL(new RegExp(`#${clientPath}/agreement_new$`));
    await expect(page.getByLabel('顧客', { exact: true })).toBeDisabled();
    await fillForm(page, [
      ['契約番号', `AG-E2E-${tag}`],
      ['契約種別', { select: 'レンタル' }],
      ['レンタル台数', '2'],
      { tab: '料金・条件' },
      ['サーバーレンタル料（月額）', '1000'],
    ]);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#${clientPath}/agreement/\\d+$`));
    await expect(page.getByRole('navigation', { name: 'パンくずリスト' })).toContainText('顧客詳細');

    await page.getByRole('link', { name: '顧客へ戻る' }).click();
    await expect(page).toHaveURL(new RegExp(`#${clientPath}$`));
    const row = page.getByRole('region', { name: '関連情報' }).getByRole('row', { name: new RegExp(`AG-E2E-${tag}`) });
    await expect(row).toContainText('1,000円');
    await row.getByRole('link').first().click();
    await page.getByRole('tab', { name: '契約内容' }).click();
    await fillField(page, 'レンタル台数', '3');
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();

    await page.getByRole('button', { name: '削除', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: /削除|OK|はい/ }).click();
    await expect(page).toHaveURL(new RegExp(`#${clientPath}$`));
    await expect(page.getByRole('region', { name: '関連情報' }).getByRole('row', { name: new RegExp(`AG-E2E-${tag}`) })).toHaveCount(0);

    // A contact entered from the customer's tab lands in that tab, with the customer fixed.
    await page.getByRole('region', { name: '関連情報' }).getByRole('tab', { name: '対応履歴' }).click();
    await page.getByRole('link', { name: '対応履歴を登録' }).click();
    await fillForm(page, [['件名', `顧客画面からの対応 ${tag}`]]);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`#${clientPath}/contact/\\d+$`));
    await page.goto(`/#${clientPath}`);
    await page.getByRole('region', { name: '関連情報' }).getByRole('tab', { name: '対応履歴' }).click();
    await expect(page.getByRole('region', { name: '関連情報' })).toContainText(`顧客画面からの対応 ${tag}`);
  });
});
