import { expect, test, type Browser, type Page } from '@playwright/test';
import { AREAS } from '../../lib/permissions';
import { crudRoundTrip, fillForm } from './crud';
import { E2E, login } from './fixtures';

const ROLE = 'E2E係';
const MEMBER = { name: '検証 太郎', email: 'e2e-member@example.jp', password: 'member-pass-2026', newPassword: 'member-pass-2027' };

/** Logs out through the user menu. */
async function logout(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: /ユーザー/ }).click();
  await page.getByRole('menuitem', { name: 'ログアウト' }).click();
  await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
}

/** Calls the database API with the page's own auth key; answers the HTTP status. */
async function callStatus(page: Page, name: string): Promise<number> {
  return page.evaluate(async (call) => {
    const body = new URLSearchParams({ authKey: JSON.parse(localStorage.getItem('hod.authKey') ?? '""') as string });
    return (await fetch(`/api/db/${call}`, { method: 'POST', body })).status;
  }, name);
}

/** A second, separate browser session (its own local storage). */
async function otherSession(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: E2E.baseURL, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  return context.newPage();
}

const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'メニュー' });

test('an admin creates, finds, edits and deletes a user', async ({ page }) => {
  await login(page);
  await crudRoundTrip(page, {
    newPath: '/user/new',
    listPath: '/user/list',
    fill: [
      ['氏名', '一時 花子'],
      ['氏名カナ', 'イチジ ハナコ'],
      ['メールアドレス', 'E2E-Temp@Example.jp'],
      ['権限', { select: '営業' }],
      ['チーム', '営業チーム'],
      ['パスワード', 'temp-pass-2026'],
    ],
    keyword: 'e2e-temp',
    edit: ['チーム', '第二営業チーム'],
  });
});

test('a new user needs a password of at least 8 characters', async ({ page }) => {
  await login(page);
  await page.goto('/#/user/new');
  await fillForm(page, [['氏名', '短い パス'], ['メールアドレス', 'short-pass@example.jp'], ['権限', { select: '経理' }]]);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('パスワードを入力してください。').first()).toBeVisible();
  await page.getByLabel('パスワード', { exact: true }).fill('1234567');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('パスワードは8文字以上で入力してください。').first()).toBeVisible();
  await expect(page).toHaveURL(/#\/user\/new$/);
});

test('a role changed on the role matrix changes what its users may open and call', async ({ page, browser }) => {
  // The admin adds a role that may only read customers, and a user holding it.
  await login(page);
  await page.goto('/#/user/role/');
  const matrix = page.getByRole('table');
  for (const label of ['権限名', ...Object.values(AREAS)]) await expect(matrix.getByRole('columnheader', { name: label, exact: true })).toBeVisible();
  await expect(matrix.getByRole('rowheader', { name: '管理' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '管理：顧客' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: '営業：顧客' })).toHaveValue('write');
  await page.getByRole('button', { name: '権限を追加' }).click();
  await page.getByRole('textbox', { name: '権限名：新しい権限' }).fill(ROLE);
  await page.getByRole('combobox', { name: `${ROLE}：顧客` }).selectOption({ label: '閲覧' });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page.getByRole('textbox', { name: `権限名：${ROLE}` })).toBeVisible();
  await expect(page.getByRole('combobox', { name: `${ROLE}：顧客` })).toHaveValue('read');

  await page.goto('/#/user/new');
  await fillForm(page, [
    ['氏名', MEMBER.name], ['氏名カナ', 'ケンショウ タロウ'], ['メールアドレス', MEMBER.email], ['権限', { select: ROLE }], ['パスワード', MEMBER.password],
  ]);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(/#\/user\/detail\/\d+$/);

  // The role is in use now: deleting it is refused with a reason.
  await page.goto('/#/user/role/');
  await page.getByRole('button', { name: `${ROLE}を削除` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '削除する' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `権限「${ROLE}」は1人のユーザーに設定されているため削除できません。` })).toBeVisible();

  // The member sees customers only; the server refuses contacts.
  const member = await otherSession(browser);
  await login(member, MEMBER.email, MEMBER.password);
  await expect(sideMenu(member).getByRole('link', { name: '顧客一覧' })).toBeVisible();
  await expect(sideMenu(member).getByRole('link', { name: '対応履歴' })).toHaveCount(0);
  await expect(sideMenu(member).getByRole('link', { name: '顧客登録' })).toHaveCount(0);
  expect(await callStatus(member, 'contact_lst')).toBe(403);
  await member.goto('/#/contact/list');
  await expect(member.getByRole('heading', { name: 'この画面を表示する権限がありません' })).toBeVisible();

  // The admin gives the role 対応履歴・営業報告 at write.
  await page.getByRole('combobox', { name: `${ROLE}：対応履歴・営業報告` }).selectOption({ label: '編集' });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  // The server lets the member's very next call through; the menus follow on the next page load.
  expect(await callStatus(member, 'contact_lst')).toBe(200);
  await member.reload();
  await expect(sideMenu(member).getByRole('link', { name: '対応履歴' })).toBeVisible();
  await member.goto('/#/contact/list');
  await expect(member.getByRole('heading', { name: '対応履歴一覧' })).toBeVisible();
  await expect(member.getByRole('link', { name: '新規登録' })).toBeVisible();
  await member.context().close();
});

