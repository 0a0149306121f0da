import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobTitle } from '@/lib/jobs';
import { FIXED_CALLS } from '@/lib/protocol/calls';
import { RESOURCES } from '@/lib/resources';
import { allows } from '@/lib/resources/types';
import { auditCallName, auditCalls, auditChanges, auditTableName, auditTables, columnLabel, valueTarget, valueText } from '@/lib/system/audit';

/** Every TypeScript source under a folder, with its path. */
const sources = (dir: string): { path: string; text: string }[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;
import { MASTER_CATALOGUE, masterInfo, masterOfPath } from '@/lib/system/masters';

describe('audit log names', () => {
  it('names the kinds of data that are written or exported (the log itself only by its export)', () => {
    const tables = auditTables();
    expect(tables).toContainEqual({ value: 'client', text: '顧客' });
    expect(tables).toContainEqual({ value: 'delivery_fee', text: '都道府県別送料' });
    expect(tables).toContainEqual({ value: 'search', text: '保存した検索' });
    expect(tables).toContainEqual({ value: 'audit_log', text: '操作ログ' });
  });

  it('names the writing calls each resource takes', () => {
    const calls = new Map(auditCalls().map((o) => [o.value, o.text]));
    expect(calls.get('client_save')).toBe('顧客の保存');
    expect(calls.get('client_del')).toBe('顧客の削除');
    expect(calls.get('deliveryfee_bulk_save')).toBe('都道府県別送料の一括保存');
    expect(calls.has('deliveryfee_del')).toBe(false);
    expect(calls.has('client_bulk_save')).toBe(false);
    expect([...calls.keys()].filter((c) => c.startsWith('log_'))).toEqual(['log_csv']);
    expect(calls.get('order_csv')).toBe('受注のCSV出力');
  });

  it('labels changed columns in Japanese and shows values readably', () => {
    expect(columnLabel('client', 'cl_tel_1')).toBe('電話番号1');
    expect(columnLabel('master_option', 'mo_text')).toBe('名称');
    expect(columnLabel('search', 'srch_name')).toBe('名前');
    expect(columnLabel('client', 'modified')).toBe('更新日時');
    expect(columnLabel('unknown', 'x_col')).toBe('x_col');
    expect(valueText('client', 'cl_memo', '')).toBe('（空）');
    expect(valueText('client', 'cl_sex', '2')).toBe('女性');
    expect(valueText('client', 'cl_dm', 1)).toBe('はい');
    expect(valueText('user', 'user_last_login', '2026-01-01T00:00:00.000Z')).toBe('2026-01-01 9:00');
    expect(valueText('delivery_fee', 'df_fee', 1320)).toBe('1,320円');
    expect(valueText('client', 'modified', '2026-01-01T00:00:00.000Z')).toBe('2026-01-01 9:00');
    expect(valueText('client', 'deleted', 1)).toBe('削除済み');
    expect(valueText('closing', 'cls_sime_ym', '202611')).toBe('2026年11月');
    expect(valueText('billing', 'bl_sime_ym', '202611')).toBe('2026年11月');
  });

  it('names the writes of every call, the stock table and what a save writes beside the fields; never a code', () => {
    const calls = new Map(auditCalls().map((o) => [o.value, o.text]));
    expect(calls.get('stock_adjust')).toBe('在庫の調整');
    expect(calls.get('order_status')).toBe('受注の状態変更');
    expect(calls.get('hod_generate')).toBe('定期配送の受注作成');
    expect(calls.get('mailtemplate_send')).toBe('メールの送信');
    expect(auditTables()).toContainEqual({ value: 'stock', text: '在庫' });
    expect(columnLabel('stock', 'st_quantity')).toBe('在庫数');
    expect(valueText('stock', 'sm_kind', 'in')).toBe('入庫');
    expect(columnLabel('orders', 'lines')).toBe('明細');
    expect(columnLabel('hod_report', 'stops')).toBe('訪問先');
    expect(valueText('master_option', 'mo_table', 'mt_pmt_method')).toBe('支払方法');
    expect(valueTarget('client', 'cl_pm_id')).toEqual({ master: 'mt_pmt_method' });
    expect(valueTarget('client', 'cl_delivery_usr_id')).toEqual({ ref: 'user' });
    expect(valueTarget('stock', 'st_it_id')).toEqual({ ref: 'item' });
    expect(valueTarget('client', 'cl_memo')).toBeUndefined();
  });

  it('names every kind of data and every call the log can hold in Japanese: every resource (settings too), every table and call the server writes', () => {
    for (const def of Object.values(RESOURCES)) {
      expect(auditTableName(def.table), def.table).toBe(def.label);
      if (allows(def, 'edit')) expect(auditCallName(`${def.name}_save`), def.name).toBe(`${def.label}の保存`);
      if (allows(def, 'delete')) expect(auditCallName(`${def.name}_del`), def.name).toBe(`${def.label}の削除`);
    }
    expect(auditTableName('company_setting')).toBe('自社情報');
    expect(auditTableName('order_setting')).toBe('受注設定');
    expect(auditCallName('company_save')).toBe('自社情報の保存');
    const server = sources('server');
    // The tables audit rows are written for: literals in the files that write them (`table: 'stock'`, an upload's `auditTable`).
    const tables = new Set(server.filter((f) => f.text.includes('audit/audit-log')).flatMap((f) => [...f.text.matchAll(/\b(?:auditTable|table): '(\w+)'/g)].map((m) => m[1])));
    expect(tables.size).toBeGreaterThan(10);
    for (const table of tables) expect(auditTableName(table), table).toMatch(JAPANESE);
    // The calls: every writing call of the call table, the calls that write in the name of another (`call: 'seed'`), a migration's.
    const calls = new Set([
      ...Object.entries(FIXED_CALLS).filter(([, entry]) => entry.level === 'write').map(([name]) => name),
      ...server.flatMap((f) => [
        ...[...f.text.matchAll(/\bcall: '(\w+)'/g)].map((m) => m[1]),
        ...[...f.text.matchAll(/_CALL = '(\w+)'/g)].map((m) => m[1]),
      ]),
    ]);
    expect(calls).toContain('closing_run');
    expect(calls).toContain('migration_0047');
    for (const call of calls) expect(auditCallName(call), call).toMatch(JAPANESE);
  });

  it('reads a log row’s changes, ignoring what is not a [before, after] pair', () => {
    expect(auditChanges('client', '{"cl_tel_1":["03-1","03-2"],"bad":1}')).toEqual([{ column: 'cl_tel_1', label: '電話番号1', before: '03-1', after: '03-2' }]);
    expect(auditChanges('client', 'not json')).toEqual([]);
    expect(auditChanges('client', null)).toEqual([]);
  });
});

describe('master catalogue', () => {
  it('lists each editable master once, with its screen where it has one of its own', () => {
    const tables = MASTER_CATALOGUE.map((m) => m.table);
    expect(new Set(tables).size).toBe(tables.length);
    expect(tables).not.toContain('mt_user');
    expect(MASTER_CATALOGUE.every((m) => m.label && m.description)).toBe(true);
    expect(masterOfPath('/system/itemcode')?.table).toBe('mt_item_class');
    expect(masterOfPath('/system/delivery')?.table).toBe('mt_delivery_time');
    expect(masterInfo('mt_bank')?.label).toBe('銀行');
    expect(masterInfo('mt_role')).toBeUndefined();
  });
});

describe('job names', () => {
  it('names a job by its kind and what it works on, in words (a closing by its month and group, not 20:202611)', () => {
    expect(jobTitle('closing_run', '20:202611')).toBe('締め処理（2026年11月 20日締め）');
    expect(jobTitle('billing_pdf_batch', '31:202611')).toBe('請求書の一括発行（2026年11月 末日締め）');
    expect(jobTitle('rental_generate', '202606')).toBe('月次サーバーレンタルの売上作成（2026年6月）');
    expect(jobTitle('hod_generate', '2026-05-01..2026-05-31')).toBe('定期配送の受注作成（2026-05-01〜2026-05-31）');
    expect(jobTitle('import_commit', 'client')).toMatch(/^データ取込（顧客/);
    expect(jobTitle('hod_generate', '')).toBe('定期配送の受注作成');
  });
});
