/**
 * A list past 10,000 rows (issue 21): 10,050 customers of one name written straight into this worker's database (the
 * row counters' triggers count them as any write), then the customer list searched for that name shows
 * 「10,000件以上」 with the next pages open; 「正確に数える」 gives the exact number. The unfiltered list's total is the
 * exact number of customers. The rows are removed afterwards (the other specs of this worker see the demo data).
 */
import { expect, test } from '@playwright/test';
import { clientResource } from '../../lib/resources/client';
import { searchText } from '../../server/resources/columns';
import { searchList } from './crud';
import { readRow, writeRows } from './db';
import { login, trackErrors } from './fixtures';

const NAME = '件数テスト商会';
const ROWS = 10_050;

test.afterAll(() => {
  writeRows('DELETE FROM client WHERE cl_co_name = ?', NAME);
});

test('a customer list past 10,000 rows shows 「10,000件以上」 and 「正確に数える」 gives the exact number', async ({ page }) => {
  const errors = trackErrors(page);
  const now = new Date().toISOString();
  writeRows(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
    INSERT INTO client (cl_co_name, cl_status, cl_search, created, modified, deleted) SELECT ?, '1', ?, ?, ?, 0 FROM n`,
  ROWS, NAME, searchText(clientResource, { cl_co_name: NAME }), now, now);
  const all = Number(readRow<{ n: number }>('SELECT COUNT(*) AS n FROM client WHERE deleted = 0').n);

  await login(page);
  await page.goto('/#/client/list');
  const paging = page.getByRole('navigation', { name: 'ページ送り', exact: true });
  const total = paging.locator('xpath=..');
  await expect(total).toContainText(`全 ${all.toLocaleString('ja-JP')} 件`);
  await expect(page.getByRole('button', { name: '正確に数える' })).toHaveCount(0);

  await searchList(page, '件数テスト');
  await expect(total).toContainText('10,000件以上');
  await expect(paging.getByRole('button', { name: '次へ' })).toBeEnabled();
  await page.getByRole('button', { name: '正確に数える' }).click();
  await expect(total).toContainText(`全 ${ROWS.toLocaleString('ja-JP')} 件`);
  await expect(page.getByRole('button', { name: '正確に数える' })).toHaveCount(0);
  // The exact total gives the last page: its rows are the last ones.
  const lastPage = Math.ceil(ROWS / 10);
  await paging.getByRole('button', { name: `${lastPage}ページ` }).click();
  await expect(total).toContainText(`${((lastPage - 1) * 10 + 1).toLocaleString('ja-JP')}〜${ROWS.toLocaleString('ja-JP')} 件目`);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + ROWS - (lastPage - 1) * 10);
  expect(errors).toEqual([]);
});
