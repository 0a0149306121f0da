/**
 * 倉庫 (warehouse): call prefix `souko` (spec §7 `souko_dtl`), screens under /warehouse. Its stock per
 * item lives in the `stock` table (server/stock): `stock_lst` with `sk_id`, changed only by
 * `stock_adjust`. A warehouse holding stock, or named as a customer's 出荷倉庫, cannot be deleted
 * (server/stock/souko-policy.ts). The customer form's 出荷倉庫 reads `mt_warehouse`.
 */
import { PREFECTURE_OPTIONS } from '../prefectures';
import { codeProblem } from './checks';
import type { ResourceDef } from './types';

export const soukoResource = {
  name: 'souko',
  label: '倉庫',
  table: 'warehouse',
  prefix: 'sk_',
  basePath: '/warehouse',
  screens: { list: '倉庫一覧', new: '倉庫登録', detail: '倉庫詳細', id: 'war' },
  area: 'stock',
  storageKey: 'warehouse',
  tabs: [{ key: 'basic', label: '倉庫情報' }],
  fields: [
    { name: 'code', label: '倉庫コード', type: 'text', tab: 'basic', required: true, max: 20, unique: true },
    { name: 'name', label: '倉庫名', type: 'text', tab: 'basic', required: true, max: 100 },
    { name: 'zipcode', label: '郵便番号', type: 'zip', tab: 'basic' },
    { name: 'pref', label: '都道府県', type: 'select', tab: 'basic', options: PREFECTURE_OPTIONS },
    { name: 'address', label: '住所', type: 'text', tab: 'basic', max: 200, wide: true },
    { name: 'tel', label: '電話番号', type: 'tel', tab: 'basic' },
    { name: 'manager_id', label: '管理責任者', type: 'ref', ref: 'user', master: 'mt_user', tab: 'basic' },
    { name: 'active', label: '使用中', type: 'flag', tab: 'basic', initial: '1' },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
  ],
  list: {
    columns: [
      { name: 'sk_code', label: '倉庫コード' },
      { name: 'sk_name', label: '倉庫名' },
      { name: 'sk_pref', label: '都道府県' },
      { name: 'sk_tel', label: '電話番号' },
      { name: 'sk_manager_id', label: '管理責任者', format: 'ref' },
      { name: 'sk_active', label: '使用中', format: 'flag' },
    ],
    sortable: ['sk_id', 'sk_code', 'sk_name', 'sk_pref', 'created', 'modified'],
    keyword: ['code', 'name', 'pref', 'address', 'tel', 'note'],
    defaultSort: { col: 'sk_code', odr: 'asc' },
    filters: [
      { name: 'active', label: '状態', kind: 'in', options: [{ value: '1', text: '使用中' }, { value: '0', text: '使用停止' }] },
      { name: 'created', label: '登録日', kind: 'dateRange' },
    ],
  },
  titleFields: ['name', 'code'],
  check: (values) => codeProblem(values, 'code', '倉庫コード'),
} as const satisfies ResourceDef;
