/**
 * The regular-delivery preview: every scheduled customer (haiso_flag = 1) and their exceptions read
 * in two queries, run through the schedule engine (lib/hod/schedule.ts), answered as counts and one
 * page of due deliveries. Reads only: generating orders from it is the order area's.
 */
import { addDays } from '../../lib/format';
import type { HodPreview, HodPreviewRow } from '../../lib/hod/kinds';
import { deliveriesDue, type ScheduleException, type ScheduleInput, type ScheduleResult } from '../../lib/hod/schedule';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import type { Db } from '../db/schema';
import { cellText as text } from '../../lib/resources/checks';

/** Exceptions this many days beyond the range still matter: a delivery may move past a run of holidays. */
const SHIFT_MARGIN_DAYS = 14;

/** A customer's exceptions overlapping [from − margin, to + margin], by customer id (one query). */
async function exceptionsByClient(db: Db, from: string, to: string): Promise<Map<number, ScheduleException[]>> {
  const rows = await db.selectFrom('hod_pause')
    .select(['hp_cl_id', 'hp_kind', 'hp_from_date', 'hp_to_date', 'hp_reason'])
    .where('deleted', '=', 0)
    .where('hp_from_date', '<=', addDays(to, SHIFT_MARGIN_DAYS))
    .where((eb) => eb.or([eb('hp_to_date', '>=', addDays(from, -SHIFT_MARGIN_DAYS)), eb('hp_to_date', '=', '')]))
    .execute();
  const byClient = new Map<number, ScheduleException[]>();
  for (const row of rows) {
    const id = Number(row.hp_cl_id);
    const list = byClient.get(id) ?? [];
    list.push({ kind: text(row.hp_kind), from_date: text(row.hp_from_date), to_date: text(row.hp_to_date), reason: text(row.hp_reason) });
    byClient.set(id, list);
  }
  return byClient;
}

/** One scheduled customer's due deliveries in a range, and their anchor after it. */
export interface ClientDue {
  cl_id: number;
  label: string;
  /** The stored `next_shipping_date` ('' when none). */
  stored_next: string;
  /** The customer's regular item (`haiso_item`), null when none is chosen. */
  item: number | null;
  result: ScheduleResult;
}

/**
 * Every scheduled customer (haiso_flag = 1) run through the engine for `from`..`to` (two queries),
 * by customer id; in a write, `db` is its transaction.
 */
export async function dueByClient(db: Db, from: string, to: string): Promise<ClientDue[]> {
  const [clients, exceptions] = await Promise.all([
    db.selectFrom('client')
      .select(['cl_id', 'cl_co_name', 'cl_name', 'cl_haiso_flag', 'cl_haiso_type', 'cl_haiso_wks', 'cl_haiso_dow', 'cl_haiso_day', 'cl_haiso_week', 'cl_haiso_num', 'cl_haiso_holiday', 'cl_next_shipping_date', 'cl_haiso_item'])
      .where('cl_haiso_flag', '=', 1)
      .where('deleted', '=', 0)
      .orderBy('cl_id')
      .execute(),
    exceptionsByClient(db, from, to),
  ]);
  return clients.map((c) => {
    const schedule: ScheduleInput = {
      cl_id: c.cl_id, haiso_flag: c.cl_haiso_flag, haiso_type: c.cl_haiso_type, haiso_wks: c.cl_haiso_wks,
      haiso_dow: c.cl_haiso_dow, haiso_day: c.cl_haiso_day, haiso_week: c.cl_haiso_week, haiso_num: c.cl_haiso_num,
      haiso_holiday: c.cl_haiso_holiday, next_shipping_date: text(c.cl_next_shipping_date) || null,
    };
    return {
      cl_id: schedule.cl_id, label: titleOf(clientResource, c), stored_next: text(c.cl_next_shipping_date), item: Number(c.cl_haiso_item) > 0 ? Number(c.cl_haiso_item) : null,
      result: deliveriesDue(schedule, exceptions.get(schedule.cl_id) ?? [], from, to),
    };
  });
}

/**
 * The deliveries due from `from` to `to` for every scheduled customer, with counts; rows sorted by
 * delivery date (a skipped one by its scheduled date), then customer id, and paged (`n` per page, page `p`).
 * @example await hodPreview(db, '2026-05-01', '2026-05-31', 100, 1)
 */
export async function hodPreview(db: Db, from: string, to: string, n: number, p: number): Promise<HodPreview> {
  const clients = await dueByClient(db, from, to);
  const all: HodPreviewRow[] = [];
  for (const { label, result } of clients) {
    for (const d of result.deliveries) all.push({ ...d, cl_label: label, next_shipping_date: result.next_shipping_date });
  }
  const dayOf = (row: HodPreviewRow): string => row.date || row.original_date;
  all.sort((a, b) => (dayOf(a) < dayOf(b) ? -1 : dayOf(a) > dayOf(b) ? 1 : a.cl_id - b.cl_id || (a.original_date < b.original_date ? -1 : 1)));
  let deliveries = 0;
  let bottles = 0;
  let moved = 0;
  for (const row of all) {
    if (row.status !== 'deliver') continue;
    deliveries++;
    bottles += row.quantity;
    if (row.date !== row.original_date) moved++;
  }
  return {
    from, to, customers: clients.length, deliveries, skipped: all.length - deliveries, bottles, moved,
    total: all.length, rows: all.slice((p - 1) * n, p * n),
  };
}
