/**
 * First-start demo data of regular delivery. Each 配送 staff member of the demo drives one region (their
 * `route`, a prefecture): the scheduled customers shipped there get them as 配送担当者, the others are
 * shipped by carrier. The drivers' rounds of the last ten business days are entered through the round's
 * own save (server/hod/hod-report-policy.ts), so the bottle ledger moves as if the drivers had
 * entered them, and every delivered stop is an order delivered that day (出荷済・処理済, priced by the one
 * pricing computation) with the bottles the stop brought — an absent customer's order waits for its
 * redelivery — so 配送売上 shows what the rounds delivered. Cash is collected for the orders paid on
 * delivery (`cashMethods`). Runs after the stock area (warehouses, returnable items, the bottle ledger) exists.
 */
import type { Kysely } from 'kysely';
import { addDays, todayJst } from '../../lib/format';
import { closedReason } from '../../lib/hod/schedule';
import { shippingOf } from '../../lib/orders/delivery-fee';
import { hodReportResource, type HodStopInput } from '../../lib/resources/hod-report';
import type { Database } from '../db/schema';
import { cashMethods } from '../hod';
import { saveInTransaction } from '../resources';
import { SEED_USERS } from './data/generate';
import { createRng } from './data/rng';
import { insertSeedOrders, type OrderPlan } from './orders';

/** Business days with rounds, counted back from yesterday. */
export const DEMO_ROUND_DAYS = 10;

/** The last `count` business days before `today` (no Sundays or public holidays), oldest first. */
function businessDaysBefore(today: string, count: number): string[] {
  const days: string[] = [];
  for (let day = addDays(today, -1); days.length < count; day = addDays(day, -1)) if (!closedReason(day)) days.unshift(day);
  return days;
}

interface RoundCustomer {
  cl_id: number;
  /** Bottles per delivery. */
  bottles: number;
  /** The regular item (`haiso_item`), null when none is chosen. */
  item: number | null;
  weekly: boolean;
}

/**
 * Gives the scheduled, active customers of each driver's region that driver as 配送担当者; answers the
 * customers of each driver (by user id), by customer id.
 */
export async function assignDrivers(db: Kysely<Database>): Promise<Map<number, RoundCustomer[]>> {
  const routes = new Map(SEED_USERS.flatMap((u) => (u.route ? [[u.email, u.route] as const] : [])));
  const users = await db.selectFrom('user').select(['user_id', 'user_email']).where('deleted', '=', 0).where('user_email', 'in', [...routes.keys(), '']).execute();
  const driverOf = new Map(users.map((u) => [routes.get(String(u.user_email))!, Number(u.user_id)]));
  const clients = await db.selectFrom('client').selectAll().where('deleted', '=', 0).where('cl_haiso_flag', '=', 1).where('cl_status', '=', '1').orderBy('cl_id').execute();
  const byDriver = new Map<number, RoundCustomer[]>();
  for (const client of clients) {
    const driver = driverOf.get(String(shippingOf(client).od_ship_pref));
    if (driver === undefined) continue;
    const weekly = String(client.cl_haiso_type) === '1' && Number(client.cl_haiso_wks) === 1;
    byDriver.set(driver, [...(byDriver.get(driver) ?? []), { cl_id: Number(client.cl_id), bottles: Math.max(1, Number(client.cl_haiso_num) || 2), item: Number(client.cl_haiso_item) || null, weekly }]);
  }
  for (const [driver, customers] of byDriver) {
    await db.updateTable('client').set({ cl_delivery_usr_id: driver }).where('cl_id', 'in', customers.map((c) => c.cl_id)).execute();
  }
  return byDriver;
}

/** A stop of a planned round, with the order it delivers. */
interface PlannedStop {
  stop: HodStopInput & { cl_id: number; it_id: number };
  order: number;
}

/**
 * Seeds the drivers' recent rounds and the orders they delivered; `adminId` enters them. Answers the
 * customers the drivers serve (their orders are the rounds' own).
 */
export async function seedDeliveryRounds(db: Kysely<Database>, adminId: number, today: string = todayJst()): Promise<Set<number>> {
  const rng = createRng(11);
  const byDriver = await assignDrivers(db);
  const served = new Set([...byDriver.values()].flatMap((customers) => customers.map((c) => c.cl_id)));
  const water = await db.selectFrom('item').select('it_id').where('deleted', '=', 0).where('it_returnable', '=', 1).orderBy('it_code').orderBy('it_id').execute();
  if (water.length === 0) return served;
  const returnable = new Set(water.map((w) => Number(w.it_id)));
  const drivers = await db.selectFrom('user').select(['user_id', 'user_team']).where('user_id', 'in', [...byDriver.keys(), 0]).execute();
  const teamOf = new Map(drivers.map((d) => [Number(d.user_id), String(d.user_team ?? '')]));
  const days = businessDaysBefore(today, DEMO_ROUND_DAYS);

  // Weekly customers are visited every five business days, the others once in the ten, in turn.
  const plans: OrderPlan[] = [];
  const rounds: { driver: number; date: string; route: string; stops: PlannedStop[] }[] = [];
  for (const [n, [driver, customers]] of [...byDriver].entries()) {
    for (const [d, date] of days.entries()) {
      const visited = customers.filter((c, i) => (c.weekly ? i % 5 === d % 5 : i % days.length === d));
      const stops = visited.map((client): PlannedStop => {
        const item = client.item !== null && returnable.has(client.item) ? client.item : Number(water[0].it_id);
        const { bottles } = client;
        const absent = rng.chance(0.07);
        plans.push({
          clientId: client.cl_id, date: addDays(date, -rng.int(1, 3)), deliveryDate: date,
          status: absent ? 'waitshipping' : date < addDays(today, -7) ? 'processed' : 'shipped',
          biko: absent ? `不在のため持ち戻り（${date}）。再配達の日程を調整中。` : '',
          lines: [{ it_id: item, quantity: bottles }],
        });
        if (absent) return { order: plans.length - 1, stop: { cl_id: client.cl_id, it_id: item, delivered: 0, collected: 0, result: 'absent', note: '不在。不在票を投函、再配達の連絡待ち' } };
        // Empties collected never pass what this stop brings, so the balance cannot go below zero on any day.
        const collected = Math.max(0, bottles - (rng.chance(0.25) ? 1 : 0));
        return { order: plans.length - 1, stop: { cl_id: client.cl_id, it_id: item, delivered: bottles, collected, result: 'delivered', note: '' } };
      });
      if (stops.length > 0) rounds.push({ driver, date, route: `${n + 1}号車`, stops });
    }
  }

  const placed = await insertSeedOrders({ db, userId: adminId }, plans);
  const cash = await cashMethods(db);
  for (const round of rounds) {
    const stops = round.stops.map(({ stop, order }) => {
      const { total, pmId } = placed[order];
      return stop.result === 'delivered' && cash.has(pmId) ? { ...stop, cash: total, note: '集金済' } : stop;
    });
    await db.transaction().execute((trx) => saveInTransaction(trx, { userId: adminId, call: 'seed' }, hodReportResource, undefined, {
      date: round.date, usr_id: round.driver, team: teamOf.get(round.driver) ?? '', route: round.route, note: '', stops,
    }));
  }
  return served;
}
