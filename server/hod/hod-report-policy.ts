/**
 * 配送実績: the save writes the round and its stops (`stops` in the postData, the resource's child rows:
 * server/resources/children.ts, checked by their declaration) in one transaction, the way an order's save
 * writes its lines. Here: a stop's bottles need a returnable item, the round's totals, and the bottles. The
 * stops of one customer × returnable item are booked as ONE bottle movement (お届け本数 / 空ボトル回収本数) dated
 * the round's date, written through the bottle resource's own save and delete (the event's `writer`: so its
 * ledger re-computes 預け本数 and refuses a negative balance — the refusal names the customer). Editing the
 * round updates or removes those movements; deleting it removes them.
 */
import type { Transaction } from 'kysely';
import { HOD_STOP_RESULT, hodReportResource } from '../../lib/resources/hod-report';
import { bottleResource } from '../../lib/resources/bottle';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import { formatMoney } from '../../lib/format';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { childProblem, storedChildren, type ResourcePolicy, type Writer } from '../resources';
import { lockCustomers } from '../stock';

const STOPS = hodReportResource.children;

/** A stop as stored: counts and cash as numbers (an empty count is 0), no item when no bottle moves. */
type Stop = {
  hrs_cl_id: number;
  hrs_it_id: number | null;
  hrs_delivered: number;
  hrs_collected: number;
  hrs_cash: number;
  hrs_result: string;
  hrs_note: string;
};

const stopOf = (row: ResourceRow): Stop => ({
  hrs_cl_id: Number(row.hrs_cl_id),
  hrs_it_id: row.hrs_it_id === null || row.hrs_it_id === undefined ? null : Number(row.hrs_it_id),
  hrs_delivered: Number(row.hrs_delivered ?? 0),
  hrs_collected: Number(row.hrs_collected ?? 0),
  hrs_cash: Number(row.hrs_cash ?? 0),
  hrs_result: String(row.hrs_result ?? ''),
  hrs_note: String(row.hrs_note ?? ''),
});

/** The round's totals (the list's columns). */
const totalsOf = (stops: readonly Stop[]): ResourceRow => ({
  hr_stop_count: stops.length,
  hr_delivered_total: stops.reduce((sum, s) => sum + s.hrs_delivered, 0),
  hr_collected_total: stops.reduce((sum, s) => sum + s.hrs_collected, 0),
  hr_cash_total: stops.reduce((sum, s) => sum + s.hrs_cash, 0),
});

const pairKey = (clientId: number, itemId: number | null) => `${clientId}:${itemId ?? ''}`;

/** A bottle refusal as a refusal of the round, naming the customer. */
async function aboutCustomer(trx: Transaction<Database>, clientId: number, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  const client = await trx.selectFrom('client').select('cl_co_name').where('cl_id', '=', clientId).executeTakeFirst();
  return badRequest(`「${String(client?.cl_co_name ?? clientId)}」のボトル: ${error.message}`);
}

/**
 * Books the round's stops as bottle movements (one per customer × item, dated the round's date):
 * updates the movements the stored stops point at, adds new ones, removes the ones no stop needs.
 * Answers each stop's movement id (null when its bottles do not move).
 */
async function bookBottles(trx: Transaction<Database>, writer: Writer, round: ResourceRow, stops: readonly Stop[], stored: readonly { hrs_cl_id: number; hrs_it_id: number | null; hrs_bt_id: number | null }[]): Promise<(number | null)[]> {
  const wanted = new Map<string, { clientId: number; itemId: number; delivered: number; collected: number }>();
  for (const s of stops) {
    if (s.hrs_it_id === null || s.hrs_delivered + s.hrs_collected === 0) continue;
    const key = pairKey(s.hrs_cl_id, s.hrs_it_id);
    const pair = wanted.get(key) ?? { clientId: s.hrs_cl_id, itemId: s.hrs_it_id, delivered: 0, collected: 0 };
    pair.delivered += s.hrs_delivered;
    pair.collected += s.hrs_collected;
    wanted.set(key, pair);
  }
  const existing = new Map<string, number>();
  for (const s of stored) if (s.hrs_bt_id !== null) existing.set(pairKey(s.hrs_cl_id, s.hrs_it_id), s.hrs_bt_id);
  const note = `配送実績 ${String(round.hr_date)} ${String(round.hr_route ?? '')}`.trim();
  // Every customer's ledger at once, lowest id first (each movement's save would lock them in stop order):
  // two rounds of the same customers then queue instead of deadlocking.
  await lockCustomers(trx, [...[...wanted.values()].map((p) => p.clientId), ...stored.filter((s) => s.hrs_bt_id !== null).map((s) => s.hrs_cl_id)]);
  // Removals first, then the changes: a movement given up never holds up another's balance.
  for (const [key, btId] of existing) {
    if (wanted.has(key)) continue;
    const live = await trx.selectFrom('bottle').select(['bt_cl_id', 'deleted']).where('bt_id', '=', btId).executeTakeFirst();
    if (!live || live.deleted !== 0) continue;
    try {
      await writer.delete(bottleResource, btId);
    } catch (error) {
      throw await aboutCustomer(trx, Number(live.bt_cl_id), error);
    }
  }
  const booked = new Map<string, number>();
  for (const [key, pair] of wanted) {
    const values = { cl_id: pair.clientId, it_id: pair.itemId, move_date: String(round.hr_date), delivered: pair.delivered, collected: pair.collected, note };
    const btId = existing.get(key);
    const live = btId === undefined ? undefined
      : await trx.selectFrom('bottle').select(['modified', 'deleted']).where('bt_id', '=', btId).executeTakeFirst();
    try {
      const saved = live && live.deleted === 0
        ? await writer.save(bottleResource, btId, { ...values, modified: live.modified })
        : await writer.save(bottleResource, undefined, values);
      booked.set(key, Number(saved.bt_id));
    } catch (error) {
      throw await aboutCustomer(trx, pair.clientId, error);
    }
  }
  return stops.map((s) => booked.get(pairKey(s.hrs_cl_id, s.hrs_it_id)) ?? null);
}

