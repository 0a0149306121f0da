/**
 * ウォーターサーバー (call prefix `server`): the server ledger — serial number, model, status
 * (在庫 / 設置中 / メンテ待ち / メンテ中 / 廃棄), where it is (a warehouse or an installed customer), install,
 * maintenance and exchange dates, and the next maintenance due (about yearly). The rules below are
 * pure; server/servers/server-policy.ts applies them to the whole stored record as well (a save
 * may send only some fields) and derives the next due date.
 */
import { addYears } from '../format';
import { textOf } from './checks';
import type { Option, ResourceDef } from './types';

export const SERVER_STATUS: readonly Option[] = [
  { value: 'stock', text: '在庫' },
  { value: 'installed', text: '設置中' },
  /** Back from a customer (引上げ・交換), to be cleaned and checked before it goes out again. */
  { value: 'waiting', text: 'メンテ待ち' },
  { value: 'maintenance', text: 'メンテ中' },
  { value: 'disposed', text: '廃棄' },
];

const RULE_FIELDS = ['status', 'sk_id', 'cl_id', 'install_date', 'last_maintenance_date'] as const;

/**
 * Status rules: 設置中 needs a customer and an install date; 在庫 and メンテ待ち need a warehouse and no
 * customer; 廃棄 cannot be installed anywhere. Values that lack one of the fields involved (a
 * partial update) are left to the server, which checks the merged record.
 * @example serverProblems({ status: 'installed', sk_id: null, cl_id: null, install_date: '', last_maintenance_date: '' }) // { cl_id: '…', install_date: '…' }
 */
export function serverProblems(values: Record<string, unknown>): Record<string, string> | undefined {
  if (RULE_FIELDS.some((name) => values[name] === undefined)) return undefined;
  const status = textOf(values, 'status');
  const customer = textOf(values, 'cl_id');
  const problems: Record<string, string> = {};
  if (status === 'installed') {
    if (!customer) problems.cl_id = '状態が「設置中」のときは設置先顧客を選択してください。';
    if (!textOf(values, 'install_date')) problems.install_date = '状態が「設置中」のときは設置日を入力してください。';
  } else if (status === 'stock' || status === 'waiting') {
    const name = status === 'stock' ? '在庫' : 'メンテ待ち';
    if (!textOf(values, 'sk_id')) problems.sk_id = `状態が「${name}」のときは保管倉庫を選択してください。`;
    if (customer) problems.cl_id = `状態が「${name}」のサーバーには設置先顧客を設定できません。設置先顧客を外してください。`;
  } else if (status === 'disposed' && customer) {
    problems.cl_id = '廃棄したサーバーは設置できません。設置先顧客を外してください。';
  }
  const install = textOf(values, 'install_date');
  const maintained = textOf(values, 'last_maintenance_date');
  if (install && maintained && maintained < install) problems.last_maintenance_date = '前回メンテナンス日は設置日以降の日付を入力してください。';
  return Object.keys(problems).length ? problems : undefined;
}

/**
 * Maintenance is due about yearly: one year after the last maintenance, else after the
 * installation; '' when neither is known or the server is disposed.
 * @example defaultNextDue({ status: 'installed', install_date: '2025-04-01', last_maintenance_date: '' }) // '2026-04-01'
 */
export function defaultNextDue(values: Record<string, unknown>): string {
  if (textOf(values, 'status') === 'disposed') return '';
  const from = textOf(values, 'last_maintenance_date') || textOf(values, 'install_date');
  return from ? addYears(from, 1) : '';
}

export const serverResource = {
  name: 'server',
  label: 'サーバー',
  table: 'water_server',
  prefix: 'sv_',
  basePath: '/server',
  screens: { list: 'サーバー一覧', new: 'サーバー登録', detail: 'サーバー詳細', id: 'ser', underClient: { new: 'サーバー設置登録', detail: '設置サーバー' } },
  area: 'stock',
  storageKey: 'server',
  tabs: [
    { key: 'basic', label: '基本情報' },
    { key: 'maintenance', label: 'メンテナンス' },
  ],
  fields: [
    { name: 'serial_no', label: '製造番号', type: 'text', tab: 'basic', required: true, max: 30, unique: true },
    { name: 'model', label: '機種', type: 'select', tab: 'basic', master: 'mt_server_model', required: true },
    { name: 'status', label: '状態', type: 'select', tab: 'basic', options: SERVER_STATUS, required: true, initial: 'stock' },
    { name: 'sk_id', label: '保管倉庫', type: 'ref', ref: 'souko', master: 'mt_warehouse', tab: 'basic' },
    { name: 'cl_id', label: '設置先顧客', type: 'ref', ref: 'client', tab: 'basic' },
    { name: 'install_date', label: '設置日', type: 'date', tab: 'basic' },
    { name: 'rental_fee', label: '月額レンタル料', type: 'money', tab: 'basic', min: 0, max: 999_999 },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
    { name: 'last_maintenance_date', label: '前回メンテナンス日', type: 'date', tab: 'maintenance' },
    { name: 'next_due_date', label: '次回メンテナンス予定日', type: 'date', tab: 'maintenance', placeholder: '空欄なら前回メンテナンス日（または設置日）の1年後' },
    { name: 'exchange_date', label: '交換日', type: 'date', tab: 'maintenance' },
  ],
  list: {
    columns: [
      { name: 'sv_serial_no', label: '製造番号' },
      { name: 'sv_model', label: '機種', format: 'option' },
      { name: 'sv_status', label: '状態', format: 'option' },
      { name: 'sv_cl_id', label: '設置先顧客', format: 'ref' },
      { name: 'sv_sk_id', label: '保管倉庫', format: 'ref' },
      { name: 'sv_install_date', label: '設置日', format: 'date' },
      { name: 'sv_next_due_date', label: '次回メンテナンス', format: 'date' },
      { name: 'sv_rental_fee', label: '月額レンタル料', format: 'money' },
    ],
    sortable: ['sv_id', 'sv_serial_no', 'sv_model', 'sv_status', 'sv_install_date', 'sv_next_due_date', 'sv_rental_fee', 'created', 'modified'],
    keyword: ['serial_no', 'model', 'note'],
    defaultSort: { col: 'sv_serial_no', odr: 'asc' },
    totals: ['sv_rental_fee'],
    filters: [
      {
        name: 'due', label: 'メンテ期限', kind: 'relativeDate', column: 'sv_next_due_date',
        windows: [{ value: 'overdue', text: '期限切れ', to: -1 }, { value: 'soon', text: '30日以内', from: 0, to: 30 }],
      },
      { name: 'next_due_date', label: '次回メンテナンス予定日', kind: 'dateRange' },
      { name: 'status', label: '状態', kind: 'in' },
      { name: 'model', label: '機種', kind: 'in' },
      { name: 'install_date', label: '設置日', kind: 'dateRange' },
    ],
  },
  titleFields: ['serial_no'],
  related: [{ resource: 'serverhistory', field: 'sv_id', label: '設置履歴' }],
  check: serverProblems,
} as const satisfies ResourceDef;
