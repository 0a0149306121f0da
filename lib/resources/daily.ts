/** 日報 (daily report): one per staff member per day. */
import { textOf } from './checks';
import { staffRef, STAMP_FILTERS } from './common';
import type { ResourceDef } from './types';

export const dailyResource = {
  name: 'daily',
  label: '日報',
  table: 'daily',
  prefix: 'dr_',
  basePath: '/daily',
  screens: { list: '日報一覧', new: '日報登録', detail: '日報詳細', id: 'rep' },
  area: 'crm',
  storageKey: 'daily',
  tabs: [
    { key: 'basic', label: '日報' },
    { key: 'review', label: '上長確認' },
  ],
  fields: [
    staffRef('basic', { required: true }),
    { name: 'report_date', label: '日付', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { name: 'start_time', label: '始業時刻', type: 'text', tab: 'basic', max: 5, placeholder: '9:00' },
    { name: 'end_time', label: '終業時刻', type: 'text', tab: 'basic', max: 5, placeholder: '18:00' },
    { name: 'visits', label: '訪問件数', type: 'number', tab: 'basic', min: 0, max: 999 },
    { name: 'deliveries', label: '配送件数', type: 'number', tab: 'basic', min: 0, max: 9999 },
    { name: 'new_contracts', label: '新規契約数', type: 'number', tab: 'basic', min: 0, max: 999 },
    { name: 'content', label: '業務内容', type: 'textarea', tab: 'basic', wide: true, required: true },
    { name: 'issues', label: '課題・連絡事項', type: 'textarea', tab: 'basic', wide: true },
    { name: 'plan', label: '翌日の予定', type: 'textarea', tab: 'basic', wide: true },
    { name: 'manager_comment', label: '上長コメント', type: 'textarea', tab: 'review', wide: true },
    { name: 'checked', label: '確認済み', type: 'flag', tab: 'review' },
  ],
  list: {
    columns: [
      { name: 'dr_id', label: 'ID' },
      { name: 'dr_report_date', label: '日付', format: 'date' },
      { name: 'dr_usr_id', label: '担当者', format: 'ref' },
      { name: 'dr_visits', label: '訪問件数' },
      { name: 'dr_deliveries', label: '配送件数' },
      { name: 'dr_new_contracts', label: '新規契約数' },
      { name: 'dr_checked', label: '確認', format: 'flag' },
    ],
    sortable: ['dr_id', 'dr_report_date', 'dr_visits', 'dr_deliveries', 'dr_new_contracts', 'created', 'modified'],
    keyword: ['content', 'issues', 'plan'],
    defaultSort: { col: 'dr_report_date', odr: 'desc' },
    filters: [
      { name: 'report_date', label: '日付', kind: 'dateRange' },
      { name: 'checked', label: '確認', kind: 'in', options: [{ value: '0', text: '未確認' }, { value: '1', text: '確認済み' }] },
      STAMP_FILTERS[0],
    ],
  },
  titleFields: ['report_date'],
  uniqueTogether: [{ fields: ['usr_id', 'report_date'], message: 'この担当者のこの日の日報は既に登録されています。' }],
  check: (values) => {
    const time = /^([01]?\d|2[0-3]):[0-5]\d$/;
    const out: Record<string, string> = {};
    for (const [name, label] of [['start_time', '始業時刻'], ['end_time', '終業時刻']] as const) {
      const value = textOf(values, name);
      if (value && !time.test(value)) out[name] = `${label}は H:mm の形式で入力してください（例: 9:00）。`;
    }
    return Object.keys(out).length ? out : undefined;
  },
} as const satisfies ResourceDef;
