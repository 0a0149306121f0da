/**
 * 配送実績: the save writes the round and its stops (`stops` in the postData) in one transaction, the
 * way an order's save writes its lines (policies/order.ts). The stops of one customer × returnable
 * item are booked as ONE bottle movement (お届け本数 / 空ボトル回収本数) dated the round's date,
 * written through the bottle resource's own save and delete (so its ledger re-computes 預け本数 and
 * refuses a negative balance — the refusal names the customer). Editing the round updates or removes
 * those movements; deleting it removes them.
 */
import type { Kysely, Transaction } from 'kysely';
import { HOD_STOP_RESULT, hodReportResource, type HodStop, type HodStopInput, type HodStopResult } from '../../../lib/resources/hod-report';
import { bottleResource } from '../../../lib/resources/bottle';
import { clientResource } from '../../../lib/resources/client';
import { titleOf } from '../../../lib/resources/types';
import { formatMoney } from '../../../lib/format';
import type { Database, ResourceRow } from '../../db/schema';
import { ApiError, badRequest } from '../../http/api-error';
import { nextStamp } from '../../http/clock';
import { writeAudit } from '../../audit/audit-log';
import { deleteInTransaction, saveInTransaction } from '../records';
import type { ResourcePolicy, WriteActor } from '../policy';
import { lockCustomers } from './bottle';
import { integerIn } from '../../../lib/resources/checks';

type PreparedStop = Omit<HodStop, 'hrs_id' | 'hrs_hr_id' | 'hrs_sort' | 'hrs_bt_id'>;

const MAX_STOPS = 300;
const RESULTS = new Set<string>(HOD_STOP_RESULT.map((r) => r.value));

/** The stops a save prepared, handed from beforeSave to afterSave (same input object). */
const preparedStops = new WeakMap<object, PreparedStop[]>();

const stopProblem = (index: number, field: string, message: string) =>
  badRequest(`${index + 1}件目: ${message}`, { fields: { [`stops.${index}.${field}`]: message } });

/** The stored stops of a round, in order. */
export async function roundStops(db: Kysely<Database>, roundId: number) {
  return db.selectFrom('hod_report_stop').selectAll().where('hrs_hr_id', '=', roundId).orderBy('hrs_sort').orderBy('hrs_id').execute();
}

/** Validates the sent stops (customer, returnable item when bottles move, counts, cash, result). */
async function prepareStops(trx: Transaction<Database>, sent: unknown[]): Promise<PreparedStop[]> {
  if (sent.length > MAX_STOPS) throw badRequest(`訪問先は${MAX_STOPS}件までです。`);
  const stops: PreparedStop[] = [];
  for (const [i, raw] of sent.entries()) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw stopProblem(i, 'cl_id', '訪問先の形式が正しくありません。');
    const stop = raw as HodStopInput;
    const clientId = integerIn(stop.cl_id, 1, 2_147_483_647);
    const client = clientId === undefined ? undefined
      : await trx.selectFrom('client').select('cl_id').where('cl_id', '=', clientId).where('deleted', '=', 0).executeTakeFirst();
    if (clientId === undefined || !client) throw stopProblem(i, 'cl_id', '顧客を選んでください。');
    const count = (name: 'delivered' | 'collected', label: string) => {
      const n = String(stop[name] ?? '').trim() === '' ? 0 : integerIn(stop[name], 0, 9_999);
      if (n === undefined) throw stopProblem(i, name, `${label}は0〜9999の整数で入力してください。`);
      return n;
    };
    const delivered = count('delivered', 'お届け本数');
    const collected = count('collected', '空ボトル回収本数');
    const cash = String(stop.cash ?? '').trim() === '' ? 0 : integerIn(stop.cash, 0, 9_999_999);
    if (cash === undefined) throw stopProblem(i, 'cash', '集金額は0〜9999999の整数（円）で入力してください。');
    const itemText = String(stop.it_id ?? '').trim();
    let itemId: number | null = null;
    if (itemText !== '') {
      const id = integerIn(itemText, 1, 2_147_483_647);
      const item = id === undefined ? undefined
        : await trx.selectFrom('item').select(['it_id', 'it_name', 'it_returnable']).where('it_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
      if (!item) throw stopProblem(i, 'it_id', '商品が見つかりません。選び直してください。');
      if (item.it_returnable !== 1) throw stopProblem(i, 'it_id', `「${String(item.it_name)}」はリターナブルボトルの商品ではありません。`);
      itemId = Number(item.it_id);
    }
    if (itemId === null && (delivered > 0 || collected > 0)) throw stopProblem(i, 'it_id', 'お届け・回収したボトルの商品を選んでください。');
    const result = String(stop.result ?? '').trim() || 'delivered';
    if (!RESULTS.has(result)) throw stopProblem(i, 'result', '結果を選んでください。');
    const note = String(stop.note ?? '').trim();
    if (note.length > 200) throw stopProblem(i, 'note', 'メモは200文字以内で入力してください。');
    stops.push({ hrs_cl_id: clientId, hrs_it_id: itemId, hrs_delivered: delivered, hrs_collected: collected, hrs_cash: cash, hrs_result: result as HodStopResult, hrs_note: note });
  }
  return stops;
}

