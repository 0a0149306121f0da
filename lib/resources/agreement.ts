/**
 * 契約 (agreement): a customer's contract — type, dates, rented servers, monthly fees, minimum
 * order, skips and cancellation. Lives under the customer (/client/detail/{id}/agreement/{agr}).
 */
import { textOf } from './checks';
import { clientRef } from './common';
import * as O from './options';
import type { ResourceDef } from './types';

export const agreementResource = {
  name: 'agreement',
  label: '契約',
  table: 'agreement',
  prefix: 'ag_',
  basePath: '/agreement',
  screens: { id: 'agr', underClient: { new: '契約登録', detail: '契約詳細', newPath: 'agreement_new' } },
  area: 'client',
  storageKey: 'agreement',
  tabs: [
    { key: 'basic', label: '契約内容' },
    { key: 'fee', label: '料金・条件' },
    { key: 'cancel', label: '解約' },
  ],
  fields: [
    clientRef('basic'),
    { name: 'agreement_no', label: '契約番号', type: 'text', tab: 'basic', required: true, max: 20, unique: true },
    { name: 'contract_type', label: '契約種別', type: 'select', tab: 'basic', master: 'mt_contract_type', required: true },
    { name: 'status', label: '契約状況', type: 'select', tab: 'basic', options: O.AGREEMENT_STATUS, required: true, initial: '1' },
    { name: 'contract_date', label: '契約日', type: 'date', tab: 'basic', required: true, initial: 'today' },
    { name: 'start_date', label: '利用開始日', type: 'date', tab: 'basic' },
    { name: 'end_date', label: '契約満了日', type: 'date', tab: 'basic' },
    { name: 'server_model', label: 'サーバー機種', type: 'select', tab: 'basic', master: 'mt_server_model' },
    { name: 'server_count', label: 'レンタル台数', type: 'number', tab: 'basic', min: 0, max: 99 },
    { name: 'rental_fee', label: 'サーバーレンタル料（月額）', type: 'money', tab: 'fee', min: 0, max: 9_999_999 },
    { name: 'maintenance_fee', label: 'メンテナンス料（月額）', type: 'money', tab: 'fee', min: 0, max: 9_999_999 },
    { name: 'min_order', label: '最低注文本数（月）', type: 'number', tab: 'fee', min: 0, max: 999 },
    { name: 'free_skips', label: '無料スキップ回数（年）', type: 'number', tab: 'fee', min: 0, max: 99 },
    { name: 'pause_fee', label: '休止手数料', type: 'money', tab: 'fee', min: 0, max: 9_999_999 },
    { name: 'deposit', label: '容器保証金', type: 'money', tab: 'fee', min: 0, max: 9_999_999 },
    { name: 'cancel_date', label: '解約日', type: 'date', tab: 'cancel' },
    { name: 'cancel_reason', label: '解約理由', type: 'text', tab: 'cancel', max: 200, wide: true },
    { name: 'cancel_fee', label: '解約手数料', type: 'money', tab: 'cancel', min: 0, max: 9_999_999 },
    { name: 'note', label: '備考', type: 'textarea', tab: 'cancel', wide: true },
  ],
  list: {
    columns: [
      { name: 'ag_agreement_no', label: '契約番号' },
      { name: 'ag_contract_type', label: '契約種別', format: 'option' },
      { name: 'ag_status', label: '契約状況', format: 'option' },
      { name: 'ag_contract_date', label: '契約日', format: 'date' },
      { name: 'ag_server_count', label: '台数' },
      { name: 'ag_rental_fee', label: 'レンタル料（月額）', format: 'money' },
      { name: 'ag_cancel_date', label: '解約日', format: 'date' },
    ],
    sortable: ['ag_id', 'ag_agreement_no', 'ag_contract_date', 'ag_status', 'ag_rental_fee', 'created', 'modified'],
    keyword: ['agreement_no', 'note', 'cancel_reason'],
    defaultSort: { col: 'ag_contract_date', odr: 'desc' },
    totals: ['ag_rental_fee'],
    filters: [
      { name: 'contract_date', label: '契約日', kind: 'dateRange' },
      { name: 'status', label: '契約状況', kind: 'in' },
    ],
  },
  titleFields: ['agreement_no'],
  check: (values): Record<string, string> | undefined => {
    const day = (name: string) => textOf(values, name);
    if (day('start_date') && day('end_date') && day('end_date') < day('start_date')) return { end_date: '契約満了日は利用開始日以降の日付を入力してください。' };
    if (values.status === '9' && !day('cancel_date')) return { cancel_date: '契約状況を「解約済」にするときは解約日を入力してください。' };
    if (day('cancel_date') && day('cancel_date') < day('contract_date')) return { cancel_date: '解約日は契約日以降の日付を入力してください。' };
    return undefined;
  },
} as const satisfies ResourceDef;
