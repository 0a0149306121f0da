import { expect, test } from '@playwright/test';
import { fillPath, ROUTES } from '../../lib/routes';
import { login, trackErrors } from './fixtures';

test('every route in the table opens with its title and breadcrumb, without an error', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = trackErrors(page);
  await login(page);
  for (const route of ROUTES) {
    const path = fillPath(route.path, Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, '1'])));
    await page.goto(`/#${path}`);
    const main = page.getByRole('main');
    await expect(main, path).not.toContainText('ページが見つかりません');
    await expect(main, path).not.toContainText('画面の読み込みに失敗しました');
    if (route.path !== '/') {
      await expect(page.getByRole('navigation', { name: 'パンくずリスト' }), path).toContainText(route.title);
    }
    await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
  }
  expect(errors).toEqual([]);
});
