/**
 * 受注取込 and 送り状取込 (issue 14) in the browser on the demo company: /system/import?kind=order — a cp932 file of two
 * orders (three lines) chosen with 「ファイル参照」, the dry run's counts, 取込実行 as a job, the orders stored with
 * their lines; /system/import?kind=waybill — a B2 issued file whose rows name an order still 未処理, an unknown order
 * number and a bad check digit: the dry run lists each by row and column and 取込実行 stays disabled; its 運送会社 choice
 * switched to 佐川 e飛伝 (kind waybill_sagawa) — an e飛伝III issued file of a 出荷待ち order: the dry run counts one update,
 * 取込実行 ships the order with the number.
 */
import iconv from 'iconv-lite';
import { expect, test, type Page } from '@playwright/test';
import { readRow, writeRows } from './db';
import { b2IssuedFile, validTrackingNo } from '../support/b2-issued';
import { sagawaIssuedFile } from '../support/sagawa-issued';
import { login, trackErrors } from './fixtures';

const stamp = Date.now().toString().slice(-6);
const code = `E2E${stamp}`;
const keys = [`E2E-${stamp}-1`, `E2E-${stamp}-2`];

const cp932 = (lines: string[][]): Buffer => iconv.encode(lines.map((cells) => cells.join(',')).join('\r\n') + '\r\n', 'cp932');

/** Chooses the file with 「ファイル参照」's input and runs the dry run. */
async function dryRun(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.getByLabel('取り込むファイル').setInputFiles({ name, mimeType: 'text/csv', buffer: bytes });
  await page.getByRole('button', { name: 'アップロードして確認' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`確認結果（${name}`) })).toBeVisible();
}

const counts = (page: Page) => page.getByRole('definition');

