import { expect, test } from '@playwright/test';
import { expireKeys, setPassword } from './db';
import { E2E, login } from './fixtures';

const STAFF = { email: 'watanabe@example.jp', password: 'e2e-staff-pass-2026' }; // 配送

test.beforeAll(async () => {
  await setPassword(STAFF.email, STAFF.password);
});

async function menuEntries(page: import('@playwright/test').Page, menu: RegExp): Promise<string[]> {
  await page.getByRole('banner').getByRole('button', { name: menu }).click();
  const entries = await page.getByRole('menu').getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  return entries.map((e) => e.trim());
}

test('admin and non-admin menus differ as the spec says', async ({ page }) => {
  await login(page);
  expect(await menuEntries(page, /^入力/)).toEqual(['受注取込', '送り状取込', 'JACCS 取込', '送り状出力', '会計連携（弥生）', 'データダウンロード']);
  const adminUser = await menuEntries(page, /管理者|ユーザー/);
  expect(adminUser).toEqual(expect.arrayContaining(['プロフィール', 'ユーザー一覧', 'ユーザー追加', '権限管理']));
  const adminSystem = await menuEntries(page, /^システム/);
  expect(adminSystem).toHaveLength(11);

  await page.getByRole('banner').getByRole('button', { name: /管理者|ユーザー/ }).click();
  await page.getByRole('menuitem', { name: 'ログアウト' }).click();

  await login(page, STAFF.email, STAFF.password);
  expect(await menuEntries(page, /^入力/)).toEqual(['受注取込', '送り状取込', 'JACCS 取込', '送り状出力', '会計連携（弥生）']);
  const staffUser = await menuEntries(page, /渡辺|ユーザー/);
  expect(staffUser).toContain('プロフィール');
  expect(staffUser).not.toContain('ユーザー一覧');
  expect(staffUser).not.toContain('権限管理');
  // The System menu is not filtered by role.
  expect(await menuEntries(page, /^システム/)).toEqual(adminSystem);
});

test('a 配送 user can read customers but the server refuses their edits', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  await page.goto('/#/client/detail/1');
  await expect(page.getByLabel('会社名', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: '保存' })).toHaveCount(0);
  const answer = await page.evaluate(async () => {
    const body = new URLSearchParams({ authKey: JSON.parse(localStorage.getItem('hod.authKey') ?? '""') as string, id: '1', postData: JSON.stringify({ co_name: '改ざん' }) });
    const res = await fetch('/api/db/client_save', { method: 'POST', body });
    return { status: res.status, body: (await res.json()) as unknown };
  });
  expect(answer.status).toBe(403);
  expect(answer.body).toEqual([{ error: 'この操作を行う権限がありません。' }]);
});

test('an expired auth key logs the user out on the next call', async ({ page }) => {
  await login(page);
  await page.goto('/#/client/list');
  await expect(page.getByRole('table')).toBeVisible();
  expireKeys(E2E.adminEmail);
  // The next call, whichever it is (a background refresh of the list may come first), answers the auth-key error.
  await page.goto('/#/item/list');
  await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('hod.')));
  expect(keys).toEqual([]);
});
