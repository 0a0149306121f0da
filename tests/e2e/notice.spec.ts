/**
 * お知らせ in the browser: 管理 saves a notice for 配送 under /system/notice (the システム menu's お知らせ); a 配送 user sees
 * it on the home page, a 経理 user does not.
 */
import { expect, test } from '@playwright/test';
import { setPassword } from './db';
import { login, trackErrors } from './fixtures';

const DELIVERY = { email: 'watanabe@example.jp', password: 'e2e-notice-pass-2026' }; // 配送
const ACCOUNTING = { email: 'nakamura@example.jp', password: 'e2e-notice-pass-2026' }; // 経理
const title = `配送の皆さんへ ${Date.now().toString().slice(-6)}`;

test('a notice saved by 管理 for 配送 shows on a 配送 user\'s home page and not on a 経理 user\'s', async ({ browser }) => {
  await setPassword(DELIVERY.email, DELIVERY.password);
  await setPassword(ACCOUNTING.email, ACCOUNTING.password);

  const admin = await browser.newPage();
  const errors = trackErrors(admin);
  await login(admin);
  await admin.goto('/#/system/notice/new');
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('お知らせ登録');
  await admin.getByLabel('タイトル', { exact: true }).fill(title);
  await admin.getByLabel('本文', { exact: true }).fill('明日は渋滞が予想されます。');
  await admin.getByLabel('表示する権限', { exact: true }).selectOption({ label: '配送' });
  await admin.getByRole('button', { name: '保存' }).click();
  await expect(admin.getByText('保存しました。')).toBeVisible();
  expect(errors).toEqual([]);
  await admin.close();

  const delivery = await browser.newPage();
  await login(delivery, DELIVERY.email, DELIVERY.password);
  const notices = delivery.getByRole('list', { name: 'お知らせ' });
  await expect(notices).toContainText(title);
  await expect(notices).toContainText('明日は渋滞が予想されます。');
  await delivery.close();

  const accounting = await browser.newPage();
  await login(accounting, ACCOUNTING.email, ACCOUNTING.password);
  await expect(accounting.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(accounting.getByRole('list', { name: '今日の仕事' })).toBeVisible();
  await expect(accounting.getByText(title)).toHaveCount(0);
  await accounting.close();
});
