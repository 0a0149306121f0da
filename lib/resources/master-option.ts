/**
 * マスタ項目 (one row of a master table `mt_*`, stored in `master_option`). Edited on the master
 * screens (/system/master/, /system/itemcode, /system/delivery); `master_lst` answers the live rows
 * as select options. The code is fixed once registered (records keep it), and a row is deleted
 * softly (server/master/master-option-policy.ts).
 */
import { MASTER_TABLE_OPTIONS } from '../system/masters';
import type { ResourceDef } from './types';

export const masterOptionResource = {
  name: 'master_option',
  label: 'マスタ項目',
  table: 'master_option',
  prefix: 'mo_',
  basePath: '/system/master',
  area: 'system',
  storageKey: 'master',
  tabs: [{ key: 'basic', label: 'マスタ項目' }],
  fields: [
    { name: 'table', label: 'マスタ', type: 'select', tab: 'basic', options: MASTER_TABLE_OPTIONS, required: true },
    { name: 'value', label: 'コード', type: 'text', tab: 'basic', required: true, max: 20 },
    { name: 'text', label: '名称', type: 'text', tab: 'basic', required: true, max: 100 },
    { name: 'flg', label: 'フラグ', type: 'flag', tab: 'basic' },
    { name: 'sort', label: '表示順', type: 'number', tab: 'basic', min: 0, max: 99_999 },
  ],
  list: {
    columns: [
      { name: 'mo_value', label: 'コード' },
      { name: 'mo_text', label: '名称' },
      { name: 'mo_flg', label: 'フラグ', format: 'flag' },
      { name: 'mo_sort', label: '表示順' },
    ],
    sortable: ['mo_id', 'mo_value', 'mo_text', 'mo_flg', 'mo_sort', 'modified'],
    keyword: ['value', 'text'],
    defaultSort: { col: 'mo_sort', odr: 'asc' },
    filters: [{ name: 'table', label: 'マスタ', kind: 'in', options: MASTER_TABLE_OPTIONS }],
  },
  titleFields: ['text', 'value'],
  uniqueTogether: [{ fields: ['value', 'table'], message: 'このマスタには同じコードが既に登録されています。別のコードを入力してください。' }],
  check: (values) =>
    typeof values.value === 'string' && values.value !== '' && !/^[0-9A-Za-z_-]+$/.test(values.value)
      ? { value: 'コードは半角英数字・ハイフン・アンダースコアで入力してください。' }
      : undefined,
} as const satisfies ResourceDef;
