/**
 * JACCS 取込 (/system/jaccs): the direct-debit result file (全銀 種別91, 120-byte records). A fixed-format kind: the
 * handler (server/imports/kinds/jaccs_result.ts) reads the bytes itself; these are the fields of each data record it
 * answers, and the labels its errors name.
 */
import type { ImportColumn, ImportKindInfo } from '../kinds';
import { IMPORT_PAGES } from '../pages';

export const JACCS_RESULT_COLUMNS: readonly ImportColumn[] = [
  { field: 'debit_code', label: '顧客番号', required: true },
  { field: 'amount', label: '引落金額', required: true },
  { field: 'result', label: '振替結果コード', required: true },
  { field: 'debit_mmdd', label: '引落日' },
  { field: 'bank_code', label: '引落銀行番号' },
  { field: 'branch_code', label: '引落支店番号' },
  { field: 'account_type', label: '預金種目' },
  { field: 'account_no', label: '口座番号' },
  { field: 'holder', label: '預金者名' },
  { field: 'block', label: 'ブロック' },
];

export const jaccsResultImportKind: ImportKindInfo = {
  label: IMPORT_PAGES.jaccs_result.label,
  area: 'import',
  format: 'fixed',
  route: IMPORT_PAGES.jaccs_result.route,
  notices: '振替不能',
  columns: JACCS_RESULT_COLUMNS,
};
