/**
 * 配送リスト: the orders delivered in a date range that are not cancelled (generated regular deliveries
 * and hand-entered orders alike), with the customer's delivery staff (配送担当者ID → user, their team),
 * the shipping address and phone, the time slot, the returnable bottles, the cash to collect and the
 * notes per stop; sorted by day, staff, customer — the route sheet's order.
 */
import { sql, type SqlBool } from 'kysely';
import type { HodListFilters, HodListRow } from '../../lib/hod/kinds';
import { escapeLike } from '../../lib/text';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import type { Db } from '../db/schema';
import { cellText as text } from '../../lib/resources/checks';

/**
 * The payment methods the driver collects on delivery: the 支払方法 master's rows with フラグ 1 (代金引換,
 * 現金集金 in the demo). A stop of an order paid so has its total to collect.
 * @example (await cashMethods(db)).has('3') // true
 */
export async function cashMethods(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('master_option').select('mo_value').where('mo_table', '=', 'mt_pmt_method').where('mo_flg', '=', 1).where('deleted', '=', 0).execute();
  return new Set(rows.map((r) => r.mo_value));
}

/** The most stops one list answers (a route sheet of a quarter's deliveries fits). */
export const MAX_LIST_ROWS = 5000;

/**
 * The stops of the range matching the filters (empty filters match everything).
 * @example await hodList(db, { fromDate: '2026-05-11', toDate: '2026-05-17', team: '', userId: '3', clientId: '', coName: '' })
 */
export async function hodList(db: Db, f: HodListFilters): Promise<HodListRow[]> {
  const where: ReturnType<typeof sql<SqlBool>>[] = [
    sql<SqlBool>`o.deleted = 0`,
    sql<SqlBool>`o.od_status <> 'cancelled'`,
    sql<SqlBool>`o.od_delivery_date >= ${f.fromDate}`,
    sql<SqlBool>`o.od_delivery_date <= ${f.toDate}`,
  ];
  if (f.team) where.push(sql<SqlBool>`u.user_team = ${f.team}`);
  if (f.userId) where.push(sql<SqlBool>`c.cl_delivery_usr_id = ${Number(f.userId)}`);
  if (f.clientId) where.push(sql<SqlBool>`o.od_cl_id = ${Number(f.clientId)}`);
  if (f.coName) {
    const pattern = `%${escapeLike(f.coName.toLowerCase())}%`;
    where.push(sql<SqlBool>`(LOWER(c.cl_co_name) LIKE ${pattern} ESCAPE '\\' OR LOWER(c.cl_name) LIKE ${pattern} ESCAPE '\\' OR LOWER(o.od_ship_co_name) LIKE ${pattern} ESCAPE '\\')`);
  }
  const { rows } = await sql<Record<string, unknown>>`
    SELECT o.od_id, o.od_number, o.od_delivery_date, o.od_status, o.od_hod_date, o.od_cl_id,
      c.cl_co_name, c.cl_name, c.cl_delivery_usr_id, u.user_name, u.user_team,
      o.od_ship_pref, o.od_ship_city, o.od_ship_address, o.od_ship_building, o.od_ship_tel,
      o.od_pm_id, o.od_uriage_total, o.od_biko, c.cl_memo,
      (SELECT MIN(m.mo_text) FROM master_option m WHERE m.mo_table = 'mt_delivery_time' AND m.mo_value = o.od_ht_id AND m.deleted = 0) AS time_slot,
      (SELECT COALESCE(SUM(d.odd_quantity), 0) FROM order_detail d JOIN item i ON i.it_id = d.odd_it_id
        WHERE d.odd_od_id = o.od_id AND i.it_returnable = 1) AS bottles
    FROM orders o
    JOIN client c ON c.cl_id = o.od_cl_id
    LEFT JOIN ${sql.table('user')} u ON u.user_id = c.cl_delivery_usr_id
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY o.od_delivery_date, u.user_name, c.cl_delivery_usr_id, o.od_cl_id, o.od_id
    LIMIT ${MAX_LIST_ROWS}`.execute(db);
  const cash = await cashMethods(db);
  return rows.map((r) => ({
    od_id: Number(r.od_id), od_number: text(r.od_number), od_delivery_date: text(r.od_delivery_date), od_status: text(r.od_status),
    od_hod_date: text(r.od_hod_date), cl_id: Number(r.od_cl_id), cl_label: titleOf(clientResource, r),
    user_id: r.cl_delivery_usr_id === null || r.cl_delivery_usr_id === undefined ? null : Number(r.cl_delivery_usr_id),
    user_name: text(r.user_name), user_team: text(r.user_team),
    address: [r.od_ship_pref, r.od_ship_city, r.od_ship_address, r.od_ship_building].map(text).join(''),
    tel: text(r.od_ship_tel), time_slot: text(r.time_slot), bottles: Number(r.bottles ?? 0),
    collect: cash.has(text(r.od_pm_id)) ? Number(r.od_uriage_total ?? 0) : 0,
    note: [text(r.od_biko), text(r.cl_memo)].filter(Boolean).join('／'),
  }));
}
