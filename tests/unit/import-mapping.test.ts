/**
 * The import machinery's header mapping (server/imports/run.ts `mapHeaders`): labels and synonyms as `searchKey` folds
 * them, the remembered and the given mapping, a file without a header row read by position (a B2-like kind), and the
 * Sagawa e飛伝III's 74 columns (with and without the header row), the
 * refusals naming a missing required column or the encoding of a header row that matches nothing.
 */
import { describe, expect, it } from 'vitest';
import type { ImportKindInfo } from '@/lib/imports/kinds';
import { clientImportKind } from '@/lib/imports/columns/client';
import { waybillSagawaImportKind } from '@/lib/imports/columns/waybill';
import { mapHeaders } from '@/server/imports/run';
import { SAGAWA_HEADER } from '../support/sagawa-issued';

const positioned: ImportKindInfo = {
  label: '送り状取込（試験）', area: 'import', format: 'csv', route: '/system/import',
  columns: [
    { field: 'order_no', label: 'お客様管理番号', required: true, position: 0 },
    { field: 'tracking_no', label: '伝票番号', required: true, position: 3 },
  ],
};

describe('mapHeaders', () => {
  it('matches labels and synonyms after NFKC, case folding and spaces', () => {
    const m = mapHeaders(clientImportKind, ['顧客コード', ' ＴＥＬ ', '〒', 'e-mail', '顧客名', '不明な列'], {}, undefined, 'utf8');
    expect(m.hasHeader).toBe(true);
    expect(m.mapping).toEqual({ code: '顧客コード', tel_1: 'ＴＥＬ', zipcode: '〒', email: 'e-mail', co_name: '顧客名' });
  });
  it('lets the remembered mapping (headers in the file) and then the given one decide', () => {
    const headers = ['コード', '屋号', '会社名'];
    const remembered = { code: 'コード', co_name: '屋号', tel_1: '電話（なし）' };
    expect(mapHeaders(clientImportKind, headers, remembered, undefined, 'utf8').mapping).toEqual({ code: 'コード', co_name: '屋号' });
    expect(mapHeaders(clientImportKind, headers, remembered, { co_name: '会社名', name: '屋号' }, 'utf8').mapping).toEqual({ code: 'コード', co_name: '会社名', name: '屋号' });
    expect(mapHeaders(clientImportKind, headers, remembered, { co_name: '' }, 'utf8').mapping).toEqual({ code: 'コード' });
  });
  it('refuses a missing required column, a given header the file lacks and a header row matching nothing', () => {
    expect(() => mapHeaders(clientImportKind, ['会社名'], {}, undefined, 'utf8')).toThrow('必須の列「顧客コード」がありません。');
    expect(() => mapHeaders(clientImportKind, ['顧客コード'], {}, { co_name: '屋号' }, 'utf8')).toThrow('「会社名」に対応させた見出し「屋号」がファイルにありません。');
    expect(() => mapHeaders(clientImportKind, ['ﾃﾞｰﾀ', '譁�ｭ怜喧'], {}, undefined, 'cp932')).toThrow(/^文字コードを確認してください（Shift_JIS として読んだ見出しに/);
  });
  it('reads a file without a header row by position, a given #n overriding', () => {
    const m = mapHeaders(positioned, ['1001', '', '', '123456789012'], {}, undefined, 'cp932');
    expect(m).toEqual({ headers: [], hasHeader: false, mapping: { order_no: '#1', tracking_no: '#4' } });
    expect(mapHeaders(positioned, ['1001', '', '', '1234'], {}, { tracking_no: '#5' }, 'cp932').mapping).toEqual({ order_no: '#1', tracking_no: '#5' });
    expect(mapHeaders(positioned, ['お客様管理番号', 'x', 'y', '伝票番号'], {}, undefined, 'cp932').hasHeader).toBe(true);
  });
  it('maps the Sagawa e飛伝III header (74 columns) by its labels, a headerless e飛伝 record by columns 10 and 62, a 送り状番号 header as the tracking number', () => {
    expect(SAGAWA_HEADER).toHaveLength(74);
    expect(mapHeaders(waybillSagawaImportKind, SAGAWA_HEADER, {}, undefined, 'cp932')).toMatchObject({ hasHeader: true, mapping: { order_no: 'お客様管理番号', tracking_no: 'お問い合せ送り状No.' } });
    const record = SAGAWA_HEADER.map(() => '');
    record[9] = 'OD20260501-000012';
    record[61] = '444413758703';
    expect(mapHeaders(waybillSagawaImportKind, record, {}, undefined, 'cp932')).toEqual({ headers: [], hasHeader: false, mapping: { order_no: '#10', tracking_no: '#62' } });
    expect(mapHeaders(waybillSagawaImportKind, ['お客様管理番号', 'お問合せ送り状No.'], {}, undefined, 'cp932').mapping).toEqual({ order_no: 'お客様管理番号', tracking_no: 'お問合せ送り状No.' });
    expect(mapHeaders(waybillSagawaImportKind, ['送り状番号', '受注番号'], {}, undefined, 'cp932').mapping).toEqual({ order_no: '受注番号', tracking_no: '送り状番号' });
  });
});
