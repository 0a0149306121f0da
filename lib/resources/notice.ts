/**
 * お知らせ (notice): a title and a text shown on the home page from 表示開始日 to 表示終了日 (open-ended when empty) to the
 * users of one role (every role when empty). Entered by whoever may write the system settings, under /system/notice; the
 * home page reads the notices of the user's role for today with `notice_home` (server/notice).
 */
import type { ResourceDef } from './types';

export const noticeResource = {
  name: 'notice',
  label: 'お知らせ',
  table: 'notice',
  prefix: 'nt_',
  basePath: '/system/notice',
  screens: { list: 'お知らせ一覧', new: 'お知らせ登録', detail: 'お知らせ詳細', id: 'nt' },
  area: 'system',
  storageKey: 'notice',
  tabs: [{ key: 'basic', label: 'お知らせ' }],
  fields: [
    { name: 'title', label: 'タイトル', type: 'text', tab: 'basic', required: true, max: 100, wide: true },
    { name: 'body', label: '本文', type: 'textarea', tab: 'basic', max: 2000, wide: true },
    { name: 'from', label: '表示開始日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { name: 'to', label: '表示終了日', type: 'date', tab: 'basic', hint: '空欄のときは終了日なしで表示します' },
    { name: 'role', label: '表示する権限', type: 'select', tab: 'basic', master: 'mt_role', hint: '空欄のときはすべての権限に表示します' },
  ],
  list: {
    columns: [
      { name: 'nt_id', label: 'ID' },
      { name: 'nt_title', label: 'タイトル' },
      { name: 'nt_from', label: '表示開始日', format: 'date' },
      { name: 'nt_to', label: '表示終了日', format: 'date' },
      { name: 'nt_role', label: '表示する権限' },
      { name: 'modified', label: '更新日時', format: 'datetime' },
    ],
    sortable: ['nt_id', 'nt_title', 'nt_from', 'nt_to', 'nt_role', 'created', 'modified'],
    keyword: ['title', 'body'],
    defaultSort: { col: 'nt_from', odr: 'desc' },
    filters: [
      { name: 'from', label: '表示開始日', kind: 'dateRange' },
      { name: 'created', label: '登録日', kind: 'dateRange' },
      { name: 'modified', label: '更新日', kind: 'dateRange' },
    ],
  },
  titleFields: ['title'],
  check: (values) =>
    typeof values.from === 'string' && typeof values.to === 'string' && values.to !== '' && values.to < values.from
      ? { to: '表示終了日は表示開始日以降の日付を入力してください。' }
      : undefined,
} as const satisfies ResourceDef;
