/**
 * What needs doing today, as the home page counts it: each item is a filtered list of a resource, counted
 * with the resource's own `{r}_cnt` and linked to that list with the same filters (`filteredListPathOf`, the
 * list's `?filter=` link), so the number on the home page is the number of rows the link opens.
 */
import { addDays } from '../format';
import { buildListQuery, initialListState, type CountCallParams, type RawFilters } from '../list/list-state';
import { filteredListPathOf } from '../list/resource-paths';
import { clientResource } from '../resources/client';
import { ORDER_STATUS, orderResource } from '../resources/order';
import { serverResource } from '../resources/water-server';
import type { ResourceDef } from '../resources/types';

export interface WorkItem {
  key: string;
  label: string;
  /** The counter word after the number (件, 台 …). */
  unit: string;
  /** One line saying what the list holds. */
  hint: string;
  def: ResourceDef;
  /** A list route that fixes its filters itself (a list of one order status): `fixed`, counted, not carried by the link. */
  path?: string;
  fixed?: RawFilters;
  /** Filters a link to the resource's list carries. */
  filters?: RawFilters;
}

/** Every order status but キャンセル: the orders still to be delivered or delivered. */
const LIVE_STATUSES = ORDER_STATUS.map((s) => s.value).filter((s) => s !== 'cancelled');

/**
 * The home page's items on `today` (Japan day).
 * @example workItems('2026-11-25')[2].filters // { delivery_date: ['2026-11-25', '2026-11-25'], od_status: [...] }
 */
export function workItems(today: string): WorkItem[] {
  const tomorrow = addDays(today, 1);
  return [
    { key: 'untreated', label: '未処理の受注', unit: '件', hint: '内容を確認して出荷の準備へ', def: orderResource, path: '/orders/list/untreated', fixed: { od_status: ['untreated'] } },
    { key: 'pending', label: '保留の受注', unit: '件', hint: '与信・在庫・お客様の確認待ち', def: orderResource, path: '/orders/list/pending', fixed: { od_status: ['pending'] } },
    { key: 'today', label: '今日の配送', unit: '件', hint: '配送日が今日の受注（キャンセルを除く）', def: orderResource, filters: { delivery_date: [today, today], od_status: LIVE_STATUSES } },
    { key: 'tomorrow', label: '明日の配送', unit: '件', hint: '配送日が明日の受注（キャンセルを除く）', def: orderResource, filters: { delivery_date: [tomorrow, tomorrow], od_status: LIVE_STATUSES } },
    { key: 'maintenance', label: 'メンテナンス期限切れ', unit: '台', hint: '設置中で次回メンテナンス予定日を過ぎたサーバー', def: serverResource, filters: { due: 'overdue', status: ['installed'] } },
    { key: 'overdue', label: '定期配送の遅れ', unit: '件', hint: '次回配送日を過ぎても受注が作られていない顧客', def: clientResource, filters: { haiso_flag: ['1'], shipping_due: 'overdue' } },
    { key: 'payment_terms', label: '締日より前の入金予定', unit: '件', hint: '回収月・回収日が締日より前で、請求書の入金予定日にできない顧客', def: clientResource, filters: { payment_terms: ['1'] } },
  ];
}

/** The route an item links to: its own list route, or the resource's list with the item's filters. */
export const workItemPath = (item: WorkItem): string => item.path ?? filteredListPathOf(item.def, item.filters ?? {}) ?? '/';

/**
 * The `{r}_cnt` parameters of an item: what its list sends for the same filters (the same rules, so the
 * same number). Undefined when the filters cannot be sent (never for the declared items).
 */
export function workItemCount(item: WorkItem, today: string): CountCallParams | undefined {
  const built = buildListQuery(item.def, { ...initialListState(item.def), filters: item.filters ?? {} }, { today, fixedFilters: item.fixed });
  return built.ok ? built.count : undefined;
}
