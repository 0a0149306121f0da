/**
 * JACCS 取込 (/system/jaccs, issue 14) in the browser on the demo company: a new 10日締め customer paying by 口座振替 with
 * its account, a slip, the month closed; the screen lists the customer with its invoice's 残額 and 引落日, the request file
 * is downloaded and its bytes checked (120-byte records, cp932 half-width kana, our record); a second download is a marked
 * 再発行. The bank's answer is written from the downloaded file (our customer 振替済, the demo customers 9 その他), uploaded
 * with setInputFiles, checked (dry run) and committed as a job: our customer has a 口座振替 payment allocated to its invoice
 * and the others are listed as 振替不能 with the meaning. What the test made is undone at the end (the closing restored), so
 * later specs find the demo company as it was.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { readData } from '../../lib/zengin/format';
import { readRow, writeRows } from './db';
import { login, trackErrors } from './fixtures';
import { recordsOf, zenginResult } from '../support/zengin-result';

type Row = Record<string, unknown>;
const unique = Date.now().toString().slice(-8);
const DEBIT_CODE = `9${unique.padStart(19, '0')}`;
const LABEL = '2026年10月 10日締め';

/** One call of the database API with the logged-in page's auth key. */
async function api<T = Row>(page: Page, name: string, params: Record<string, string> = {}): Promise<{ status: number; body: T[] }> {
  return page.evaluate(
    async ({ name, params }) => {
      const authKey = JSON.parse(localStorage.getItem('hod.authKey') ?? '""') as string;
      const res = await fetch(`/api/db/${name}`, { method: 'POST', body: new URLSearchParams({ authKey, ...params }) });
      return { status: res.status, body: (await res.json()) as T[] };
    },
    { name, params },
  );
}

async function waitJob(page: Page, jobId: number): Promise<Row> {
  let job: Row = {};
  await expect
    .poll(async () => {
      job = (await api(page, 'job_dtl', { id: String(jobId) })).body[0];
      return job.state;
    }, { message: 'the job did not end', timeout: 120_000 })
    .not.toBe('running');
  return job;
}