/**
 * How the audit log words stops: the customer's and the item's names (read in one query each), the
 * counts, the cash and the result in Japanese, e.g. `山田商店 天然水12L お届け2本 回収1本 集金1,000円 配達済`.
 */
async function stopWording(trx: Transaction<Database>, rows: readonly ResourceRow[]): Promise<(row: ResourceRow) => string> {
  const stops = rows.map(stopOf);
  const clientIds = [...new Set(stops.map((s) => s.hrs_cl_id))];
  const itemIds = [...new Set(stops.flatMap((s) => (s.hrs_it_id === null ? [] : [s.hrs_it_id])))];
  const clients = clientIds.length === 0 ? [] : await trx.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('cl_id', 'in', clientIds).execute();
  const items = itemIds.length === 0 ? [] : await trx.selectFrom('item').select(['it_id', 'it_name']).where('it_id', 'in', itemIds).execute();
  const clientName = new Map(clients.map((c) => [c.cl_id, titleOf(clientResource, c)]));
  const itemName = new Map(items.map((i) => [i.it_id, i.it_name]));
  const resultText = new Map<string, string>(HOD_STOP_RESULT.map((r) => [r.value, r.text]));
  return (row) => {
    const s = stopOf(row);
    return [
    clientName.get(s.hrs_cl_id) ?? `顧客 ID ${s.hrs_cl_id}`,
    s.hrs_it_id === null ? '' : (itemName.get(s.hrs_it_id) ?? `商品 ID ${s.hrs_it_id}`),
    `お届け${s.hrs_delivered}本 回収${s.hrs_collected}本 集金${formatMoney(s.hrs_cash)}`,
    resultText.get(s.hrs_result) ?? s.hrs_result,
    s.hrs_note,
  ].filter(Boolean).join(' ');
  };
}

/** The stops of a round as stored, with their movements. */
const storedStops = async (trx: Transaction<Database>, roundId: number): Promise<ResourceRow[]> => (await storedChildren(trx, STOPS, [roundId])).get(roundId) ?? [];

const booking = (row: ResourceRow) => ({ ...stopOf(row), hrs_bt_id: row.hrs_bt_id === null || row.hrs_bt_id === undefined ? null : Number(row.hrs_bt_id) });

export const hodReportPolicy: ResourcePolicy = {
  /** Empty counts are 0; bottles that move need a returnable item (the items read in one query). */
  async prepareChildren({ trx, children }) {
    const stops = children.map(stopOf);
    const itemIds = [...new Set(stops.flatMap((s) => (s.hrs_it_id === null ? [] : [s.hrs_it_id])))];
    const items = itemIds.length === 0 ? [] : await trx.selectFrom('item').select(['it_id', 'it_name', 'it_returnable']).where('it_id', 'in', itemIds).execute();
    const itemOf = new Map(items.map((item) => [item.it_id, item]));
    for (const [i, stop] of stops.entries()) {
      const item = stop.hrs_it_id === null ? undefined : itemOf.get(stop.hrs_it_id);
      if (item && item.it_returnable !== 1) throw childProblem(STOPS, i, 'it_id', `「${item.it_name}」はリターナブルボトルの商品ではありません。`);
      if (stop.hrs_it_id === null && (stop.hrs_delivered > 0 || stop.hrs_collected > 0)) throw childProblem(STOPS, i, 'it_id', 'お届け・回収したボトルの商品を選んでください。');
    }
    return stops;
  },

  async beforeSave({ children }) {
    return children ? totalsOf(children.map(stopOf)) : undefined;
  },

  wordChildren: stopWording,

  /**
   * The stops' bottle movements follow the stops sent, or the stored stops' changed date or route; each stop
   * then points at its movement.
   */
  async afterSave({ trx, writer, current, saved, children, storedChildren: before }) {
    const roundId = Number(saved.hr_id);
    if (!children && current && current.hr_date === saved.hr_date && current.hr_route === saved.hr_route) return;
    const stored = before ?? (await storedStops(trx, roundId));
    const stops = children ? children.map(stopOf) : stored.map(stopOf);
    const btIds = await bookBottles(trx, writer, saved, stops, stored.map(booking));
    const sorts = new Map<number | null, number[]>();
    for (const [i, btId] of btIds.entries()) sorts.set(btId, [...(sorts.get(btId) ?? []), children ? i + 1 : Number(stored[i].hrs_sort)]);
    for (const [btId, positions] of sorts) {
      await trx.updateTable('hod_report_stop').set({ hrs_bt_id: btId }).where('hrs_hr_id', '=', roundId).where('hrs_sort', 'in', positions).execute();
    }
  },

  async afterDelete({ trx, writer, id }) {
    const stored = (await storedStops(trx, id)).map(booking);
    await trx.updateTable('hod_report_stop').set({ hrs_bt_id: null }).where('hrs_hr_id', '=', id).execute();
    await bookBottles(trx, writer, { hr_date: '' }, [], stored);
  },
};
