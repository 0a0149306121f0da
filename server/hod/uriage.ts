/**
 * 配送売上: the totals of the orders delivered in a period (delivery date in it, status 出荷済 or
 * 処理済) and the bottles and cash of the delivery rounds of the period, grouped by team, staff
 * (orders: the customer's 配送担当者; rounds: the round's staff) or customer, with a grand total.
 */
import type { Kysely } from 'kysely';
import { URIAGE_STATUSES, type Uriage, type UriageGroup, type UriageRow } from '../../lib/hod/uriage';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import type { Database } from '../db/schema';

const NO_TEAM = '（チームなし）';
const NO_STAFF = '（担当者なし）';

const num = (value: unknown): number => Number(value ?? 0) || 0;

const emptyRow = (key: string, label: string): UriageRow => ({ key, label, orders: 0, net: 0, tax: 0, total: 0, delivered: 0, collected: 0, cash: 0 });

interface Who { clientId: number; clientName: string; userId: number | null; userName: string | null; team: string | null }

function groupOf(group: UriageGroup, who: Who): [string, string] {
  if (group === 'customer') return [`c${who.clientId}`, who.clientName];
  if (group === 'staff') return who.userId ? [`u${who.userId}`, who.userName ?? NO_STAFF] : ['u', NO_STAFF];
  const team = (who.team ?? '').trim();
  return team ? [`t${team}`, team] : ['t', NO_TEAM];
}

/**
 * The delivery sales of `from`..`to` (YYYY-MM-DD) by `group`.
 * @example await hodUriage(db, '2026-05-01', '2026-05-31', 'team')
 */
export async function hodUriage(db: Kysely<Database>, from: string, to: string, group: UriageGroup): Promise<Uriage> {
  const orders = await db.selectFrom('orders')
    .innerJoin('client', 'client.cl_id', 'orders.od_cl_id')
    .leftJoin('user', 'user.user_id', 'client.cl_delivery_usr_id')
    .select(['orders.od_cl_id', 'client.cl_co_name', 'client.cl_name', 'client.cl_delivery_usr_id', 'user.user_name', 'user.user_team',
      'orders.od_net_total', 'orders.od_tax_total', 'orders.od_uriage_total'])
    .where('orders.deleted', '=', 0)
    .where('orders.od_status', 'in', [...URIAGE_STATUSES])
    .where('orders.od_delivery_date', '>=', from).where('orders.od_delivery_date', '<=', to)
    .execute();
  const stops = await db.selectFrom('hod_report_stop')
    .innerJoin('hod_report', 'hod_report.hr_id', 'hod_report_stop.hrs_hr_id')
    .innerJoin('client', 'client.cl_id', 'hod_report_stop.hrs_cl_id')
    .leftJoin('user', 'user.user_id', 'hod_report.hr_usr_id')
    .select(['hod_report_stop.hrs_cl_id', 'client.cl_co_name', 'client.cl_name', 'hod_report.hr_usr_id', 'hod_report.hr_team', 'user.user_name', 'user.user_team',
      'hod_report_stop.hrs_delivered', 'hod_report_stop.hrs_collected', 'hod_report_stop.hrs_cash'])
    .where('hod_report.deleted', '=', 0)
    .where('hod_report.hr_date', '>=', from).where('hod_report.hr_date', '<=', to)
    .execute();

  const rows = new Map<string, UriageRow>();
  const total = emptyRow('total', '合計');
  const rowOf = (who: Who): UriageRow => {
    const [key, label] = groupOf(group, who);
    const row = rows.get(key) ?? emptyRow(key, label);
    rows.set(key, row);
    return row;
  };
  for (const o of orders) {
    const userId = num(o.cl_delivery_usr_id) || null;
    const row = rowOf({ clientId: num(o.od_cl_id), clientName: titleOf(clientResource, o), userId, userName: o.user_name ?? null, team: o.user_team ?? null });
    for (const target of [row, total]) {
      target.orders += 1;
      target.net += num(o.od_net_total);
      target.tax += num(o.od_tax_total);
      target.total += num(o.od_uriage_total);
    }
  }
  for (const s of stops) {
    const userId = num(s.hr_usr_id) || null;
    const team = (s.hr_team ?? '').trim() || (s.user_team ?? null);
    const row = rowOf({ clientId: num(s.hrs_cl_id), clientName: titleOf(clientResource, s), userId, userName: s.user_name ?? null, team });
    for (const target of [row, total]) {
      target.delivered += num(s.hrs_delivered);
      target.collected += num(s.hrs_collected);
      target.cash += num(s.hrs_cash);
    }
  }
  const sorted = [...rows.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label, 'ja'));
  return { from, to, group, rows: sorted, total };
}
