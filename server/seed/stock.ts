/**
 * First-start demo data of the stock area: items, warehouses (customers ship from the one of
 * their region), opening stock through the real adjustment path, water servers and the bottle
 * ledger. Runs after the demo customers exist.
 */
import type { Kysely } from 'kysely';
import { todayJst } from '../../lib/format';
import { ADMIN_ROLE } from '../../lib/permissions';
import { PREFECTURES } from '../../lib/prefectures';
import { bottleResource } from '../../lib/resources/bottle';
import { itemResource } from '../../lib/resources/item';
import { soukoResource } from '../../lib/resources/souko';
import { serverResource } from '../../lib/resources/water-server';
import type { Database } from '../db/schema';
import { adjustStock } from '../stock';
import { bulkInsert } from './bulk-insert';
import { SEED_USERS } from './data/generate';
import { createRng } from './data/rng';
import { DEMO_ITEMS, DEMO_WAREHOUSES, generateBottles, generateServers } from './data/stock';

export const DEMO_SERVERS = 300;

/** Seeds the stock area for the demo company; `adminId` is who the opening stock is booked by. */
export async function seedStock(db: Kysely<Database>, adminId: number, today: string = todayJst()): Promise<void> {
  const rng = createRng(5);
  // A warehouse is managed by the driver of its prefecture (SEED_USERS' routes), else by the first 管理 staff member.
  const users = await db.selectFrom('user').select(['user_id', 'user_role', 'user_email']).where('deleted', '=', 0).orderBy('user_id').execute();
  const routeOf = new Map(SEED_USERS.map((u) => [u.email, u.route]));
  const admin = users.find((u) => u.user_role === ADMIN_ROLE && routeOf.has(String(u.user_email)))?.user_id ?? '';
  const managerOf = (pref: string) => users.find((u) => routeOf.get(String(u.user_email)) === pref)?.user_id ?? admin;
  const warehouseIds = await bulkInsert(db, soukoResource, DEMO_WAREHOUSES.map((w) => ({ ...w, manager_id: managerOf(w.pref) })));
  const itemIds = await bulkInsert(db, itemResource, DEMO_ITEMS);

  // Customers ship from the warehouse of their region.
  const codeOf = new Map(PREFECTURES.map((p) => [p.name, p.code]));
  const clients = await db.selectFrom('client').select(['cl_id', 'cl_status', 'cl_pref']).where('deleted', '=', 0).orderBy('cl_id').execute();
  for (const [i, warehouse] of DEMO_WAREHOUSES.entries()) {
    const ids = clients.filter((c) => warehouse.region.includes(codeOf.get(String(c.cl_pref)) ?? '')).map((c) => Number(c.cl_id));
    for (let j = 0; j < ids.length; j += 500) await db.updateTable('client').set({ cl_sk_id: String(warehouseIds[i]) }).where('cl_id', 'in', ids.slice(j, j + 500)).execute();
  }

  // Opening stock and a few movements, through the one adjustment path (history and audit included).
  const ctx = { db, userId: adminId, call: 'seed' };
  const active = warehouseIds.filter((_, i) => DEMO_WAREHOUSES[i].active === 1);
  for (const sk of active) {
    for (const [i, it] of itemIds.entries()) {
      if (DEMO_ITEMS[i].stock_tracked !== 1) continue;
      await adjustStock(ctx, sk, { it_id: it, kind: 'in', quantity: rng.int(8, 40) * 10, reason: '初期在庫' });
      if (rng.chance(0.6)) await adjustStock(ctx, sk, { it_id: it, kind: 'out', quantity: rng.int(1, 6) * 10, reason: '配送出荷' });
      if (rng.chance(0.2)) await adjustStock(ctx, sk, { it_id: it, kind: 'count', quantity: rng.int(5, 30) * 10, reason: '月末棚卸（差異あり）' });
    }
  }

  const customers = clients.map((c) => ({ id: Number(c.cl_id), status: String(c.cl_status) }));
  const servers = generateServers(customers, active, today, DEMO_SERVERS);
  await bulkInsert(db, serverResource, servers);

  const returnable = DEMO_ITEMS.flatMap((it, i) => (it.returnable === 1 ? [{ id: itemIds[i], deposit: Number(it.deposit || 0) }] : []));
  const since = new Map<number, string>();
  for (const s of servers) if (s.status === 'installed' && typeof s.cl_id === 'number' && !since.has(s.cl_id)) since.set(s.cl_id, s.install_date);
  const bottles = generateBottles([...since].map(([cl_id, date]) => ({ cl_id, since: date })), returnable, today);
  await bulkInsert(db, bottleResource, bottles, { createdOf: (r) => new Date(`${String((r as { move_date: string }).move_date)}T18:00:00+09:00`).toISOString() });
}
