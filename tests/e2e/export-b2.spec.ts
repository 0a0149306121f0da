/**
 * 送り状出力 in the browser (issue 14, /system/export) on the seeded demo company: two 出荷待ち orders chosen in the list, the
 * preview of their B2 rows with the character that will become 〓, 「B2 CSV を出力」 downloaded and its bytes checked (cp932,
 * the 97-column header row, one row per order, the order numbers in お客様管理番号), and the export mark afterwards.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import iconv from 'iconv-lite';
import { addDays, todayJst } from '../../lib/format';
import { B2_COLUMNS } from '../../server/exports/b2-layout';
import { parseCsv } from '../csv';
import { readRow, writeRows } from './db';
import { login, trackErrors } from './fixtures';

test('exports the chosen 出荷待ち orders as a B2 CSV after showing their preview, and marks them exported', async ({ page }) => {
  const errors = trackErrors(page);
  // The two newest 出荷待ち orders (the list's first page), given a complete shipping address, a delivery date after today and
  // one character B2 does not take (髙, an IBM extension).
  const pick = (offset: number) =>
    readRow<{ od_id: number; od_number: string }>(`SELECT od_id, od_number FROM orders WHERE deleted = 0 AND od_status = 'waitshipping' ORDER BY od_id DESC LIMIT 1 OFFSET ${offset}`);
  const [newer, older] = [pick(0), pick(1)];
  const tomorrow = addDays(todayJst(), 1);
  for (const [order, name] of [[newer, '髙橋 一郎'], [older, '山田 花子']] as const) {
    writeRows(
      `UPDATE orders SET od_ship_name = ?, od_ship_co_name = '', od_ship_zipcode = '150-0001', od_ship_pref = '東京都', od_ship_city = '渋谷区',
        od_ship_address = '神宮前1-2-3', od_ship_building = '', od_ship_tel = '03-1234-5678', od_delivery_date = ?, od_ht_id = '1416',
        od_b2_exported_at = NULL WHERE od_id = ?`,
      name, tomorrow, order.od_id,
    );
  }

  await login(page);
  await page.goto('/#/system/export');
  await expect(page.getByRole('heading', { name: '送り状出力（ヤマト B2 クラウド）' })).toBeVisible();
  await page.getByRole('checkbox', { name: `受注 ${newer.od_number} を選択` }).check();
  await page.getByRole('checkbox', { name: `受注 ${older.od_number} を選択` }).check();

  const preview = page.getByRole('table', { name: '送り状のプレビュー' });
  await expect(preview.getByRole('row')).toHaveCount(3);
  await expect(preview.getByRole('row', { name: new RegExp(newer.od_number) })).toContainText('〓橋 一郎'); // the preview shows what the file will hold
  await expect(preview.getByRole('row', { name: new RegExp(newer.od_number) })).toContainText('未出力');
  const replaced = page.getByRole('table', { name: '置き換える文字' });
  await expect(replaced.getByRole('row', { name: new RegExp(newer.od_number) })).toContainText('配送先氏名');
  await expect(replaced.getByRole('row', { name: new RegExp(newer.od_number) })).toContainText('〓');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'B2 CSV を出力' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^B2送り状_\d{8}_\d{8}-\d{4}\.csv$/);
  const records = parseCsv(iconv.decode(readFileSync(await download.path()), 'cp932'));
  expect(records[0]).toEqual([...B2_COLUMNS]);
  expect(records).toHaveLength(3);
  expect(records.every((r) => r.length === 97)).toBe(true);
  const numberColumn = records[0].indexOf('お客様管理番号');
  expect(records.slice(1).map((r) => r[numberColumn])).toEqual([older.od_number, newer.od_number]);
  expect(records[2][15]).toBe('〓橋 一郎');

  await expect(page.getByRole('status').filter({ hasText: '2 件の送り状 CSV を出力しました。' })).toBeVisible();
  await expect(preview.getByRole('row', { name: new RegExp(newer.od_number) })).toContainText('出力済み');
  await expect(preview.getByRole('row', { name: new RegExp(older.od_number) })).toContainText('出力済み');
  expect(readRow<{ n: number }>(`SELECT count(*) AS n FROM orders WHERE od_b2_exported_at IS NOT NULL AND od_id IN (${newer.od_id}, ${older.od_id})`).n).toBe(2);
  expect(errors).toEqual([]);
});
