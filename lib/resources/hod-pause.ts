/**
 * 休配・スキップ (hodpause): a customer's exceptions to their regular delivery — pause periods (休止期間,
 * from..to) and one-off skips (スキップ, one day: to = from). Lives under the customer
 * (/client/detail/{id}/hodpause/{hp}); the schedule engine (lib/hod/schedule.ts) skips the deliveries they cover.
 */
import { EXCEPTION_KIND } from '../hod/kinds';
import { textOf } from './checks';
import { clientRef } from './common';
import * as O from './options';
import type { ResourceDef } from './types';

/** A pause period has an end (the form's check and the server's policy both say so). */
export const PAUSE_NEEDS_END = '休止期間は終了日を入力してください。';

export const hodPauseResource = {
  name: 'hodpause',
  label: '休配・スキップ',
  table: 'hod_pause',
  prefix: 'hp_',
  basePath: '/hodpause',
  screens: { id: 'hp', underClient: { new: '休配・スキップ登録', detail: '休配・スキップ' } },
  area: 'hod',
  storageKey: 'hodpause',
  tabs: [{ key: 'basic', label: '休配・スキップ' }],
  fields: [
    clientRef('basic'),
    { name: 'kind', label: '種別', type: 'select', tab: 'basic', options: O.HOD_EXCEPTION_KIND, required: true, initial: EXCEPTION_KIND.pause },
    { name: 'from_date', label: '開始日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { name: 'to_date', label: '終了日', type: 'date', tab: 'basic', hint: '休止期間の最終日。スキップは開始日と同じ日（空欄なら開始日）。' },
    { name: 'reason', label: '理由', type: 'text', tab: 'basic', max: 100 },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
  ],
  list: {
    columns: [
      { name: 'hp_kind', label: '種別', format: 'option', field: 'kind' },
      { name: 'hp_from_date', label: '開始日', format: 'date' },
      { name: 'hp_to_date', label: '終了日', format: 'date' },
      { name: 'hp_reason', label: '理由' },
      { name: 'hp_note', label: '備考' },
    ],
    sortable: ['hp_id', 'hp_kind', 'hp_from_date', 'hp_to_date', 'created', 'modified'],
    keyword: ['reason', 'note'],
    keywordHint: '理由・備考',
    defaultSort: { col: 'hp_from_date', odr: 'desc' },
    filters: [
      { name: 'kind', label: '種別', kind: 'in' },
      { name: 'from_date', label: '開始日', kind: 'dateRange' },
    ],
  },
  titleFields: ['from_date'],
  check: (values) => {
    const kind = textOf(values, 'kind');
    const from = textOf(values, 'from_date');
    const to = textOf(values, 'to_date');
    if (kind === EXCEPTION_KIND.pause && values.to_date !== undefined && !to) return { to_date: PAUSE_NEEDS_END };
    if (kind === EXCEPTION_KIND.skip && from && to && to !== from) return { to_date: 'スキップの終了日は開始日と同じ日にしてください。' };
    return from && to && to < from ? { to_date: '終了日は開始日以降の日付を入力してください。' } : undefined;
  },
} as const satisfies ResourceDef;
