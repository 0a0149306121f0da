/**
 * The one browser walk-through every resource's screens must pass: create from the new screen,
 * find it by keyword in the list, open and edit it, delete it after the confirmation. Each
 * resource's spec describes only its fields.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** How a field is filled: typed text, an option picked by its text, a record picked by keyword, a checkbox. */
export type FieldInputValue = string | { select: string } | { pick: string; option?: string | RegExp } | { check: boolean };

export interface CrudCase {
  /** The new-record route, e.g. `/item/new`. */
  newPath: string;
  /** The list route, e.g. `/item/list`. */
  listPath: string;
  /** Field label → value, in the order they are filled (fields on other tabs name the tab: `{ tab: '在庫・容器' }`). */
  fill: readonly (readonly [string, FieldInputValue] | { tab: string })[];
  /** A unique text of the record that the list's keyword search finds. */
  keyword: string;
  /** One field changed on the detail screen, and its new value. */
  edit: readonly [string, string];
  /**
   * For a record that lives under another one: `listPath` is the parent's detail and this names the
   * tab of its 関連情報 that lists the record (e.g. a customer's 休配・スキップ).
   */
  listTab?: string;
}

/** Opens a case's list (the parent's related tab when `listTab` is set) and searches its keyword; answers where the list is. */
async function openList(page: Page, c: CrudCase): Promise<Page | Locator> {
  await page.goto(`/#${c.listPath}`);
  const scope = c.listTab ? page.getByRole('region', { name: '関連情報' }) : page;
  if (c.listTab) await scope.getByRole('tab', { name: c.listTab }).click();
  await searchList(scope, c.keyword);
  return scope;
}

/** Fills one labelled field. */
export async function fillField(page: Page, label: string, value: FieldInputValue): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  if (typeof value === 'string') {
    await input.fill(value);
  } else if ('select' in value) {
    await input.selectOption({ label: value.select });
  } else if ('check' in value) {
    await input.setChecked(value.check);
  } else {
    await input.fill(value.pick);
    const option = page.getByRole('listbox').getByRole('option', { name: value.option ?? new RegExp(value.pick) }).first();
    await option.click();
    await expect(page.getByRole('listbox')).toHaveCount(0);
  }
}

/** Opens a list's 詳細検索 panel (it starts folded when no filter is set). */
export async function openFilters(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /詳細検索/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** Types a keyword into a list's keyword box (the first one in `scope`) and searches. */
export async function searchList(scope: Page | Locator, keyword: string): Promise<void> {
  const box = scope.getByLabel('キーワード').first();
  await box.fill(keyword);
  await box.press('Enter');
}

/** Fills a form from a case's `fill` steps (switching tabs where asked). */
export async function fillForm(page: Page, steps: CrudCase['fill']): Promise<void> {
  for (const step of steps) {
    if ('tab' in step) await page.getByRole('tab', { name: step.tab }).click();
    else await fillField(page, step[0], step[1]);
  }
}

/**
 * Create → find by keyword → edit → delete with confirmation; answers the new record's detail path.
 * @example await crudRoundTrip(page, { newPath: '/item/new', listPath: '/item/list', fill: [['商品名', '天然水']], keyword: '天然水', edit: ['商品名', '天然水2'] })
 */
export async function crudRoundTrip(page: Page, c: CrudCase): Promise<string> {
  await page.goto(`/#${c.newPath}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('登録');
  await fillForm(page, c.fill);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await expect(page).toHaveURL(/\/detail\/\d+$|\/\d+$/);
  const detailPath = new URL(page.url()).hash.slice(1);

  const table = (await openList(page, c)).getByRole('table');
  // One row found (a money list also has its total row, in the table's foot).
  await expect(table.locator('tbody').getByRole('row')).toHaveCount(1);
  await table.getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`#${detailPath.replace(/[/]/g, '\\/')}$`));
  // The record is drawn (its delete button shows once it is read): the list may still be on screen when the address changes.
  await expect(page.getByRole('button', { name: '削除', exact: true })).toBeVisible();

  const [label, value] = c.edit;
  const firstTab = page.getByRole('tab').first();
  if (await firstTab.count()) await firstTab.click();
  await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);

  await page.getByRole('button', { name: '削除', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('このデータを本当に削除しますか？');
  await dialog.getByRole('button', { name: /削除|OK|はい/ }).click();
  await expect(page.getByText('削除しました。')).toBeVisible();
  await expect((await openList(page, c)).getByText('該当するデータはありません。')).toBeVisible();
  return detailPath;
}
