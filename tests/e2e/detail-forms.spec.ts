/**
 * What staff see on the detail screens (issue 10, forms): every select shows the stored value however
 * the screen was reached, no raw ids or codes, each keyword box names what it searches, long text is
 * never cut silently, and the leave guard keeps the address bar on the edited record.
 */
import { expect, test, type Page } from '@playwright/test';
import { RESOURCES } from '../../lib/resources';
import { ORDER_SETTING_ID } from '../../lib/resources/order-setting';
import { labelColumnOf, titleOf, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { fillPath, ROUTES, type ResourceScreen } from '../../lib/routes';
import { formatDateTime } from '../../lib/format';
import { readRow, setPassword, writeRows } from './db';
import { login, trackErrors } from './fixtures';

type Row = Record<string, unknown>;

/** A customer's name as screens show it. */
const titleOfRow = (row: Row): string => titleOf(RESOURCES.client, row);

/** Checks that report every mismatch of a walk, not only the first. */
const soft = expect.configure({ soft: true });

/** One call of the database API with the logged-in page's auth key. */
async function api<T = Row>(page: Page, name: string, params: Record<string, string> = {}): Promise<T[]> {
  return page.evaluate(
    async ({ name, params }) => {
      const authKey = JSON.parse(localStorage.getItem('hod.authKey') ?? '""') as string;
      const res = await fetch(`/api/db/${name}`, { method: 'POST', body: new URLSearchParams({ authKey, ...params }) });
      return (await res.json()) as T[];
    },
    { name, params },
  );
}

/** A select of options (fixed or a master), or a `ref` drawn as a select (it has a master). */
const isSelect = (f: FieldDef) => f.type === 'select' || (f.type === 'ref' && Boolean(f.master));

interface DetailCase {
  path: string;
  def: ResourceDef;
  /** The route parameter holding the id, and the parent's (a record under a customer). */
  idParam: string;
  /** The record a route without an id parameter shows (the order settings). */
  fixedId?: string;
  parent?: ResourceScreen['parent'];
}

/** Every route that shows one record in a form: the generic detail routes, the order screen, the order settings. */
function detailCases(): DetailCase[] {
  const out: DetailCase[] = [];
  for (const route of ROUTES) {
    const s = route.screen;
    if (s.kind === 'detail') out.push({ path: route.path, def: RESOURCES[s.resource], idParam: s.idParam ?? 'id', parent: s.parent });
  }
  out.push({ path: '/orders/detail/:odr', def: RESOURCES.order, idParam: 'odr' });
  out.push({ path: '/system/orders', def: RESOURCES.ordersetting, idParam: '', fixedId: String(ORDER_SETTING_ID) });
  return out;
}

/** The seeded record of a resource with the most filled selects (among its first 20). */
async function richestRecord(page: Page, def: ResourceDef): Promise<Row | undefined> {
  const rows = await api(page, `${def.name}_lst`, { n: '20', p: '1', col: def.list.defaultSort.col, odr: def.list.defaultSort.odr, kw: '', postData: '{}' });
  let best: Row | undefined;
  let bestCount = -1;
  for (const row of rows) {
    const [record] = await api(page, `${def.name}_dtl`, { id: String(row[`${def.prefix}id`]) });
    if (!record) continue;
    const count = def.fields.filter((f) => isSelect(f) && record[`${def.prefix}${f.name}`] !== null && record[`${def.prefix}${f.name}`] !== '').length;
    if (count > bestCount) [best, bestCount] = [record, count];
  }
  return best;
}

/** What a select must show for a record: the option's text, 「（未選択）」 when empty, the stored name or code when no option has it. */
async function expectedText(page: Page, def: ResourceDef, field: FieldDef, record: Row, masters: Map<string, { value: string; text: string }[]>): Promise<RegExp | string> {
  const raw = record[`${def.prefix}${field.name}`];
  if (raw === null || raw === undefined || raw === '') return '（未選択）';
  const value = String(raw);
  let options = field.options as { value: string; text: string }[] | undefined;
  if (!options && field.master) {
    if (!masters.has(field.master)) masters.set(field.master, await api<{ value: string; text: string }>(page, 'master_lst', { table: field.master }));
    options = masters.get(field.master);
  }
  const option = options?.find((o) => String(o.value) === value);
  if (option) return option.text;
  const label = record[labelColumnOf(def, field.name)];
  return new RegExp(String(label || value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

test('every select on every detail route shows the stored value after a reload, even when the options arrive after the record', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = trackErrors(page);
  await login(page);
  // The masters answer late: the record is on screen before its selects have their options.
  await page.route('**/api/db/master_lst', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  const masters = new Map<string, { value: string; text: string }[]>();
  const checked: string[] = [];
  for (const c of detailCases()) {
    const selects = c.def.fields.filter(isSelect);
    if (selects.length === 0) continue;
    const record = c.fixedId ? (await api(page, `${c.def.name}_dtl`, { id: c.fixedId }))[0] : await richestRecord(page, c.def);
    if (!record) continue;
    const params: Record<string, string> = c.idParam ? { [c.idParam]: String(record[`${c.def.prefix}id`]) } : {};
    if (c.parent) {
      const parentId = record[`${c.def.prefix}${c.parent.field}`];
      if (!parentId) continue;
      params[c.parent.param] = String(parentId);
    }
    const path = fillPath(c.path, params);
    await page.goto(`/#${path}`);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
    const shipping = page.locator('details summary', { hasText: '配送先' });
    if (await shipping.count()) await shipping.click();
    for (const tab of c.def.tabs) {
      // A read-only select is shown as text (its option's), not as a select.
      const fields = selects.filter((f) => f.tab === tab.key && !f.readOnly);
      if (fields.length === 0) continue;
      const tabButton = page.getByRole('tablist', { name: `${c.def.label}情報` }).getByRole('tab', { name: tab.label });
      if (await tabButton.count()) await tabButton.click();
      for (const field of fields) {
        const select = page.getByLabel(field.label, { exact: true });
        if ((await select.count()) === 0) continue;
        const want = await expectedText(page, c.def, field, record, masters);
        // A record the user does not edit (a slip the system made) shows the select as its value; empty reads as 未選択.
        const shown = async () => select.evaluate((el) => (el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.textContent ?? '') : (el as HTMLInputElement).value || '（未選択）'));
        const poll = soft.poll(shown, { message: `${path} ${field.label}`, timeout: 5_000 });
        await (typeof want === 'string' ? poll.toBe(want) : poll.toMatch(want));
        checked.push(`${path} ${field.label}`);
      }
    }
  }
  expect(checked.length).toBeGreaterThan(30);
  expect(errors).toEqual([]);
});

test('a stored value its master no longer offers is shown by its name or code, and a save keeps it', async ({ page }) => {
  await login(page);
  // The last customers: other specs work with the first ones.
  const client = readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 ORDER BY cl_id DESC LIMIT 1');
  const stamp = new Date().toISOString();
  // A rank retired from its master (the row is deleted), and an area code no master ever had.
  writeRows("INSERT INTO master_option (mo_table, mo_value, mo_text, mo_flg, mo_sort, created, modified, deleted) VALUES ('mt_rank', 'Z9', '旧ランクＺ', 0, 999, ?, ?, 1)", stamp, stamp);
  writeRows("UPDATE client SET cl_rank = 'Z9', cl_area = 'A99' WHERE cl_id = ?", client.cl_id);
  await page.goto(`/#/client/detail/${client.cl_id}`);
  await page.reload();
  await page.getByRole('tab', { name: '分類' }).click();
  const shown = (label: string) => page.getByLabel(label, { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
  await expect.poll(() => shown('ランク')).toBe('旧ランクＺ（現在の選択肢にありません）');
  await expect.poll(() => shown('エリア')).toBe('A99（現在の選択肢にありません）');
  // Saving another change keeps both values.
  await page.getByLabel('属性', { exact: true }).fill('保存テスト');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  expect(readRow<{ cl_rank: string; cl_area: string }>('SELECT cl_rank, cl_area FROM client WHERE cl_id = ?', client.cl_id)).toEqual({ cl_rank: 'Z9', cl_area: 'A99' });
});

test('one’s own profile shows one’s role after a reload (a locked select too)', async ({ page }) => {
  const staff = { email: 'watanabe@example.jp', password: 'e2e-forms-pass-2026' };
  await setPassword(staff.email, staff.password);
  await login(page, staff.email, staff.password);
  await page.getByRole('banner').getByRole('button', { name: /渡辺|ユーザー/ }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'プロフィール' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('ユーザー');
  await page.route('**/api/db/master_lst', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await page.reload();
  const role = page.getByLabel('権限', { exact: true });
  // A field one may not change is shown as its value: the role's name, which the detail answers with the record.
  await expect(role).not.toBeEditable();
  await expect(role).toHaveValue('配送');
});

/** Edits a customer reached from its list, presses Back, answers 「編集を続ける」, and checks the form and the address bar. */
async function backAndStay(page: Page): Promise<void> {
  await page.goto('/#/client/list');
  // The list opened as a page of its own (F5, a bookmark): its history entry carries the framework's state.
  await page.reload();
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page).toHaveURL(/#\/client\/detail\/\d+$/);
  const detailUrl = page.url();
  await page.getByLabel('部署', { exact: true }).fill('戻る確認部');
  // Counts the framework's writes of its own history entries (`__NA`), however late they land.
  await page.evaluate(() => {
    const counted = window as Window & { frameworkWrites?: number };
    counted.frameworkWrites = 0;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the page's History (`inner.call(history, …)`)
    const inner = history.replaceState;
    history.replaceState = function replaceState(this: History, state: unknown, unused: string, url?: string | URL | null) {
      inner.call(history, state, unused, url);
      if ((state as { __NA?: boolean } | null)?.__NA) counted.frameworkWrites = (counted.frameworkWrites ?? 0) + 1;
    };
  });
  await page.goBack();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('保存されていない変更があります');
  await dialog.getByRole('button', { name: '編集を続ける' }).click();
  await expect(dialog).toHaveCount(0);
  // The framework's answer to Back has landed: the address bar is checked after it, not after a guessed time.
  await page.waitForFunction(() => ((window as Window & { frameworkWrites?: number }).frameworkWrites ?? 0) > 0);
  expect(page.url()).toBe(detailUrl);
  await expect(page.getByLabel('部署', { exact: true })).toHaveValue('戻る確認部');
  // Back again, and leaving on purpose, goes to the list.
  await page.goBack();
  await page.getByRole('alertdialog').getByRole('button', { name: 'このページを離れる' }).click();
  await expect(page).toHaveURL(/#\/client\/list$/);
  await expect(page.getByRole('heading', { name: '顧客一覧' })).toBeVisible();
}

test('the leave guard: Back on an edited customer, 「編集を続ける」 keeps the form and the address bar on the record', async ({ page }) => {
  await login(page);
  await backAndStay(page);
});

test('the leave guard keeps the address bar when the framework answers Back late', async ({ page }) => {
  await page.addInitScript(() => {
    // Next's router answers a popped entry of its own by writing that entry's URL back with replaceState,
    // inside a React transition that may commit after the guard has restored the edited record. Here every
    // write of the framework's state lands late, through whatever wraps replaceState.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the page's History (`fn.call(history, …)`)
    let installed = History.prototype.replaceState;
    // The whole call lands late, once: the wrappers it passes through run together, as in a late commit.
    let landing = false;
    Object.defineProperty(history, 'replaceState', {
      configurable: true,
      get() {
        const fn = installed;
        return function replaceState(this: History, state: unknown, unused: string, url?: string | URL | null) {
          const write = () => fn.call(history, state, unused, url);
          if (landing || !(state as { __NA?: boolean } | null)?.__NA || document.readyState !== 'complete') {
            write();
            return;
          }
          setTimeout(() => {
            landing = true;
            try {
              write();
            } finally {
              landing = false;
            }
          }, 50);
        };
      },
      set(fn: History['replaceState']) {
        installed = fn;
      },
    });
  });
  await login(page);
  await backAndStay(page);
});

test('the leave guard keeps the address bar in browsers without the Navigation API', async ({ page }) => {
  // Firefox before 147 and Safari before 26.2 have no `navigation.currentEntry`.
  await page.addInitScript(() => Object.defineProperty(window, 'navigation', { value: undefined }));
  await login(page);
  await backAndStay(page);
});

test('each keyword box names what its resource searches: lists, a customer’s related lists and the record pickers', async ({ page }) => {
  await login(page);
  const lists: [string, RegExp][] = [
    ['/client/list', /^会社名・氏名・電話番号/],
    ['/item/list', /^商品コード・商品名/],
    ['/server/list', /^製造番号・機種/],
    ['/user/list', /^氏名・メールアドレス/],
    ['/contact/list', /^件名・内容/],
    ['/bottle/list', /^備考/],
    ['/warehouse/list', /^倉庫コード・倉庫名/],
    ['/orders/list/search', /^受注番号/],
  ];
  for (const [path, hint] of lists) {
    await page.goto(`/#${path}`);
    await expect(page.getByLabel('キーワード').first(), path).toHaveAttribute('placeholder', hint);
  }
  await page.goto('/#/system/master/?table=mt_bank');
  await expect(page.getByLabel('キーワード')).toHaveAttribute('placeholder', /^コード・名称/);
  // A customer's related list searches contacts, not customers.
  const client = readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 ORDER BY cl_id LIMIT 1');
  await page.goto(`/#/client/detail/${client.cl_id}`);
  const related = page.getByRole('region', { name: '関連情報' });
  await related.getByRole('tab', { name: '対応履歴' }).click();
  await expect(related.getByLabel('キーワード')).toHaveAttribute('placeholder', /^件名・内容/);
  // The order form's pickers: the customer by its name and phone, the product by its code and name.
  await page.goto('/#/orders/new');
  await expect(page.getByLabel('顧客', { exact: true })).toHaveAttribute('placeholder', /^顧客を検索（会社名・氏名・電話番号/);
  await expect(page.getByLabel('1行目の商品')).toHaveAttribute('placeholder', /^商品を検索（商品コード・商品名/);
});

test('long text is never cut silently: the limit is shown, more is refused, and a paste that overflows says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await login(page);
  // A textarea shows its limit.
  await page.goto('/#/orders/new');
  await page.getByLabel('備考', { exact: true }).fill('配送前に電話');
  await expect(page.getByText('6/4000文字')).toBeVisible();
  await page.getByLabel('備考', { exact: true }).fill('');
  const client = readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 ORDER BY cl_id LIMIT 1');
  await page.goto(`/#/client/detail/${client.cl_id}`);
  await page.getByRole('tab', { name: '備考・その他' }).click();
  const biko = page.getByLabel('備考1', { exact: true });
  await expect(page.getByText('0/200文字').or(page.getByText(/^\d+\/200文字$/)).first()).toBeVisible();
  const text = 'あ'.repeat(150) + 'い'.repeat(150);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await biko.fill('');
  await biko.focus();
  await page.keyboard.press('Control+V');
  await expect(biko).toHaveValue(text.slice(0, 200));
  await expect(page.getByText('200/200文字')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: '備考1' })).toContainText('100文字は上限（200文字）を超えるため入力されませんでした');
  // At the limit, typing adds nothing.
  await page.keyboard.type('う');
  await expect(biko).toHaveValue(text.slice(0, 200));
});

/** The texts of a select's options (without the empty choice). */
const optionTexts = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((el) => [...(el as HTMLSelectElement).options].filter((o) => o.value !== '').map((o) => o.textContent ?? ''));

test('a customer’s 配送担当者, 請求親顧客 and 代理店 are pickers of the right records, never id boxes', async ({ page }) => {
  await login(page);
  // The last customers (other specs work with the first ones); the edited one has a driver already, so whether
  // its orders go with the company's own driver stays as it was.
  const customers = "SELECT cl_id, COALESCE(NULLIF(cl_co_name, ''), cl_name) AS name FROM client WHERE deleted = 0";
  const customer = readRow<{ cl_id: number; name: string }>(`${customers} AND cl_delivery_usr_id > 0 ORDER BY cl_id DESC LIMIT 1`);
  const [parent, agency] = [1, 2].map((offset) => readRow<{ cl_id: number; name: string }>(`${customers} AND cl_id <> ? ORDER BY cl_id DESC LIMIT 1 OFFSET ?`, customer.cl_id, offset));
  // An agency is a customer marked 代理店.
  await page.goto(`/#/client/detail/${agency.cl_id}`);
  await page.getByRole('tab', { name: '契約・取引' }).click();
  await page.getByLabel('代理店として扱う', { exact: true }).check();
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  await page.goto(`/#/client/detail/${customer.cl_id}`);
  await expect(page.getByLabel(/ID$/)).toHaveCount(0);
  // 配送担当者: staff who record deliveries (配送, and 管理 who may do everything), drivers first; never 経理.
  await page.getByRole('tab', { name: '定期配送' }).click();
  const staff = await api<{ user_name: string; user_role: string; user_active: number }>(page, 'user_lst', { n: '100', p: '1', col: 'user_kana', odr: 'asc', kw: '', postData: '{}' });
  const named = (role: string) => staff.filter((u) => u.user_role === role && u.user_active === 1).map((u) => u.user_name);
  expect(await optionTexts(page, '配送担当者')).toEqual([...named('配送'), ...named('管理')]);
  await page.getByLabel('配送担当者', { exact: true }).selectOption({ label: '山本 拓也' });
  // 請求親顧客: a customer found by keyword.
  await page.getByRole('tab', { name: '分類' }).click();
  const parentBox = page.getByRole('combobox', { name: '請求親顧客' });
  await parentBox.fill(parent.name);
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(parent.name) }).first().click();
  // 代理店: a select of the customers marked 代理店.
  await page.getByRole('tab', { name: '契約・取引' }).click();
  expect(await optionTexts(page, '代理店')).toEqual([agency.name]);
  await page.getByLabel('代理店', { exact: true }).selectOption({ label: agency.name });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  await page.reload();
  await page.getByRole('tab', { name: '定期配送' }).click();
  await expect.poll(() => page.getByLabel('配送担当者', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('山本 拓也');
  await page.getByRole('tab', { name: '分類' }).click();
  await expect(page.getByRole('combobox', { name: '請求親顧客' })).toHaveValue(parent.name);
  await page.getByRole('tab', { name: '契約・取引' }).click();
  await expect.poll(() => page.getByLabel('代理店', { exact: true }).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(agency.name);

  // The server refuses what the pickers do not offer: a 経理 user as driver, a customer as its own parent, a non-agency.
  const accountant = readRow<{ user_id: number }>("SELECT user_id FROM user WHERE user_email = 'nakamura@example.jp'");
  const [record] = await api(page, 'client_dtl', { id: String(customer.cl_id) });
  for (const [values, field] of [
    [{ delivery_usr_id: accountant.user_id }, 'delivery_usr_id'],
    [{ parent_id: customer.cl_id }, 'parent_id'],
    [{ dairiten_id: parent.cl_id }, 'dairiten_id'],
  ] as const) {
    const [answer] = await api<{ error?: string; fields?: Record<string, string> }>(page, 'client_save', { id: String(customer.cl_id), postData: JSON.stringify({ ...values, modified: record.modified }) });
    expect(answer.fields?.[field], field).toBeTruthy();
  }
});

test('staff see Japanese names and Japan time: 最終ログイン, the system log, the master editor, the map box', async ({ page }) => {
  await login(page);
  const nameLike = /\b[a-z]+_[a-z_]+\b|config\.json/;
  // 最終ログイン in Japan time.
  const [me] = await api(page, 'user_dtl', { id: await page.evaluate(() => String(JSON.parse(localStorage.getItem('hod.userId') ?? '0'))) });
  await page.goto(`/#/user/detail/${String(me.user_id)}`);
  await expect(page.getByLabel('最終ログイン', { exact: true })).toHaveValue(formatDateTime(String(me.user_last_login)));
  // A stock adjustment and a payment method change, as the log shows them.
  const stock = readRow<{ sk_id: number; it_id: number }>('SELECT sk_id, it_id FROM warehouse, item WHERE warehouse.deleted = 0 AND item.deleted = 0 ORDER BY sk_id, it_id LIMIT 1');
  await api(page, 'stock_adjust', { sk_id: String(stock.sk_id), postData: JSON.stringify({ it_id: stock.it_id, kind: 'in', quantity: 3, reason: 'ログ確認の入庫' }) });
  await page.goto('/#/system/log');
  const logTable = page.getByRole('table', { name: '操作ログ一覧' });
  const row = logTable.getByRole('row').nth(1);
  await expect(row).toContainText('在庫の調整');
  await expect(row).toContainText('在庫');
  await row.getByRole('button', { name: '開く' }).click();
  const detail = page.locator('[id^="row-detail-log-"]');
  await expect(detail).toContainText('在庫数');
  await expect(detail).toContainText('入庫');
  await expect(detail).toContainText('ログ確認の入庫');
  await expect(detail).not.toContainText(nameLike);
  await expect(logTable).not.toContainText(nameLike);
  // A master-backed value and a record reference are named, not coded.
  const driver = readRow<{ user_id: number; user_name: string }>("SELECT user_id, user_name FROM user WHERE user_email = 'watanabe@example.jp'");
  const someone = readRow<{ cl_id: number }>(
    "SELECT cl_id FROM client WHERE deleted = 0 AND (cl_pm_id IS NULL OR cl_pm_id <> '2') AND cl_delivery_usr_id > 0 AND cl_delivery_usr_id <> ? ORDER BY cl_id DESC LIMIT 1", driver.user_id);
  const [before] = await api(page, 'client_dtl', { id: String(someone.cl_id) });
  await api(page, 'client_save', { id: String(someone.cl_id), postData: JSON.stringify({ pm_id: '2', delivery_usr_id: driver.user_id, modified: before.modified }) });
  await page.reload();
  await expect(logTable.getByRole('row').nth(1)).toContainText('顧客の保存');
  await logTable.getByRole('row').nth(1).getByRole('button', { name: '開く' }).click();
  const change = page.locator('[id^="row-detail-log-"]').first();
  await expect(change.getByRole('row', { name: /支払方法/ })).toContainText('銀行振込');
  await expect(change.getByRole('row', { name: /配送担当者/ })).toContainText(driver.user_name);
  await expect(change).toContainText(`対象: 顧客「${titleOfRow(before)}」`);
  await expect(change).not.toContainText(nameLike);
  // The master editor names masters, not tables.
  await page.goto('/#/system/master/?table=mt_pmt_method');
  await expect(page.getByRole('heading', { name: '支払方法' })).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('mt_pmt_method');
  // The map box without a key says so in words staff can act on.
  const client = readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 ORDER BY cl_id LIMIT 1');
  await page.goto(`/#/client/detail/${client.cl_id}`);
  await expect(page.getByRole('region', { name: '地図' })).toContainText('管理者');
  await expect(page.getByRole('main')).not.toContainText('config.json');
});
