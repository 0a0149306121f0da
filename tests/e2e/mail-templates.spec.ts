/**
 * Mail templates in the browser: the shared create → find → edit → delete walk-through, the
 * placeholder check on the form, a preview of a seeded template with a real customer (and an
 * order), and a test send that the local SMTP server started here receives (playwright.config.ts
 * points the web server's SMTP_HOST / SMTP_PORT at it).
 */
import { expect, test, type Page } from '@playwright/test';
import { startLocalSmtp, type LocalSmtp } from '../support/local-smtp';
import { crudRoundTrip, fillField, searchList } from './crud';
import { readRow } from './db';
import { E2E, login, trackErrors } from './fixtures';

const unique = `ML${Date.now().toString().slice(-6)}`;
let smtp: LocalSmtp;

test.beforeAll(async () => {
  smtp = await startLocalSmtp({ port: E2E.smtpPort });
});
test.afterAll(async () => {
  await smtp?.close();
});

/** Opens a seeded template from the list by its name. */
async function openTemplate(page: Page, name: string): Promise<void> {
  await page.goto('/#/system/mailtemplate/list');
  await searchList(page, name);
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールテンプレート詳細');
  await expect(page.getByLabel('テンプレート名', { exact: true })).toHaveValue(name);
}

test('mail template: create → find → edit → delete', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await crudRoundTrip(page, {
    newPath: '/system/mailtemplate/new',
    listPath: '/system/mailtemplate/list',
    fill: [
      ['テンプレート名', `${unique} 配送のご案内`],
      ['用途', { select: '配送予定' }],
      ['対象', { select: '顧客' }],
      ['件名', '{{顧客名}} 様 次回のお届け'],
      ['本文', '{{顧客名}} 様\n次回配送日: {{次回配送日}}\n{{自社名}}'],
    ],
    keyword: unique,
    edit: ['件名', '{{顧客名}} 様 お届け日のご案内'],
  });
  expect(errors).toEqual([]);
});

test('the form lists the placeholders and refuses unknown ones under the field', async ({ page }) => {
  await login(page);
  await page.goto('/#/system/mailtemplate/new');
  await expect(page.getByText('件名と本文に使える差し込み項目', { exact: false })).toContainText('{{顧客名}}');
  await page.getByLabel('テンプレート名', { exact: true }).fill(`${unique} 未知の項目`);
  await page.getByLabel('件名', { exact: true }).fill('{{受注番号}} のご案内');
  await page.getByLabel('本文', { exact: true }).fill('{{顧客様}} へ');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('本文に使用できない差し込み項目があります: {{顧客様}}')).toBeVisible();
  await expect(page.getByText('件名に使用できない差し込み項目があります: {{受注番号}}', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/system\/mailtemplate\/new$/);
});

test('a preview fills a seeded template with a real customer, and a test send reaches the SMTP server', async ({ page }) => {
  const errors = trackErrors(page);
  const client = readRow<{ cl_id: number; cl_co_name: string }>(
    "SELECT cl_id, cl_co_name FROM client WHERE deleted = 0 AND cl_co_name <> '' ORDER BY cl_id LIMIT 1",
  );
  await login(page);
  await openTemplate(page, '次回配送日のお知らせ');

  await expect(page.getByText('顧客を選ぶとプレビューを表示します。')).toBeVisible();
  await fillField(page, 'プレビューする顧客', { pick: client.cl_co_name, option: client.cl_co_name });
  const subject = page.getByTestId('preview-subject');
  const body = page.getByTestId('preview-body');
  await expect(subject).toContainText('【アクア宅配センター】次回のお届け日のお知らせ');
  await expect(body).toContainText(`${client.cl_co_name} 様`);
  await expect(body).not.toContainText('{{');

  const to = `${unique.toLowerCase()}@example.jp`;
  await page.getByLabel('テスト送信先メールアドレス').fill(to);
  await page.getByRole('button', { name: 'テスト送信' }).click();
  await expect(page.getByRole('status').filter({ hasText: `テストメールを ${to} に送信しました。` })).toBeVisible();

  await expect.poll(() => smtp.received.filter((m) => m.envelopeTo.includes(to)).length).toBe(1);
  const mail = smtp.received.find((m) => m.envelopeTo.includes(to))!;
  expect(mail.envelopeFrom).toBe(E2E.mailFrom);
  expect(mail.subject).toBe(await subject.textContent());
  expect(mail.text).toContain(`${client.cl_co_name} 様`);
  expect(mail.text).toContain('アクア宅配センター');

  // A bad address is refused under the input, and nothing more is sent.
  await page.getByLabel('テスト送信先メールアドレス').fill('not-an-address');
  await page.getByLabel('テスト送信先メールアドレス').press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: '送信先メールアドレスの形式が正しくありません' })).toBeVisible();
  await expect(page).toHaveURL(/\/system\/mailtemplate\/detail\/\d+$/);
  expect(smtp.received.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('a template for an order previews a real order', async ({ page }) => {
  const order = readRow<{ od_number: string }>('SELECT od_number FROM orders WHERE deleted = 0 ORDER BY od_id LIMIT 1');
  await login(page);
  await openTemplate(page, 'ご注文内容の確認');
  await page.getByLabel('プレビューする受注番号').fill(order.od_number);
  await page.getByLabel('プレビューする受注番号').press('Enter');
  await expect(page.getByTestId('preview-subject')).toHaveText(`【アクア宅配センター】ご注文ありがとうございます（受注番号 ${order.od_number}）`);
  await expect(page.getByTestId('preview-body')).toContainText(`受注番号: ${order.od_number}`);
  await expect(page.getByTestId('preview-body')).toContainText(/ご注文金額（税込）: [\d,]+円/);
});
