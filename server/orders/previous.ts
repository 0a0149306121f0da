/**
 * 「前回の受注」: a customer's order before a given one, by order date and then by number (id), so an
 * order entered late for an earlier day sits where its day is; without a given order, the latest.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What the order screen shows of the previous order. */
export const PREVIOUS_COLUMNS = ['od_id', 'od_number', 'od_date', 'od_status', 'od_uriage_total'] as const;

/**
 * The customer's live order just before `before` (its date and id), or the latest one; `[]` when none.
 * @example await previousOrder(db, 12, { date: '2026-03-10', id: 1201 }) // [{ od_id: 1185, od_number: 'OD20260301-001185', … }]
 */
export async function previousOrder(db: Kysely<Database>, clientId: number, before?: { date: string; id: number }) {
  let query = db.selectFrom('orders').select([...PREVIOUS_COLUMNS]).where('od_cl_id', '=', clientId).where('deleted', '=', 0);
  if (before) {
    query = query.where((eb) => eb.or([eb('od_date', '<', before.date), eb.and([eb('od_date', '=', before.date), eb('od_id', '<', before.id)])]));
  }
  return query.orderBy('od_date', 'desc').orderBy('od_id', 'desc').limit(1).execute();
}
