/**
 * Issue 13 in the browser, end to end on the demo company: a new 5日締め customer's order moved to 処理済 writes its
 * slip, a payment is entered, /closing previews the month (the customer's row and its slip and payment), closes it as a
 * job, the invoice opens from the invoice list with its rates, its PDF is downloaded and rendered to an image that is
 * looked at (not blank, A4); the month's invoices are mailed at once (recipients listed first, the result per invoice, the
 * mail received by a local SMTP server); a payment allocated to the invoice (消込) keeps /restore from undoing the closing until the
 * allocation is taken back; 締め戻し, then closing again gives the same invoice to the yen. The closing is undone at the
 * end, so later specs find the demo company as it was.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startLocalSmtp, type LocalSmtp } from '../support/local-smtp';
import { fillField } from './crud';
import { readRow } from './db';
import { E2E, login, trackErrors } from './fixtures';

const unique = `締切E2E${Date.now().toString().slice(-6)}`;
const company = `${unique}商事`;
const GROUP = '5日締め';
const MONTH = '2026-10';
const LABEL = `2026年10月 ${GROUP}`;
const EMAIL = `keiri.${Date.now().toString().slice(-6)}@example.jp`;

// The invoices are mailed at once to the local SMTP server the web server sends to (playwright.config.ts).
let smtp: LocalSmtp;
test.beforeAll(async () => {
  smtp = await startLocalSmtp({ port: E2E.smtpPort });
});
test.afterAll(async () => {
  await smtp?.close();
});

/** The invoice of the customer as stored (amounts and rate rows), to compare two closings. */
function invoiceOf(clientId: number) {
  const row = readRow<Record<string, number | string>>(
    `SELECT bl_id, bl_number, bl_prev_total, bl_paid, bl_carry, bl_sales_net, bl_tax_total, bl_total, bl_period_from, bl_period_to, bl_due_date,
       (SELECT group_concat(blr_key || ':' || blr_net || ':' || blr_tax || ':' || blr_total, ',') FROM (SELECT * FROM billing_rate WHERE blr_bl_id = bl_id ORDER BY blr_key)) AS rates
     FROM billing WHERE bl_cl_id = ? AND bl_sime_ym = '202610' AND deleted = 0`, clientId);
  const { bl_id: _id, bl_number: _number, ...amounts } = row;
  return { id: Number(row.bl_id), number: String(row.bl_number), amounts };
}

