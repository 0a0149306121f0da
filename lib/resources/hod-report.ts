/**
 * 配送実績 (hodreport): the delivery result of one round (配送便: date, staff, team, vehicle/route,
 * note) and its stops (table `hod_report_stop`, answered by `hodreport_stop_lst`): per customer the
 * bottles delivered and empties collected of a returnable item, the cash collected and the result.
 * The save writes the round and its stops (`stops` in the postData) in one transaction, and each
 * stop's bottles become the customer's bottle movements dated the round's date
 * (server/hod/hod-report-policy.ts).
 */
import { staffRef } from './common';
import type { ResourceDef } from './types';

/** A stop's result. */
export const HOD_STOP_RESULT = [
  { value: 'delivered', text: '配達済' },
  { value: 'absent', text: '不在' },
  { value: 'redelivery', text: '再配達' },
  { value: 'declined', text: '辞退' },
] as const;

export type HodStopResult = (typeof HOD_STOP_RESULT)[number]['value'];

/** One stop as sent in `stops` (form values; numbers may be text). */
export interface HodStopInput {
  cl_id?: unknown;
  it_id?: unknown;
  delivered?: unknown;
  collected?: unknown;
  cash?: unknown;
  result?: unknown;
  note?: unknown;
}

/** One stored stop, as `hodreport_stop_lst` answers it (with the customer's and item's names). */
export interface HodStop {
  hrs_id: number;
  hrs_hr_id: number;
  hrs_sort: number;
  hrs_cl_id: number;
  hrs_it_id: number | null;
  hrs_delivered: number;
  hrs_collected: number;
  hrs_cash: number;
  hrs_result: HodStopResult;
  hrs_note: string;
  /** The bottle movement the stop's bottles are booked as (shared by the round's stops of one customer × item). */
  hrs_bt_id: number | null;
}

/**
 * A 保証金 slip the round's bottles made (`hodreport_slip_lst`): bottles left at a customer are booked as a bottle movement,
 * and its 容器保証金 becomes a sales slip (server/stock/bottle-policy.ts) — the round's screen names each one.
 */
export interface HodReportSlip {
  sl_id: number;
  sl_number: string;
  sl_date: string;
  sl_total: number;
  cl_id: number;
  /** The customer's name (会社名, else 氏名). */
  cl_name: string;
}

export const hodReportResource = {
  name: 'hodreport',
  label: '配送実績',
  table: 'hod_report',
  prefix: 'hr_',
  basePath: '/hod/report',
  screens: { list: '配送実績', new: '配送実績登録', detail: '配送実績詳細', id: 'hod', listPath: '/hod/report/', detailPath: '/hod/report/:hod' },
  area: 'hod',
  storageKey: 'hodreport',
  tabs: [{ key: 'basic', label: '配送便' }],
  fields: [
    { name: 'date', label: '配送日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    staffRef('basic'),
    { name: 'team', label: 'チーム', type: 'text', tab: 'basic', max: 50 },
    { name: 'route', label: '車両・ルート', type: 'text', tab: 'basic', max: 100 },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
    { name: 'stop_count', label: '訪問件数', type: 'number', tab: 'basic', readOnly: true },
    { name: 'delivered_total', label: 'お届け本数計', type: 'number', tab: 'basic', readOnly: true },
    { name: 'collected_total', label: '回収本数計', type: 'number', tab: 'basic', readOnly: true },
    { name: 'cash_total', label: '集金額計', type: 'money', tab: 'basic', readOnly: true },
  ],
  list: {
    columns: [
      { name: 'hr_date', label: '配送日', format: 'date' },
      { name: 'hr_usr_id', label: '担当者', format: 'ref' },
      { name: 'hr_team', label: 'チーム' },
      { name: 'hr_route', label: '車両・ルート' },
      { name: 'hr_stop_count', label: '訪問件数' },
      { name: 'hr_delivered_total', label: 'お届け本数' },
      { name: 'hr_collected_total', label: '回収本数' },
      { name: 'hr_cash_total', label: '集金額', format: 'money' },
    ],
    sortable: ['hr_id', 'hr_date', 'hr_team', 'hr_route', 'hr_cash_total', 'created', 'modified'],
    keyword: ['team', 'route', 'note'],
    keywordHint: 'チーム・車両・ルート・備考',
    defaultSort: { col: 'hr_date', odr: 'desc' },
    totals: ['hr_cash_total'],
    filters: [
      { name: 'date', label: '配送日', kind: 'dateRange' },
      { name: 'usr_id', label: '担当者', kind: 'in' },
    ],
  },
  titleFields: ['date', 'route'],
  children: {
    key: 'stops',
    label: '訪問先',
    table: 'hod_report_stop',
    prefix: 'hrs_',
    parentField: 'hr_id',
    sortField: 'sort',
    call: 'hodreport_stop_lst',
    max: 300,
    fields: [
      { name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab: 'stops', required: true },
      { name: 'it_id', label: 'ボトル商品', type: 'ref', ref: 'item', tab: 'stops', hint: 'ボトルが動くときは必須' },
      { name: 'delivered', label: 'お届け本数', type: 'number', tab: 'stops', min: 0, max: 9_999 },
      { name: 'collected', label: '空ボトル回収本数', type: 'number', tab: 'stops', min: 0, max: 9_999 },
      { name: 'cash', label: '集金額', type: 'money', tab: 'stops', min: 0, max: 9_999_999 },
      { name: 'result', label: '結果', type: 'select', tab: 'stops', options: HOD_STOP_RESULT, initial: 'delivered' },
      { name: 'note', label: 'メモ', type: 'text', tab: 'stops', max: 200 },
    ],
  },
} as const satisfies ResourceDef;
