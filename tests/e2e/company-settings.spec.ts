/**
 * 自社情報 (/system/company, issue 13) in the browser: a settings form under システム — the 登録番号 whose check digit is
 * wrong is refused under its input, full-width input is converted, the right number is saved and read back; the
 * transfer account is wanted whole; 顧客コードの一括採番 previews the codes (issue 19).
 */
import { expect, test } from '@playwright/test';
import { readRow } from './db';
import { login, trackErrors } from './fixtures';

test('自社情報: the 登録番号 is checked, converted and saved; the menu opens the form', async ({ page }) => {
  const errors = trackErrors(page);
  await login(page);
  await page.goto('/#/system/company');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('自社情報');
  // The demo company's settings, seeded through the same save.
  await expect(page.getByLabel('会社名', { exact: true })).toHaveValue('アクア宅配センター');
  const number = page.getByLabel('登録番号', { exact: true });
  await expect(number).toHaveValue('T4010001234567');

  await number.fill('T4010001234568');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText(/登録番号の検査用数字（T の次の 1 桁）が残りの 12 桁と合いません/).first()).toBeVisible();

  // Full-width input becomes half-width before the check.
  await number.fill('Ｔ７００００１２０５０００２');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('登録番号', { exact: true })).toHaveValue('T7000012050002');

  // The transfer account: one part alone is refused, naming the parts missing.
  await page.getByRole('tab', { name: '振込先' }).click();
  await page.getByLabel('支店名', { exact: true }).fill('');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('振込先は銀行名・支店名・種別・口座番号・口座名義をすべて入力してください。').first()).toBeVisible();
  await page.getByLabel('支店名', { exact: true }).fill('新宿支店');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();

  await page.goto('/#/');
  await page.getByRole('banner').getByRole('button', { name: 'システム' }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: '自社情報' }).click();
  await expect(page).toHaveURL(/#\/system\/company$/);
  expect(errors).toEqual([]);
});

test('自社情報: 顧客コードの一括採番 previews which customers get which code, writing nothing', async ({ page }) => {
  const errors = trackErrors(page);
  const codeless = () => readRow<{ n: number }>("SELECT COUNT(*) AS n FROM client WHERE deleted = 0 AND (cl_code IS NULL OR cl_code = '')").n;
  const waiting = codeless();
  expect(waiting).toBeGreaterThan(0);
  await login(page);
  await page.goto('/#/system/company');
  await page.getByLabel('顧客コードの接頭辞', { exact: true }).fill('E2EC');
  await page.getByLabel('顧客コードの連番の桁数', { exact: true }).fill('6');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存しました。')).toBeVisible();
  await page.getByRole('button', { name: '採番内容を確認' }).click();
  await expect(page.getByRole('status').filter({ hasText: '顧客コードのない顧客' })).toContainText(`顧客コードのない顧客 ${waiting.toLocaleString('ja-JP')} 件に、次のコードを付けます（まだ保存していません）。`);
  await expect(page.getByRole('table', { name: '付ける顧客コード' }).getByRole('row').nth(1)).toContainText('E2EC000001');
  await expect(page.getByRole('button', { name: `この内容で採番する（${waiting.toLocaleString('ja-JP')} 件）` })).toBeVisible();
  expect(codeless()).toBe(waiting);
  expect(errors).toEqual([]);
});