/** The round's totals (the list's columns). */
const totalsOf = (stops: readonly PreparedStop[]): ResourceRow => ({
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
async function bookBottles(trx: Transaction<Database>, actor: WriteActor, round: ResourceRow, stops: readonly PreparedStop[], stored: readonly { hrs_cl_id: number; hrs_it_id: number | null; hrs_bt_id: number | null }[]): Promise<(number | null)[]> {
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
  for (const s of stored) if (s.hrs_bt_id !== null) existing.set(pairKey(s.hrs_cl_id, s.hrs_it_id), Number(s.hrs_bt_id));
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
      await deleteInTransaction(trx, actor, bottleResource, btId);
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
        ? await saveInTransaction(trx, actor, bottleResource, btId, { ...values, modified: live.modified })
        : await saveInTransaction(trx, actor, bottleResource, undefined, values);
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
async function stopWording(trx: Transaction<Database>, stops: readonly PreparedStop[]): Promise<(s: PreparedStop) => string> {
  const clientIds = [...new Set(stops.map((s) => s.hrs_cl_id))];
  const itemIds = [...new Set(stops.flatMap((s) => (s.hrs_it_id === null ? [] : [s.hrs_it_id])))];
  const clients = clientIds.length === 0 ? [] : await trx.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('cl_id', 'in', clientIds).execute();
  const items = itemIds.length === 0 ? [] : await trx.selectFrom('item').select(['it_id', 'it_name']).where('it_id', 'in', itemIds).execute();
  const clientName = new Map(clients.map((c) => [Number(c.cl_id), titleOf(clientResource, c)]));
  const itemName = new Map(items.map((i) => [Number(i.it_id), String(i.it_name)]));
  const resultText = new Map<string, string>(HOD_STOP_RESULT.map((r) => [r.value, r.text]));
  return (s) => [
    clientName.get(s.hrs_cl_id) ?? `顧客 ID ${s.hrs_cl_id}`,
    s.hrs_it_id === null ? '' : (itemName.get(s.hrs_it_id) ?? `商品 ID ${s.hrs_it_id}`),
    `お届け${s.hrs_delivered}本 回収${s.hrs_collected}本 集金${formatMoney(s.hrs_cash)}`,
    resultText.get(s.hrs_result) ?? s.hrs_result,
    s.hrs_note,
  ].filter(Boolean).join(' ');
}

export const hodReportPolicy: ResourcePolicy = {
  async beforeSave({ trx, input }) {
    const sent = Array.isArray(input.stops) ? (input.stops as unknown[]) : undefined;
    if (input.stops !== undefined && !sent) throw badRequest('訪問先（stops）は配列で送ってください。');
    if (!sent) return undefined;
    const stops = await prepareStops(trx, sent);
    preparedStops.set(input, stops);
    return totalsOf(stops);
  },

  async afterSave({ trx, actor, current, saved, input }) {
    const roundId = Number(saved.hr_id);
    const storedRows = await roundStops(trx, roundId);
    const stored = storedRows.map((s) => ({ ...s, hrs_it_id: s.hrs_it_id === null ? null : Number(s.hrs_it_id), hrs_cl_id: Number(s.hrs_cl_id), hrs_bt_id: s.hrs_bt_id === null ? null : Number(s.hrs_bt_id) }));
    const sent = preparedStops.get(input);
    // Without `stops` the stored stops stay; their movements follow a changed date or route.
    const stops: PreparedStop[] = sent ?? stored.map(({ hrs_cl_id, hrs_it_id, hrs_delivered, hrs_collected, hrs_cash, hrs_result, hrs_note }) =>
      ({ hrs_cl_id, hrs_it_id, hrs_delivered: Number(hrs_delivered), hrs_collected: Number(hrs_collected), hrs_cash: Number(hrs_cash), hrs_result, hrs_note }));
    if (!sent && current && current.hr_date === saved.hr_date && current.hr_route === saved.hr_route) return;
    // The stops go first so the movements they pointed at can be removed.
    await trx.deleteFrom('hod_report_stop').where('hrs_hr_id', '=', roundId).execute();
    const btIds = await bookBottles(trx, actor, saved, stops, stored);
    const stamp = nextStamp();
    if (stops.length > 0) {
      await trx.insertInto('hod_report_stop').values(stops.map((s, i) => ({ ...s, hrs_hr_id: roundId, hrs_sort: i + 1, hrs_bt_id: btIds[i], created: stamp }))).execute();
    }
    const storedStops = stored.map((s) => ({ ...s, hrs_delivered: Number(s.hrs_delivered), hrs_collected: Number(s.hrs_collected), hrs_cash: Number(s.hrs_cash) }));
    const stopSummary = await stopWording(trx, [...storedStops, ...stops]);
    const before = storedStops.map(stopSummary).join('\n');
    const after = stops.map(stopSummary).join('\n');
    if (before !== after) {
      await writeAudit(trx, { userId: actor.userId, call: actor.call, table: hodReportResource.table, recordId: roundId, at: stamp, changes: { stops: [before, after] } });
    }
  },

  async afterDelete({ trx, actor, id }) {
    const stored = (await roundStops(trx, id)).map((s) => ({ hrs_cl_id: Number(s.hrs_cl_id), hrs_it_id: s.hrs_it_id === null ? null : Number(s.hrs_it_id), hrs_bt_id: s.hrs_bt_id === null ? null : Number(s.hrs_bt_id) }));
    await trx.updateTable('hod_report_stop').set({ hrs_bt_id: null }).where('hrs_hr_id', '=', id).execute();
    await bookBottles(trx, actor, { hr_date: '' }, [], stored);
  },
};
