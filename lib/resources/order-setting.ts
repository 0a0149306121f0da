/**
 * 受注設定 (`/system/orders`): one record (id 1) read by the order save — the order number's
 * format, the warehouse and time slot an order takes when neither the form nor the customer names
 * one, and the same-day cut-off: a new order of today without a delivery date is delivered today
 * when entered before the cut-off time, else tomorrow.
 */
import { addDays, formatTime, todayJst } from '../format';
import { orderNumberFormatProblem } from '../orders/number';
import type { ResourceDef } from './types';
import { cellText } from './checks';

export const ORDER_SETTING_ID = 1;

/** `HH:MM`, 00:00–24:00. */
export const isCutoffTime = (value: string): boolean => /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/.test(value);

/**
 * The delivery date a new order without one takes: for an order of today, today before the
 * cut-off and tomorrow from it; nothing for an order of another day.
 * @example defaultDeliveryDate('2026-11-22', new Date('2026-11-22T01:00:00Z'), '12:00') // '2026-11-22' (10:00 JST)
 */
export function defaultDeliveryDate(orderDate: string, now: Date, cutoff: string): string {
  const today = todayJst(now);
  if (orderDate !== today || !isCutoffTime(cutoff)) return '';
  return formatTime(now).padStart(5, '0') < cutoff ? today : addDays(today, 1);
}

export const orderSettingResource = {
  name: 'ordersetting',
  label: '受注設定',
  table: 'order_setting',
  prefix: 'os_',
  basePath: '/system/orders',
  screens: { detail: '受注設定' },
  area: 'system',
  storageKey: 'ordersetting',
  tabs: [{ key: 'basic', label: '受注設定' }],
  fields: [
    { name: 'number_format', label: '受注番号の形式', type: 'text', tab: 'basic', required: true, max: 50, hint: '{yyyy} {yy} {mm} {dd}（受注日）と {id} / {id:6}（受注ID、6桁ゼロ埋め）が使えます。例: OD{yyyy}{mm}{dd}-{id:6}' },
    { name: 'sk_id', label: '既定の出荷倉庫', type: 'select', tab: 'basic', master: 'mt_warehouse', hint: '受注にも顧客にも出荷倉庫がないときに使います。' },
    { name: 'cutoff_time', label: '当日出荷の締め時刻', type: 'text', tab: 'basic', required: true, max: 5, placeholder: '12:00', hint: 'この時刻までの当日の受注は、配送日が空欄なら当日、以降は翌日になります。' },
    { name: 'ht_id', label: '既定の配達時間帯', type: 'select', tab: 'basic', master: 'mt_delivery_time', hint: '受注にも顧客にも時間帯がないときに使います。' },
  ],
  list: {
    columns: [{ name: 'os_number_format', label: '受注番号の形式' }, { name: 'os_cutoff_time', label: '当日出荷の締め時刻' }],
    sortable: ['os_id', 'modified'],
    keyword: [],
    defaultSort: { col: 'os_id', odr: 'asc' },
    filters: [],
  },
  titleFields: [],
  single: ORDER_SETTING_ID,
  ops: { create: false, delete: false },
  check: (values) => {
    const problems: Record<string, string> = {};
    const format = cellText(values.number_format);
    const formatProblem = format ? orderNumberFormatProblem(format) : undefined;
    if (formatProblem) problems.number_format = formatProblem;
    const cutoff = cellText(values.cutoff_time).normalize('NFKC');
    if (cutoff && !isCutoffTime(cutoff)) problems.cutoff_time = '締め時刻は 00:00〜24:00 の「時:分」で入力してください。';
    return Object.keys(problems).length ? problems : undefined;
  },
} as const satisfies ResourceDef;
