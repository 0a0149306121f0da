/**
 * 対応履歴 (contact): who called about what, when, who handles it and how far it got.
 * Lists at /contact/list and in the customer's 対応履歴 tab; the reception date is remembered
 * between entries (spec §3 ct_uketsuke_date).
 */
import { textOf } from './checks';
import { clientRef, staffRef, STAMP_FILTERS } from './common';
import { KEYS } from '../storage-keys';
import * as O from './options';
import type { ResourceDef } from './types';

export const contactResource = {
  name: 'contact',
  label: '対応履歴',
  table: 'contact',
  prefix: 'ct_',
  basePath: '/contact',
  screens: { list: '対応履歴一覧', new: '対応履歴登録', detail: '対応履歴詳細', id: 'con', underClient: { new: '対応履歴登録', detail: '対応履歴' } },
  area: 'crm',
  storageKey: 'contact',
  tabs: [{ key: 'basic', label: '対応内容' }],
  fields: [
    clientRef('basic'),
    { name: 'uketsuke_date', label: '受付日', type: 'date', tab: 'basic', required: true, initial: 'today', remember: KEYS.contactReceiptDate },
    { name: 'channel', label: '受付方法', type: 'select', tab: 'basic', options: O.CONTACT_CHANNEL, required: true, initial: '1' },
    { name: 'caller', label: '相手（お名前）', type: 'text', tab: 'basic', max: 100 },
    { name: 'category', label: '分類', type: 'select', tab: 'basic', master: 'mt_contact_type' },
    { name: 'subject', label: '件名', type: 'text', tab: 'basic', required: true, max: 100, wide: true },
    { name: 'content', label: '内容', type: 'textarea', tab: 'basic', wide: true },
    staffRef('basic'),
    { name: 'status', label: '対応状況', type: 'select', tab: 'basic', options: O.CONTACT_STATUS, required: true, initial: '1' },
    { name: 'follow_date', label: 'フォロー予定日', type: 'date', tab: 'basic' },
    { name: 'done_date', label: '完了日', type: 'date', tab: 'basic' },
  ],
  list: {
    columns: [
      { name: 'ct_id', label: 'ID' },
      { name: 'ct_uketsuke_date', label: '受付日', format: 'date' },
      { name: 'ct_cl_id', label: '顧客', format: 'ref' },
      { name: 'ct_subject', label: '件名' },
      { name: 'ct_channel', label: '受付方法', format: 'option' },
      { name: 'ct_usr_id', label: '担当者', format: 'ref' },
      { name: 'ct_status', label: '対応状況', format: 'option' },
      { name: 'ct_follow_date', label: 'フォロー予定日', format: 'date' },
    ],
    sortable: ['ct_id', 'ct_uketsuke_date', 'ct_status', 'ct_follow_date', 'created', 'modified'],
    keyword: ['subject', 'content', 'caller'],
    defaultSort: { col: 'ct_id', odr: 'desc' },
    filters: [
      { name: 'uketsuke_date', label: '受付日', kind: 'dateRange' },
      { name: 'follow_date', label: 'フォロー予定日', kind: 'dateRange' },
      { name: 'status', label: '対応状況', kind: 'in' },
      { name: 'channel', label: '受付方法', kind: 'in' },
      ...STAMP_FILTERS,
    ],
  },
  titleFields: ['subject'],
  check: (values) => {
    if (values.status === '3' && values.done_date === '') return { done_date: '対応状況を「完了」にするときは完了日を入力してください。' };
    const done = textOf(values, 'done_date');
    if (done && done < textOf(values, 'uketsuke_date')) {
      return { done_date: '完了日は受付日以降の日付を入力してください。' };
    }
    return undefined;
  },
} as const satisfies ResourceDef;