/** 仮締め of the month for the group on /closing, then 締切 after the confirm; waits for the job's end. */
async function closeMonth(page: Page): Promise<void> {
  await page.goto('/#/closing');
  await page.getByLabel('締日').selectOption({ label: GROUP });
  await page.getByLabel('締め年月').fill(MONTH);
  await page.getByRole('button', { name: '仮締め' }).click();
  const table = page.getByRole('table', { name: '仮締めの請求内容' });
  const row = table.getByRole('row', { name: new RegExp(`^${company}`) });
  // 前回請求額 0, 入金額 1,000, 繰越額 −1,000, 今回売上額 3,700, 消費税 10% 110 and 8% 208, 今回請求額 3,018.
  await expect(row).toContainText('3,700円');
  await expect(row).toContainText('-1,000円');
  await expect(row).toContainText('3,018円');
  // The customer's payment is not 消込 (it has no invoice yet): a warning above 締切, linking to the payments.
  const warnings = page.getByRole('region', { name: /^締切の前に確認してください/ });
  await expect(warnings).toContainText('請求書への消込が済んでいないもの');
  await expect(warnings.getByRole('link', { name: /^一覧を開く/ }).last()).toHaveAttribute('href', /^#\/payment\/list\?filter=/);
  await page.getByRole('button', { name: '締切', exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`${LABEL}（締め日 2026年10月5日`);
  await dialog.getByRole('button', { name: '締切を実行' }).click();
  await expect(page.getByRole('status', { name: '締め処理' })).toContainText('請求書を', { timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: '締め処理の進み具合' })).toHaveAttribute('aria-valuenow', '100');
}

/** 締め戻し of the month on /restore after the confirm, with the reason typed when given. */
async function restoreMonth(page: Page, reason = ''): Promise<void> {
  await page.goto('/#/restore');
  if (reason) await page.getByLabel('締め戻しの理由').fill(reason);
  const button = page.getByRole('button', { name: `${LABEL}を締め戻す` });
  await expect(button).toBeEnabled();
  await button.click();
  await page.getByRole('alertdialog').getByRole('button', { name: '締め戻す' }).click();
  // The newest message: an earlier restore's may still be on screen.
  await expect(page.getByText(`${LABEL}の締め処理を取り消しました`).last()).toBeVisible();
  await expect(page.getByRole('button', { name: `${LABEL}を締め戻す` })).toHaveCount(0);
}

/** Renders a PDF's first page to an image (pdftoppm) and measures how much of it is ink. */
function lookAt(pdf: string): { width: number; height: number; ink: number; png: string } {
  const dir = mkdtempSync(join(tmpdir(), 'invoice-'));
  execFileSync('pdftoppm', ['-r', '40', '-f', '1', '-l', '1', '-gray', pdf, join(dir, 'page')]);
  execFileSync('pdftoppm', ['-r', '80', '-f', '1', '-l', '1', '-png', pdf, join(dir, 'page')]);
  const pgm = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.pgm'))!));
  // Binary PGM: "P5\n{w} {h}\n{max}\n" then one byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const value of pixels) if (value < 160) dark += 1;
  return { width, height, ink: dark / pixels.length, png: join(dir, readdirSync(dir).find((f) => f.endsWith('.png'))!) };
}

test('order → 処理済 → slip → payment → closing → invoice PDF → 消込 blocks 締め戻し → restore → closing again: the same invoice', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const errors = trackErrors(page);
  await login(page);

  // A customer of its own, closed on the 5th.
  await page.goto('/#/client/new');
  await fillField(page, '会社名', company);
  await fillField(page, '状態', { select: '契約中' });
  await fillField(page, '電話番号1', '03-5555-1234');
  await fillField(page, 'メールアドレス', EMAIL);
  await page.getByRole('tab', { name: '契約・取引' }).click();
  await fillField(page, '締日', { select: GROUP });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/client\/detail\/\d+$/);
  const clientId = Number(/detail\/(\d+)/.exec(page.url())![1]);

  // Its order, delivered on 10-02, moved to 処理済: the sales slip is written.
  await page.goto('/#/orders/new');
  await fillField(page, '顧客', { pick: company });
  await fillField(page, '受注日', '2026-10-01');
  await fillField(page, '配送日', '2026-10-02');
  await fillField(page, '送料（税抜）', '0');
  // The item picker tells items apart by code, name and price.
  const water = readRow<{ it_code: string; it_price: number }>('SELECT it_code, it_price FROM item WHERE it_name = ? AND deleted = 0', '天然水 12L（リターナブル）');
  await page.getByLabel('1行目の商品').fill('天然水 12L（リターナブル）');
  const offered = page.getByRole('listbox').getByRole('option', { name: /天然水 12L（リターナブル）/ }).first();
  await expect(offered).toContainText(water.it_code);
  await expect(offered).toContainText(`${Number(water.it_price).toLocaleString('ja-JP')}円`);
  await offered.click();
  await page.getByLabel('1行目の数量').fill('2');
  await page.getByRole('button', { name: '＋ 明細を追加' }).click();
  await fillField(page, '2行目の商品', { pick: 'サーバーレンタル（月額）' });
  await expect(page.getByTestId('grand-total')).toHaveText('4,018円');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/orders\/detail\/\d+$/);
  await page.getByRole('button', { name: '「出荷待ち」にする' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('出荷待ち');
  // The order is read again after its move: type once that reload has landed (a fresh clone lost the number to it once).
  await page.waitForLoadState('networkidle');
  await fillField(page, '送り状番号', '4321-0000-2224');
  await expect(page.getByLabel('送り状番号', { exact: true })).toHaveValue('4321-0000-2224');
  // The stock leaves a warehouse that holds it.
  const stocked = readRow<{ st_sk_id: number }>(
    "SELECT st_sk_id FROM stock JOIN item ON it_id = st_it_id WHERE it_name = ? AND st_quantity >= 2 ORDER BY st_quantity DESC", '天然水 12L（リターナブル）');
  await page.getByLabel('出荷倉庫', { exact: true }).selectOption(String(stocked.st_sk_id));
  await page.getByRole('button', { name: '「出荷済」にする' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('出荷済');
  await page.getByRole('button', { name: '「処理済」にする' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('処理済');
  const slip = readRow<{ sl_id: number; sl_number: string; sl_total: number }>('SELECT sl_id, sl_number, sl_total FROM sales WHERE sl_cl_id = ? AND deleted = 0', clientId);
  expect(Number(slip.sl_total)).toBe(4018);
  // The move names the slip it made, with a link to it.
  const moved = page.getByRole('status').filter({ hasText: '処理済にしました' });
  await expect(moved).toContainText(`処理済にしました（売上伝票 ${slip.sl_number} を作成）`);
  await moved.getByRole('link', { name: `売上伝票 ${slip.sl_number} を開く` }).click();
  await expect(page).toHaveURL(new RegExp(`#/sales/detail/${slip.sl_id}$`));
  // The slip names its order by number, linked — never its id.
  const order = readRow<{ od_id: number; od_number: string }>('SELECT od_id, od_number FROM orders WHERE od_cl_id = ? AND deleted = 0', clientId);
  await expect(page.getByLabel('受注', { exact: true })).toHaveText(order.od_number);
  await expect(page.getByLabel('受注', { exact: true }).getByRole('link')).toHaveAttribute('href', `#/orders/detail/${order.od_id}`);

  // A payment in the period.
  await page.goto('/#/payment/new');
  await fillField(page, '顧客', { pick: company });
  await fillField(page, '入金日', '2026-10-04');
  await fillField(page, '金額', '1000');
  await fillField(page, '入金区分', { select: '振込' });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/payment\/detail\/\d+$/);
  const paymentId = Number(/detail\/(\d+)/.exec(page.url())![1]);

  // 仮締め: the customer's row unfolds to the slip and the payment, each a link.
  await page.goto('/#/closing');
  await page.getByLabel('締日').selectOption({ label: GROUP });
  await page.getByLabel('締め年月').fill(MONTH);
  await page.getByRole('button', { name: '仮締め' }).click();
  await page.getByRole('button', { name: `${company}の明細` }).click();
  await expect(page.getByRole('link', { name: slip.sl_number })).toHaveAttribute('href', `#/sales/detail/${slip.sl_id}`);
  await expect(page.getByRole('link', { name: '2026-10-04' })).toHaveAttribute('href', `#/payment/detail/${paymentId}`);

  // 締切, then the invoice from the month's invoice list.
  await closeMonth(page);
  const first = invoiceOf(clientId);
  expect(first.amounts).toMatchObject({ bl_prev_total: 0, bl_paid: 1000, bl_carry: -1000, bl_sales_net: 3700, bl_tax_total: 318, bl_total: 3018 });

  // The month's invoices mailed at once: the recipients first, then the result per invoice; one mail reaches the customer.
  const recipients = page.getByRole('table', { name: 'メールの送信先' });
  await expect(recipients.getByRole('row', { name: new RegExp(first.number) })).toContainText(EMAIL);
  await page.getByRole('button', { name: '請求書をメールで一括送信' }).click();
  const mailDialog = page.getByRole('alertdialog');
  await expect(mailDialog).toContainText(`${LABEL}の請求書`);
  await mailDialog.getByRole('button', { name: '送信' }).click();
  await expect(page.getByRole('status', { name: '請求書の一括メール送信' })).toContainText('メールで送信しました', { timeout: 60_000 });
  const results = page.getByRole('table', { name: 'メール送信の結果' });
  await expect(results.getByRole('row', { name: new RegExp(first.number) })).toContainText('送信済み');
  await expect.poll(() => smtp.received.filter((m) => m.envelopeTo.includes(EMAIL)).length).toBe(1);
  const mailed = smtp.received.find((m) => m.envelopeTo.includes(EMAIL))!;
  expect(mailed.attachments.map((a) => a.filename)).toEqual([`請求書_${first.number}_${company}.pdf`]);
  await page.getByRole('link', { name: '請求一覧を開く' }).click();
  await expect(page.getByRole('heading', { name: '請求一覧' })).toBeVisible();
  const keyword = page.getByLabel('キーワード').first();
  await keyword.fill(company);
  await keyword.press('Enter');
  const listed = page.getByRole('table').getByRole('row').filter({ hasText: first.number });
  await expect(listed).toHaveCount(1);
  // Its month as people say it, its customer by name, a link that opens the customer.
  await expect(listed.getByRole('cell').nth(1)).toHaveText('2026年10月');
  await listed.getByRole('link', { name: company }).click();
  await expect(page).toHaveURL(new RegExp(`#/client/detail/${clientId}$`));
  await page.goBack();
  await listed.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`#/billing/detail/${first.id}$`));
  // The invoice is drawn (the list may still be on screen when the address changes; its columns bear the same names).
  await expect(page.getByRole('heading', { name: '請求詳細', level: 1 })).toBeVisible();
  await expect(page.getByLabel('今回請求額', { exact: true })).toHaveValue('3,018円');
  await expect(page.getByLabel('締め年月', { exact: true })).toHaveValue('2026年10月');
  await expect(page.getByLabel('顧客', { exact: true })).toHaveText(company);
  const rates = page.getByRole('table', { name: '税率ごとの内訳' });
  await expect(rates.getByRole('row', { name: /^10%/ })).toContainText('1,100円');
  await expect(rates.getByRole('row', { name: /^8%/ })).toContainText('208円');

  // The invoice's PDF, rendered to an image and looked at.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '請求書PDF' }).click()]);
  const pdf = testInfo.outputPath('invoice.pdf');
  await download.saveAs(pdf);
  expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const image = lookAt(pdf);
  await testInfo.attach('invoice.png', { path: image.png, contentType: 'image/png' });
  expect(image.height / image.width).toBeCloseTo(297 / 210, 1);
  expect(image.ink).toBeGreaterThan(0.01);
  expect(image.ink).toBeLessThan(0.5);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString();
  expect(text).toContain(first.number);
  expect(text.replace(/\s/g, '')).toContain('3,018');

  // The invoice archive (電子帳簿保存法): the mail stored the invoice, the print handed out the same bytes; its version
  // lists both deliveries and downloads exactly what the print gave.
  await page.getByRole('link', { name: '保存された請求書と発行の記録' }).click();
  await expect(page.getByRole('heading', { name: '保存請求書一覧', level: 1 })).toBeVisible();
  const version = page.getByRole('table').getByRole('row').filter({ hasText: first.number });
  await expect(version).toHaveCount(1);
  await expect(version).toContainText('発行済');
  await expect(version).toContainText('3,018円');
  await version.getByRole('link', { name: first.number }).click();
  await expect(page.getByRole('heading', { name: '保存請求書詳細', level: 1 })).toBeVisible();
  const history = page.getByRole('table', { name: '発行の記録' });
  await expect(history.getByRole('row').filter({ hasText: 'メール' })).toContainText(EMAIL);
  await expect(history.getByRole('row').filter({ hasText: '印刷・ダウンロード' })).toHaveCount(1);
  const [stored] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '保存された請求書PDF' }).click()]);
  const storedPath = testInfo.outputPath('stored.pdf');
  await stored.saveAs(storedPath);
  expect(readFileSync(storedPath).equals(readFileSync(pdf))).toBe(true);

  // The customer's download page: a link made for staff to send, opened outside the login, the same PDF; then revoked.
  await page.goto(`/#/billing/detail/${first.id}`);
  await page.getByRole('button', { name: 'ダウンロードページのリンク' }).click();
  const linkUrl = await page.getByLabel('ダウンロードページのURL').inputValue();
  expect(linkUrl).toMatch(/\/invoices\/[\w-]{43}$/);
  const customerPage = await page.context().browser()!.newPage();
  await customerPage.goto(linkUrl.replace(/^https?:\/\/[^/]+/, E2E.baseURL));
  await expect(customerPage.getByRole('heading', { level: 1 })).toContainText('請求書ダウンロード');
  const pageRow = customerPage.getByRole('row').filter({ hasText: first.number });
  await expect(pageRow).toContainText('3,018円');
  const [fromPage] = await Promise.all([customerPage.waitForEvent('download'), pageRow.getByRole('link', { name: 'PDF' }).click()]);
  const fromPagePath = testInfo.outputPath('page.pdf');
  await fromPage.saveAs(fromPagePath);
  expect(readFileSync(fromPagePath).equals(readFileSync(pdf))).toBe(true);
  await page.getByRole('button', { name: 'リンクを無効にする' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '無効にする' }).click();
  await expect(page.getByText(/ダウンロードページのリンクを無効にしました/)).toBeVisible();
  await customerPage.reload();
  await expect(customerPage.locator('body')).toHaveText(/このリンクは無効になりました/);
  await customerPage.close();

  // A later payment allocated to the invoice (消込): 締め戻し is refused until it is taken back.
  await page.goto('/#/payment/new');
  await fillField(page, '顧客', { pick: company });
  await fillField(page, '入金日', '2026-10-20');
  await fillField(page, '金額', '3018');
  await fillField(page, '入金区分', { select: '振込' });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page).toHaveURL(/#\/payment\/detail\/\d+$/);
  const panel = page.getByRole('region', { name: '請求書への消込' });
  await panel.getByRole('button', { name: '自動消込（古い請求書から）' }).click();
  await expect(panel.getByRole('link', { name: first.number })).toBeVisible();
  await expect(panel.getByLabel('消込の状況')).toContainText('未消込0円');
  await page.goto('/#/restore');
  const refused = page.getByRole('button', { name: `${LABEL}を締め戻す` });
  await expect(refused).toBeDisabled();
  await expect(page.getByText(/請求書に入金の消込があるため締め戻しできません/)).toBeVisible();
  // What blocks it, each a link: the invoice and the payment.
  const blockers = page.getByRole('list', { name: `${LABEL}の締め戻しを止めているもの` });
  await expect(blockers.getByRole('link', { name: `請求書 ${first.number}` })).toHaveAttribute('href', `#/billing/detail/${first.id}`);
  await expect(blockers.getByRole('link', { name: '入金 2026-10-20 3,018円' })).toBeVisible();
  await page.goBack();
  await panel.getByRole('button', { name: `${first.number}への消込を取り消す` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '取り消す' }).click();
  await expect(panel.getByText('まだ請求書に消込していません。')).toBeVisible();

  // 締め戻し (with its reason), then the same closing again: the same invoice to the yen. The issued invoice stays in the
  // archive, 取消 with the reason.
  await restoreMonth(page, '入金の確認のため');
  await page.goto('/#/billing/archive');
  const archiveKeyword = page.getByLabel('キーワード').first();
  await archiveKeyword.fill(company);
  await archiveKeyword.press('Enter');
  const cancelledRow = page.getByRole('table').getByRole('row').filter({ hasText: first.number });
  await expect(cancelledRow).toContainText('取消');
  await cancelledRow.getByRole('link', { name: first.number }).click();
  await expect(page.getByLabel('取消理由', { exact: true })).toHaveValue('入金の確認のため');
  expect(readRow<{ n: number }>('SELECT COUNT(*) AS n FROM billing WHERE bl_cl_id = ?', clientId).n).toBe(0);
  expect(readRow<{ b: number | null }>('SELECT sl_bli_id AS b FROM sales WHERE sl_id = ?', slip.sl_id).b).toBeNull();
  await closeMonth(page);
  const again = invoiceOf(clientId);
  expect(again.amounts).toEqual(first.amounts);

  // The customer's 請求 tab lists its invoice, counted in the tab's name; the row unfolds to its PDF, archive and mail.
  await page.goto(`/#/client/detail/${clientId}`);
  const related = page.getByRole('region', { name: '関連情報' });
  await related.getByRole('tab', { name: '請求（1）', exact: true }).click();
  const invoiceRow = related.getByRole('row').filter({ hasText: again.number });
  await expect(invoiceRow).toContainText('3,018円');
  await invoiceRow.getByRole('button', { name: /開く/ }).click();
  await expect(related.getByRole('button', { name: '請求書PDF' })).toBeVisible();
  await expect(related.getByRole('link', { name: '保存された請求書と発行の記録' })).toBeVisible();
  await expect(related.getByRole('button', { name: 'メール送信' })).toBeVisible();

  await restoreMonth(page);
  expect(errors).toEqual([]);
});
