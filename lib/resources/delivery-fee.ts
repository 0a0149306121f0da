/**
 * 都道府県別送料: one row per prefecture (JIS X 0401 code), seeded by migration 0007. Only the
 * amounts and the note are edited, all 47 rows on one screen and saved together
 * (`deliveryfee_bulk_save`, one transaction). The amounts are tax-exclusive: an order adds the
 * standard rate's consumption tax on them (lib/orders/delivery-fee, lib/orders/totals).
 */
import type { ResourceDef } from './types';

/** Largest fee or surcharge in yen. */
export const MAX_DELIVERY_FEE = 99_999;

export const deliveryFeeResource = {
  name: 'deliveryfee',
  label: '都道府県別送料',
  table: 'delivery_fee',
  prefix: 'df_',
  basePath: '/system/deliveryfee',
  area: 'system',
  storageKey: 'deliveryfee',
  tabs: [{ key: 'basic', label: '送料' }],
  fields: [
    { name: 'pref_code', label: '都道府県コード', type: 'text', tab: 'basic', readOnly: true },
    { name: 'pref_name', label: '都道府県', type: 'text', tab: 'basic', readOnly: true },
    { name: 'fee', label: '送料', type: 'money', tab: 'basic', required: true, min: 0, max: MAX_DELIVERY_FEE },
    { name: 'remote_fee', label: '離島・遠隔地加算', type: 'money', tab: 'basic', required: true, min: 0, max: MAX_DELIVERY_FEE },
    { name: 'note', label: '備考', type: 'text', tab: 'basic', max: 100 },
  ],
  list: {
    columns: [
      { name: 'df_pref_code', label: 'コード' },
      { name: 'df_pref_name', label: '都道府県' },
      { name: 'df_fee', label: '送料', format: 'money' },
      { name: 'df_remote_fee', label: '離島・遠隔地加算', format: 'money' },
      { name: 'df_note', label: '備考' },
    ],
    sortable: ['df_pref_code', 'df_fee', 'df_remote_fee', 'modified'],
    keyword: ['pref_name', 'note'],
    defaultSort: { col: 'df_pref_code', odr: 'asc' },
    filters: [],
  },
  titleFields: ['pref_name'],
  ops: { create: false, delete: false, bulk: true },
} as const satisfies ResourceDef;