test('request file downloaded and checked byte for byte, 再発行 marked, the result uploaded and committed: payment allocated, 振替不能 listed', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const errors = trackErrors(page);
  await login(page);
  const saved = await api(page, 'client_save', {
    postData: JSON.stringify({
      co_name: `口座振替E2E${unique}`, status: '1', tel_1: '03-1234-5678', sime_gp: '10', pm_id: '1', zei_ten: '3', zei_kiri: '0',
      bank_code: '0009', branch_code: '123', account_type: '1', account_no: '0012345', account_kana: 'こうざふりかえ　いーつーいー', debit_code: DEBIT_CODE,
    }),
  });
  expect(saved.status).toBe(200);
  const clientId = Number(saved.body[0].cl_id);
  expect(saved.body[0].cl_account_kana).toBe('ｺｳｻﾞﾌﾘｶｴ ｲ-ﾂ-ｲ-');
  const slip = await api(page, 'sales_save', { postData: JSON.stringify({ cl_id: clientId, date: '2026-10-01', kind: 'sale', lines: [{ name: 'ボトル', quantity: 2, price: 1000, tax_class: 'reduced' }] }) });
  expect(slip.status).toBe(200);
  const run = await api<{ job_id: number }>(page, 'closing_run', { sime_gp: '10', sime_ym: '202610' });
  expect(run.status).toBe(200);
  expect((await waitJob(page, run.body[0].job_id)).state).toBe('done');

  try {
    await page.goto('/#/system/jaccs');
    await expect(page.getByRole('heading', { name: 'JACCS 取込' })).toBeVisible();
    await page.getByLabel('締め処理').selectOption('10:202610');
    await expect(page.getByLabel('締め処理')).toContainText(LABEL);
    const table = page.getByRole('table', { name: '口座振替で引き落とす顧客' });
    const ours = table.getByRole('row', { name: new RegExp(`口座振替E2E${unique}`) });
    await expect(ours).toContainText(DEBIT_CODE);
    await expect(ours).toContainText('2,160円');
    await expect(page.getByText(/^引落日 2026年11月27日（金）・口座振替 \d+件/)).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '依頼データをダウンロード' }).click()]);
    expect(download.suggestedFilename()).toBe('口座振替依頼_202610_10日締め_引落1127.txt');
    const bytes = readFileSync(await download.path());
    expect(bytes.length % 120).toBe(0);
    expect(bytes.includes(0x0d) || bytes.includes(0x0a)).toBe(false);
    const records = recordsOf(bytes);
    expect(records[0].slice(0, 14)).toBe('19101234567890');
    expect(records[0].slice(54, 58)).toBe('1127');
    expect(records.at(-1)).toBe(`9${' '.repeat(119)}`);
    const mine = records.find((r) => r[0] === '2' && readData(r).customerNo === DEBIT_CODE)!;
    expect(mine).toBe(`20009${' '.repeat(15)}123${' '.repeat(19)}10012345${'ｺｳｻﾞﾌﾘｶｴ ｲ-ﾂ-ｲ-'.padEnd(30)}00000021601${DEBIT_CODE}0${' '.repeat(8)}`);
    // ｺ is one byte, 0xBA, in the file.
    expect(bytes[bytes.indexOf(Buffer.from(DEBIT_CODE, 'latin1')) - 41]).toBe(0xba);
    await testInfo.attach('request', { body: bytes, contentType: 'text/plain' });

    await expect(page.getByRole('table', { name: '依頼データの作成履歴' })).toContainText('口座振替依頼_202610_10日締め_引落1127.txt');
    const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '再発行としてダウンロード' }).click()]);
    expect(again.suggestedFilename()).toBe('口座振替依頼_202610_10日締め_引落1127_再発行1.txt');
    await expect(page.getByRole('table', { name: '依頼データの作成履歴' }).getByText('再発行', { exact: true })).toBeVisible();

    // The bank's answer: ours debited, the demo customers 9 その他.
    const codes: Record<string, string> = {};
    for (const r of records) if (r[0] === '2' && readData(r).customerNo !== DEBIT_CODE) codes[readData(r).customerNo] = '9';
    const result = zenginResult(bytes, { codes });
    await page.getByLabel('取り込むファイル').setInputFiles({ name: 'kekka.txt', mimeType: 'text/plain', buffer: result });
    await page.getByRole('button', { name: 'アップロードして確認' }).click();
    const counts = page.getByLabel('確認結果の件数');
    const others = records.length - 4;
    await expect(counts).toContainText(new RegExp(`行数${others + 1}件追加1件更新0件スキップ${others}件エラー0件`));
    await page.getByRole('button', { name: '取込実行' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '取込実行' }).click();
    await expect(page.getByText(`${others + 1}行を取り込みました（追加 1件`).first()).toBeVisible({ timeout: 120_000 });

    const payment = readRow<{ py_id: number; py_kind: string; py_date: string; py_amount: number }>('SELECT py_id, py_kind, py_date, py_amount FROM payment WHERE py_cl_id = ? AND deleted = 0', clientId);
    expect([payment.py_kind, payment.py_date, payment.py_amount]).toEqual(['debit', '2026-11-27', 2160]);
    expect(readRow<{ bl_open: number }>('SELECT bl_open FROM billing WHERE bl_cl_id = ? AND deleted = 0', clientId).bl_open).toBe(0);
    if (records.length > 4) await expect(page.getByRole('table', { name: '振替不能の顧客' })).toContainText('9 その他');
    // The payment as staff find it: the payment's detail, 口座振替 and its 消込 to the invoice.
    await page.goto(`/#/payment/detail/${payment.py_id}`);
    await expect(page.getByLabel('入金区分')).toHaveValue('debit');
    await expect(page.getByText('消込済').first()).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    // Undo what the test made, so the closing can be restored and later specs find the demo company as it was.
    writeRows('DELETE FROM allocation WHERE al_py_id IN (SELECT jrr_py_id FROM jaccs_request_row WHERE jrr_py_id IS NOT NULL)');
    writeRows('DELETE FROM payment WHERE py_id IN (SELECT jrr_py_id FROM jaccs_request_row WHERE jrr_py_id IS NOT NULL)');
    writeRows("UPDATE billing SET bl_allocated = 0, bl_open = bl_total WHERE bl_sime_gp = '10' AND bl_sime_ym = '202610'");
    writeRows("UPDATE client SET cl_debit_result = '', cl_debit_result_date = '' WHERE cl_debit_result <> ''");
    writeRows('DELETE FROM jaccs_request_row');
    writeRows('DELETE FROM jaccs_request');
    writeRows("UPDATE closing SET cls_jaccs_at = '' WHERE cls_sime_gp = '10' AND cls_sime_ym = '202610'");
    const restored = await api(page, 'closing_restore', { sime_gp: '10', sime_ym: '202610' });
    expect(restored.status).toBe(200);
  }
});
