/** 営業報告 (sales report): a visit, call or meeting with a customer and what came of it. */
import { textOf } from './checks';
import { clientRef, staffRef, STAMP_FILTERS } from './common';
import * as O from './options';
import type { ResourceDef } from './types';

export const reportResource = {
  name: 'report',
  label: '営業報告',
  table: 'report',
  prefix: 'rp_',
  basePath: '/report',
  screens: { list: '営業報告一覧', new: '営業報告登録', detail: '営業報告詳細', id: 'rep', underClient: { new: '営業報告登録', detail: '営業報告' } },
  area: 'crm',
  storageKey: 'report',
  tabs: [{ key: 'basic', label: '営業報告' }],
  fields: [
    clientRef('basic'),
    { name: 'report_date', label: '報告日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    staffRef('basic', { required: true }),
    { name: 'kind', label: '活動区分', type: 'select', tab: 'basic', options: O.REPORT_KIND, required: true, initial: '1' },
    { name: 'title', label: '件名', type: 'text', tab: 'basic', required: true, max: 100, wide: true },
    { name: 'content', label: '報告内容', type: 'textarea', tab: 'basic', wide: true, required: true },
    { name: 'result', label: '結果', type: 'select', tab: 'basic', options: O.REPORT_RESULT },
    { name: 'next_action', label: '次回アクション', type: 'text', tab: 'basic', max: 200 },
    { name: 'next_date', label: '次回予定日', type: 'date', tab: 'basic' },
  ],
  list: {
    columns: [
      { name: 'rp_id', label: 'ID' },
      { name: 'rp_report_date', label: '報告日', format: 'date' },
      { name: 'rp_cl_id', label: '顧客', format: 'ref' },
      { name: 'rp_title', label: '件名' },
      { name: 'rp_kind', label: '活動区分', format: 'option' },
      { name: 'rp_usr_id', label: '担当者', format: 'ref' },
      { name: 'rp_result', label: '結果', format: 'option' },
      { name: 'rp_next_date', label: '次回予定日', format: 'date' },
    ],
    sortable: ['rp_id', 'rp_report_date', 'rp_kind', 'rp_result', 'rp_next_date', 'created', 'modified'],
    keyword: ['title', 'content', 'next_action'],
    defaultSort: { col: 'rp_id', odr: 'desc' },
    filters: [
      { name: 'report_date', label: '報告日', kind: 'dateRange' },
      { name: 'kind', label: '活動区分', kind: 'in' },
      { name: 'result', label: '結果', kind: 'in' },
      { name: 'next_date', label: '次回予定日', kind: 'dateRange' },
      ...STAMP_FILTERS,
    ],
  },
  titleFields: ['title'],
  check: (values) =>
    textOf(values, 'next_date') && textOf(values, 'next_date') < textOf(values, 'report_date')
      ? { next_date: '次回予定日は報告日以降の日付を入力してください。' }
      : undefined,
} as const satisfies ResourceDef;