test('a stale edit on the role matrix is refused, and the latest roles can be loaded', async ({ page }) => {
  await login(page);
  await page.goto('/#/user/role/');
  await page.getByRole('combobox', { name: `${ROLE}：受注` }).selectOption({ label: '閲覧' });
  // Meanwhile the role is saved elsewhere (another admin's tab).
  const status = await page.evaluate(async (name) => {
    const authKey = JSON.parse(localStorage.getItem('hod.authKey') ?? '""') as string;
    const rows = (await (await fetch('/api/db/role_lst', { method: 'POST', body: new URLSearchParams({ authKey }) })).json()) as Record<string, string>[];
    const role = rows.find((r) => r.role_name === name)!;
    const areas = { ...(JSON.parse(role.role_areas) as Record<string, string>), stock: 'read' };
    const postData = JSON.stringify({ areas: JSON.stringify(areas), modified: role.modified });
    return (await fetch('/api/db/role_save', { method: 'POST', body: new URLSearchParams({ authKey, id: String(role.role_id), postData }) })).status;
  }, ROLE);
  expect(status).toBe(200);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('status').filter({ hasText: `権限「${ROLE}」は他のユーザーが先に更新したため保存できませんでした。` })).toBeVisible();
  await expect(page.getByRole('combobox', { name: `${ROLE}：受注` })).toHaveValue('read');
  await page.getByRole('button', { name: /最新の内容を読み込む/ }).click();
  await expect(page.getByRole('combobox', { name: `${ROLE}：商品・サーバー・ボトル・倉庫` })).toHaveValue('read');
  await expect(page.getByRole('combobox', { name: `${ROLE}：受注` })).toHaveValue('none');
  await expect(page.getByRole('button', { name: '保存' })).toBeDisabled();
});

test('a non-admin edits their own profile and password, and nothing else', async ({ page }) => {
  await login(page, MEMBER.email, MEMBER.password);
  await page.getByRole('banner').getByRole('button', { name: /ユーザー/ }).click();
  const userMenu = await page.getByRole('menu').getByRole('menuitem').allTextContents();
  expect(userMenu.map((e) => e.trim())).toEqual(['プロフィール', 'ログアウト']);
  await page.getByRole('menuitem', { name: 'プロフィール' }).click();
  await expect(page).toHaveURL(/#\/user\/detail\/\d+$/);
  await expect(page.getByLabel('氏名', { exact: true })).toHaveValue(MEMBER.name);
  // Fields the member may not change are shown as values, not as inputs.
  await expect(page.getByLabel('権限', { exact: true })).toHaveValue(ROLE);
  await expect(page.getByLabel('権限', { exact: true })).not.toBeEditable();
  await expect(page.getByLabel('チーム', { exact: true })).not.toBeEditable();
  await expect(page.getByLabel('有効', { exact: true })).toHaveValue('はい');
  await expect(page.getByText('権限・チーム・有効は管理者だけが変更できます。')).toBeVisible();
  await expect(page.getByRole('button', { name: '削除', exact: true })).toHaveCount(0);

  await page.getByLabel('氏名', { exact: true }).fill('検証 次郎');
  await page.getByLabel('パスワード', { exact: true }).fill(MEMBER.newPassword);
  await page.getByLabel('現在のパスワード', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('現在のパスワードが正しくありません。').first()).toBeVisible();
  await page.getByLabel('現在のパスワード', { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page.getByLabel('現在のパスワード', { exact: true })).toHaveValue('');

  // Another user's profile is refused by the server.
  await page.goto('/#/user/detail/1');
  await expect(page.getByRole('alert').filter({ hasText: 'この操作を行う権限がありません。' })).toBeVisible();
  await expect(page.getByLabel('氏名', { exact: true })).toHaveCount(0);

  await logout(page);
  await login(page, MEMBER.email, MEMBER.newPassword);
  await expect(page.getByRole('banner').getByRole('button', { name: 'ユーザー：検証 次郎' })).toBeVisible();
});
