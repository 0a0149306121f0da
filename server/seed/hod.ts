/**
 * First-start demo data of regular delivery: each scheduled customer gets the 配送 staff member who
 * manages the warehouse of their region as 配送担当者, and the last two weeks' delivery rounds of each
 * driver are entered through the round's own save (server/resources/policies/hod-report.ts), so the
 * bottle ledger moves as if the drivers had entered them. Runs after the stock area (warehouses,
 * returnable items, the bottle ledger) exists.
 */
import type { Kysely } from 'kysely';
import { addDays, todayJst } from '../../lib/format';
import { closedReason } from '../../lib/hod/schedule';
import { lineAmount, orderTotals } from '../../lib/orders/totals';
import { rateOn } from '../../lib/tax';
import { hodReportResource, type HodStopInput } from '../../lib/resources/hod-report';
import { soukoResource } from '../../lib/resources/souko';
import { resourceView, type Database } from '../db/schema';
import { saveInTransaction } from '../resources/records';
import { taxPeriods } from '../tax/rates';
import { createRng } from './data/rng';

/** Business days with rounds, counted back from yesterday. */
export const DEMO_ROUND_DAYS = 10;

/** The last `count` business days before `today` (no Sundays or public holidays), oldest first. */
function businessDaysBefore(today: string, count: number): string[] {
  const days: string[] = [];
  for (let day = addDays(today, -1); days.length < count; day = addDays(day, -1)) if (!closedReason(day)) days.unshift(day);
  return days;
}

/** Seeds the 配送担当者 of the scheduled customers and the drivers' recent rounds; `adminId` enters them. */
export async function seedDeliveryRounds(db: Kysely<Database>, adminId: number, today: string = todayJst()): Promise<void> {
  const rng = createRng(11);
  const warehouses = await resourceView(db).selectFrom(soukoResource.table).select(['sk_id', 'sk_manager_id']).where('deleted', '=', 0).execute();
  const managerOf = new Map(warehouses.filter((w) => Number(w.sk_manager_id) > 0).map((w) => [String(w.sk_id), Number(w.sk_manager_id)]));
  const scheduled = await db.selectFrom('client').select(['cl_id', 'cl_sk_id', 'cl_haiso_num', 'cl_haiso_item'])
    .where('deleted', '=', 0).where('cl_haiso_flag', '=', 1).orderBy('cl_id').execute();
  const byDriver = new Map<number, typeof scheduled>();
  for (const client of scheduled) {
    const driver = managerOf.get(String(client.cl_sk_id));
    if (driver !== undefined) byDriver.set(driver, [...(byDriver.get(driver) ?? []), client]);
  }
  for (const [driver, clients] of byDriver) {
    await db.updateTable('client').set({ cl_delivery_usr_id: driver }).where('cl_id', 'in', clients.map((c) => Number(c.cl_id))).execute();
  }

  const water = await db.selectFrom('item').select(['it_id', 'it_price']).where('deleted', '=', 0).where('it_returnable', '=', 1)
    .orderBy('it_code').orderBy('it_id').execute();
  if (water.length === 0) return;
  const priceOf = new Map(water.map((w) => [Number(w.it_id), Number(w.it_price ?? 0)]));
  const drivers = await db.selectFrom('user').select(['user_id', 'user_team']).where('user_id', 'in', [...byDriver.keys(), 0]).execute();
  const teamOf = new Map(drivers.map((d) => [Number(d.user_id), String(d.user_team ?? '')]));
  const days = businessDaysBefore(today, DEMO_ROUND_DAYS);
  const periods = await taxPeriods(db);
  for (const [n, [driver, clients]] of [...byDriver].entries()) {
    for (const [d, date] of days.entries()) {
      // Each customer is visited on one of the days, in turn (the demo's rounds, not the schedules' exact days).
      const stops: HodStopInput[] = clients.filter((_, i) => i % days.length === d).map((client) => {
        const item = priceOf.has(Number(client.cl_haiso_item)) ? Number(client.cl_haiso_item) : Number(water[0].it_id);
        if (rng.chance(0.07)) return { cl_id: client.cl_id, it_id: item, delivered: 0, collected: 0, result: 'absent', note: '不在。不在票を投函、翌日午前に再配達' };
        const delivered = Math.max(1, Number(client.cl_haiso_num) || 2);
        // Empties collected never pass what this stop brings, so the balance cannot go below zero on any day.
        const collected = Math.max(0, delivered - (rng.chance(0.25) ? 1 : 0));
        const taxRate = rateOn(periods, 'reduced', date) ?? 0;
        const cash = rng.chance(0.15) ? orderTotals([{ amount: lineAmount(delivered, priceOf.get(item) ?? 0), taxClass: 'reduced', taxRate }], '0').total : 0;
        return { cl_id: client.cl_id, it_id: item, delivered, collected, cash, result: 'delivered', note: cash ? '代金引換' : '' };
      });
      if (stops.length === 0) continue;
      await db.transaction().execute((trx) => saveInTransaction(trx, { userId: adminId, call: 'seed' }, hodReportResource, undefined, {
        date, usr_id: driver, team: teamOf.get(driver) ?? '', route: `${n + 1}号車`, note: '', stops,
      }));
    }
  }
}