test('受注取込: the dry run counts the lines, 取込実行 writes the orders with their lines', async ({ page }) => {
  const errors = trackErrors(page);
  const client = readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 ORDER BY cl_id LIMIT 1');
  writeRows('UPDATE client SET cl_code = ? WHERE cl_id = ?', code, client.cl_id);
  await login(page);
  await page.goto('/#/system/import?kind=order');
  await expect(page.getByRole('heading', { name: '受注取込', level: 1 })).toBeVisible();
  const file = cp932([
    ['受注キー', '顧客コード', '電話番号', '受注日', '配送日', '配達時間帯', '商品コード', '数量', '単価', '備考'],
    [keys[0], code, '', '2026/11/25', '2026/11/27', '', 'W12R', '2', '', 'E2E取込'],
    [keys[0], '', '', '', '', '', 'SV-RENT', '1', '', ''],
    [keys[1], code, '', '2026/11/25', '', '', 'W12O', '3', '1450.50', ''],
  ]);
  await dryRun(page, '受注.csv', file);
  await expect(page.getByRole('heading', { name: /Shift_JIS/ })).toBeVisible();
  await expect(counts(page)).toHaveText(['3件', '3件', '0件', '0件', '0件']);
  expect(readRow<{ n: number }>('SELECT COUNT(*) AS n FROM orders WHERE od_import_key IN (?, ?)', ...keys).n).toBe(0);

  await page.getByRole('button', { name: '取込実行' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '取込実行' }).click();
  await expect(page.getByRole('status', { name: 'データ取込' })).toContainText('受注 2件（明細 3行）を取り込みました。', { timeout: 30_000 });
  const first = readRow<{ od_id: number; od_cl_id: number; od_biko: string; od_delivery_date: string; lines: number }>(
    'SELECT od_id, od_cl_id, od_biko, od_delivery_date, (SELECT COUNT(*) FROM order_detail WHERE odd_od_id = od_id AND odd_fee = 0) AS lines FROM orders WHERE od_import_key = ? AND deleted = 0', keys[0]);
  expect([first.od_cl_id, first.od_biko, first.od_delivery_date, first.lines]).toEqual([client.cl_id, 'E2E取込', '2026-11-27', 2]);
  const second = readRow<{ odd_price: number; odd_tax_rate: number }>(
    'SELECT odd_price, odd_tax_rate FROM order_detail JOIN orders ON od_id = odd_od_id WHERE od_import_key = ? AND odd_fee = 0', keys[1]);
  expect([second.odd_price, second.odd_tax_rate]).toEqual([1450.5, 8]);
  await expect(page.getByRole('table', { name: '最近の取込' }).getByRole('row', { name: /受注\.csv/ }).first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('送り状取込: the dry run of a B2 issued file lists an order not 出荷待ち, an unknown number and a bad check digit', async ({ page }) => {
  const errors = trackErrors(page);
  const order = readRow<{ od_number: string }>("SELECT od_number FROM orders WHERE deleted = 0 AND od_status = 'untreated' ORDER BY od_id DESC LIMIT 1");
  await login(page);
  await page.goto('/#/system/import?kind=waybill');
  await expect(page.getByRole('heading', { name: '送り状取込', level: 1 })).toBeVisible();
  // B2's 97 columns without its header row: お客様管理番号 in column 1, 伝票番号 in column 4 (444413758703 is valid).
  await dryRun(page, '発行済データ.csv', b2IssuedFile([
    { orderNumber: order.od_number, trackingNo: '4444-1375-8703' },
    { orderNumber: 'NO-SUCH-ORDER', trackingNo: '4444-1375-8703' },
    { orderNumber: order.od_number, trackingNo: '4444-1375-8704' },
  ], { header: false }));
  await expect(page.getByRole('heading', { name: 'エラー 3件' })).toBeVisible();
  const table = page.getByRole('table', { name: '取込のエラー' });
  await expect(table.getByRole('row').nth(1)).toContainText(/1\s*お客様管理番号.*未処理/);
  await expect(table.getByRole('row').nth(2)).toContainText(/2\s*お客様管理番号.*NO-SUCH-ORDER.*見つかりません/);
  await expect(table.getByRole('row').nth(3)).toContainText(/3\s*伝票番号.*チェックデジット/);
  await expect(page.getByRole('button', { name: '取込実行' })).toBeDisabled();
  expect(errors).toEqual([]);
});

test('送り状取込（佐川 e飛伝）: the 運送会社 choice opens the Sagawa kind; the dry run of an e飛伝 file counts its 出荷待ち order, 取込実行 ships it with the number', async ({ page }) => {
  const errors = trackErrors(page);
  // The oldest 出荷待ち order (送り状出力's spec takes the newest two).
  const order = readRow<{ od_id: number; od_number: string }>("SELECT od_id, od_number FROM orders WHERE deleted = 0 AND od_status = 'waitshipping' ORDER BY od_id LIMIT 1");
  const trackingNo = validTrackingNo(Number(stamp));
  await login(page);
  await page.goto('/#/system/import?kind=waybill');
  await expect(page.getByRole('heading', { name: '送り状取込', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'ヤマト B2' })).toBeChecked();
  // The choice follows the address (`?kind=`), which changes just after the click: click, then wait for it checked.
  await page.getByRole('radio', { name: '佐川 e飛伝' }).click();
  await expect(page.getByRole('radio', { name: '佐川 e飛伝' })).toBeChecked();
  await expect(page.getByRole('heading', { name: '送り状取込（佐川 e飛伝）', level: 1 })).toBeVisible();
  expect(page.url()).toContain('kind=waybill_sagawa');
  await expect(page.getByText('必須の列: お客様管理番号、お問い合せ送り状No.')).toBeVisible();

  // e飛伝III's 74 columns with its header row: お客様管理番号 in column 10, お問い合せ送り状No. in column 62.
  await dryRun(page, 'e飛伝発行済データ.csv', sagawaIssuedFile([{ orderNumber: order.od_number, trackingNo }]));
  await expect(page.getByRole('heading', { name: /Shift_JIS/ })).toBeVisible();
  await expect(counts(page)).toHaveText(['1件', '0件', '1件', '0件', '0件']);
  expect(readRow<{ od_status: string }>('SELECT od_status FROM orders WHERE od_id = ?', order.od_id).od_status).toBe('waitshipping');

  await page.getByRole('button', { name: '取込実行' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '取込実行' }).click();
  await expect(page.getByRole('status', { name: 'データ取込' })).toContainText('1行を取り込みました（追加 0件・更新 1件', { timeout: 30_000 });
  const stored = readRow<{ od_status: string; od_tracking_no: string }>('SELECT od_status, od_tracking_no FROM orders WHERE od_id = ?', order.od_id);
  expect([stored.od_status, stored.od_tracking_no]).toEqual(['shipped', trackingNo]);
  await expect(page.getByRole('table', { name: '最近の取込' }).getByRole('row', { name: /e飛伝発行済データ\.csv/ })).toBeVisible();
  expect(errors).toEqual([]);
});
