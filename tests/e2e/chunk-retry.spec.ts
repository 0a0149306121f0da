import { expect, test } from '@playwright/test';
import { login } from './fixtures';

test('a screen chunk that fails to load shows a retry message, and retrying loads it', async ({ page }) => {
  await login(page);
  // From now on every script chunk fails, as on a flaky network or after a deploy.
  await page.route('**/_next/static/chunks/**', (route) => route.abort());
  await page.goto('/#/client/list');
  await expect(page.getByRole('main')).toContainText('画面の読み込みに失敗しました。');
  await page.unroute('**/_next/static/chunks/**');
  await page.getByRole('button', { name: '再読み込み' }).click();
  await expect(page.getByRole('heading', { name: '顧客一覧' })).toBeVisible();
});
