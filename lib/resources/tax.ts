/**
 * 税率 (consumption tax rate periods): class (標準 / 軽減), rate and the days it applies. Periods of
 * one class may not overlap (server/tax/tax-policy.ts); which rate applies on a date is
 * answered by `rateOn` (lib/tax.ts) alone. Migration 0008 seeds the Japanese rates since 1989.
 */
import { textOf } from './checks';
import type { Option, ResourceDef } from './types';

export const TAX_RATE_CLASS: readonly Option[] = [
  { value: 'standard', text: '標準税率' },
  { value: 'reduced', text: '軽減税率' },
];

export const taxResource = {
  name: 'tax',
  label: '税率',
  table: 'tax_rate',
  prefix: 'tx_',
  basePath: '/tax',
  screens: { list: '税率一覧', new: '税率登録', detail: '税率詳細', id: 'tax' },
  area: 'system',
  storageKey: 'tax',
  tabs: [{ key: 'basic', label: '税率' }],
  fields: [
    { name: 'tax_class', label: '税率区分', type: 'select', tab: 'basic', options: TAX_RATE_CLASS, required: true, initial: 'standard' },
    { name: 'rate', label: '税率（%）', type: 'number', tab: 'basic', required: true, min: 0, max: 100 },
    { name: 'valid_from', label: '適用開始日', type: 'date', tab: 'basic', required: true },
    { name: 'valid_to', label: '適用終了日', type: 'date', tab: 'basic', placeholder: '空欄なら終了日なし' },
    { name: 'label', label: '表示名', type: 'text', tab: 'basic', required: true, max: 50 },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
  ],
  list: {
    columns: [
      { name: 'tx_label', label: '表示名' },
      { name: 'tx_tax_class', label: '税率区分', format: 'option' },
      { name: 'tx_rate', label: '税率（%）' },
      { name: 'tx_valid_from', label: '適用開始日', format: 'date' },
      { name: 'tx_valid_to', label: '適用終了日', format: 'date' },
    ],
    sortable: ['tx_id', 'tx_tax_class', 'tx_rate', 'tx_valid_from', 'tx_valid_to', 'created', 'modified'],
    keyword: ['label', 'note'],
    defaultSort: { col: 'tx_valid_from', odr: 'desc' },
    filters: [
      { name: 'tax_class', label: '税率区分', kind: 'in' },
      { name: 'valid_from', label: '適用開始日', kind: 'dateRange' },
    ],
  },
  titleFields: ['label'],
  check: (values) => {
    const from = textOf(values, 'valid_from');
    const to = textOf(values, 'valid_to');
    return from && to && to < from ? { valid_to: '適用終了日は適用開始日以降の日付を入力してください。' } : undefined;
  },
} as const satisfies ResourceDef;
