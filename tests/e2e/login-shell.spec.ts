import { expect, test } from '@playwright/test';
import { E2E, login, trackErrors } from './fixtures';

test('a wrong password shows the server\'s Japanese message in an alert', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('メールアドレス').fill(E2E.adminEmail);
  await page.getByLabel('パスワード').fill('wrong-password');
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page.getByRole('alert')).toContainText('メールアドレスまたはパスワードが正しくありません。');
  await expect(page.getByRole('banner')).toHaveCount(0);
});

test('logging in lands on the home screen and the clock ticks every second', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await expect(page.getByRole('main')).toBeVisible();
  const clock = page.getByLabel('現在時刻');
  await expect(clock).toContainText(/\d{2}:\d{2}:\d{2}/);
  await expect(clock).toContainText(/\d{4}-\d{2}-\d{2}/);
  await expect(clock).toContainText(/Sun|Mon|Tue|Wed|Thu|Fri|Sat/);
  const first = await clock.textContent();
  await expect.poll(async () => clock.textContent(), { timeout: 3000 }).not.toBe(first);
  expect(errors).toEqual([]);
});

test('the side menu toggles between 40px and 180px and keeps its state after reload', async ({ page }) => {
  await login(page);
  const nav = page.getByRole('navigation', { name: 'メニュー' });
  const width = async () => Math.round((await nav.boundingBox())!.width);
  const initial = await width();
  expect([40, 180]).toContain(initial);
  const toggle = page.getByRole('button', { name: /メニューを(開く|閉じる)/ });
  await toggle.click();
  await expect.poll(width).toBe(initial === 180 ? 40 : 180);
  const after = await width();
  await page.reload();
  await expect(nav).toBeVisible();
  await expect.poll(width).toBe(after);
});

test('the shell has its landmarks, a 40px header and 62.5 % base font', async ({ page }) => {
  await login(page);
  const header = page.getByRole('banner');
  expect(Math.round((await header.boundingBox())!.height)).toBe(40);
  await page.goto('/#/client/list');
  await expect(page.getByRole('navigation', { name: 'パンくずリスト' })).toContainText('顧客一覧');
  const fontSize = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  expect(fontSize).toBe('10px');
});

test('an unknown route shows the Japanese not-found screen', async ({ page }) => {
  await login(page);
  await page.goto('/#/no/such/screen');
  await expect(page.getByRole('main')).toContainText('ページが見つかりません');
});

test('the app works under /dev/ and its links keep the /dev prefix', async ({ page }) => {
  await login(page, E2E.adminEmail, E2E.adminPassword, '/dev/');
  expect(new URL(page.url()).pathname).toBe('/dev/');
  await page.getByRole('navigation', { name: 'メニュー' }).getByRole('link', { name: '顧客一覧' }).click();
  await expect(page.getByRole('heading', { name: '顧客一覧' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/dev/');
  expect(new URL(page.url()).hash).toBe('#/client/list');
});

test('logout clears every stored user datum and list preference', async ({ page }) => {
  await login(page);
  await page.goto('/#/client/list');
  await expect(page.getByRole('table')).toBeVisible();
  await page.getByRole('button', { name: /ユーザー/ }).click();
  await page.getByRole('menuitem', { name: 'ログアウト' }).click();
  await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
  const keys = await page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith('hod.')));
  expect(keys).toEqual([]);
});
