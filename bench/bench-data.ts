/**
 * The list benchmarks' data: N customers and M orders, made once and kept (`BENCH_KEEP=dir`, list-bench.ts).
 * The first 100,000 customers and their 1,000,000 orders come from the demo generators (server/seed/seed.ts,
 * as every list benchmark loads them); a bigger set repeats that block set-based in SQL — `INSERT … SELECT`
 * of the block with new ids (customer codes and debit codes suffixed, so they stay unique), each copy's
 * orders pointing at that copy's customers — so 1,000,000 customers and 10,000,000 orders load in minutes
 * instead of generating ten million rows in JavaScript. The loader is idempotent: it adds what a database
 * (e.g. a copy of the smaller set) does not hold yet.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../server/config';
import type { Database } from '../server/db/schema';
import { seedSyntheticClients, seedSyntheticOrders } from '../server/seed/seed';

/** The block the generators make; bigger sets are whole copies of it. */
export const BLOCK = { clients: 100_000, orders: 1_000_000 } as const;

export interface DataSize {
  clients: number;
  orders: number;
}

/** The name a kept data set goes by: `c100000-o1000000`. */
export const dataKey = (size: DataSize): string => `c${size.clients}-o${size.orders}`;

/** The kept smaller set a bigger one starts from (a copy of the block), if the size is bigger than the block. */
export const baseOf = (size: DataSize): DataSize | undefined =>
  size.clients > BLOCK.clients && size.orders >= BLOCK.orders ? { clients: BLOCK.clients, orders: BLOCK.orders } : undefined;

const count = async (db: Kysely<Database>, table: 'client' | 'orders'): Promise<number> =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

async function columnsOf(db: Kysely<Database>, dialect: DialectName, table: string): Promise<string[]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db);
  return rows.map((r) => r.name);
}

/** The lowest customer id (the block's first). */
export const firstClient = async (db: Kysely<Database>): Promise<number> =>
  Number((await db.selectFrom('client').select((eb) => eb.fn.min<number>('cl_id').as('id')).executeTakeFirstOrThrow()).id);

/**
 * Copy `copy` (1, 2, …) of the block's customers and orders, in one transaction: customer ids follow on,
 * each copied order points at its customer's copy (`od_cl_id + copy × block`, the ids being consecutive).
 */
async function copyBlock(db: Kysely<Database>, dialect: DialectName, copy: number, first: number, withOrders: boolean): Promise<void> {
  const clientColumns = (await columnsOf(db, dialect, 'client')).filter((c) => c !== 'cl_id');
  const orderColumns = (await columnsOf(db, dialect, 'orders')).filter((c) => c !== 'od_id');
  const suffix = `-${copy}`;
  const clientValue = (c: string) =>
    c === 'cl_code' || c === 'cl_debit_code' ? sql`CASE WHEN ${sql.ref(c)} = '' THEN '' ELSE ${sql.ref(c)} || ${suffix} END` : sql.ref(c);
  const shift = copy * BLOCK.clients;
  const last = first + BLOCK.clients - 1;
  await db.transaction().execute(async (trx) => {
    await sql`INSERT INTO client (cl_id, ${sql.join(clientColumns.map((c) => sql.ref(c)))})
      SELECT cl_id + ${shift}, ${sql.join(clientColumns.map(clientValue))} FROM client WHERE cl_id BETWEEN ${first} AND ${last} ORDER BY cl_id`.execute(trx);
    if (!withOrders) return;
    const orderValue = (c: string) => (c === 'od_cl_id' ? sql`od_cl_id + ${shift}` : sql.ref(c));
    await sql`INSERT INTO orders (${sql.join(orderColumns.map((c) => sql.ref(c)))})
      SELECT ${sql.join(orderColumns.map(orderValue))} FROM orders WHERE od_cl_id BETWEEN ${first} AND ${last} ORDER BY od_id`.execute(trx);
  });
  if (dialect === 'postgres') await sql`SELECT setval('client_cl_id_seq', (SELECT max(cl_id) FROM client))`.execute(db);
}

/**
 * Loads a data set into a migrated database, adding only what it does not hold yet; answers the first customer id.
 * Sizes above the block must be whole copies of it (1,000,000 customers with 10,000,000 orders or with none).
 * @example await loadDataset(db, 'postgres', { clients: 1_000_000, orders: 10_000_000 }, console.log)
 */
export async function loadDataset(db: Kysely<Database>, dialect: DialectName, size: DataSize, say: (line: string) => void = () => undefined): Promise<number> {
  const blockClients = Math.min(size.clients, BLOCK.clients);
  const blockOrders = Math.min(size.orders, BLOCK.orders);
  const copies = size.clients / blockClients;
  if (!Number.isInteger(copies) || (copies > 1 && size.orders !== 0 && size.orders !== copies * BLOCK.orders)) {
    throw new Error(`bench data: ${size.clients} customers / ${size.orders} orders is not whole copies of ${BLOCK.clients} / ${BLOCK.orders}`);
  }
  let clients = await count(db, 'client');
  if (clients % blockClients !== 0) throw new Error(`bench data: ${clients} customers is not whole blocks (a generation that stopped): remove the data set`);
  if (clients === 0) {
    await seedSyntheticClients(db, blockClients);
    clients = blockClients;
    say(`  ${blockClients.toLocaleString()} customers generated`);
  }
  const first = await firstClient(db);
  const orders = blockOrders > 0 ? await count(db, 'orders') : 0;
  if (blockOrders > 0 && orders % blockOrders !== 0) throw new Error(`bench data: ${orders} orders is not whole blocks (a generation that stopped): remove the data set`);
  if (blockOrders > 0 && orders === 0) {
    await seedSyntheticOrders(db, first, blockClients, blockOrders);
    say(`  ${blockOrders.toLocaleString()} orders generated`);
  }
  for (let copy = clients / blockClients; copy < copies; copy++) {
    const started = Date.now();
    await copyBlock(db, dialect, copy, first, size.orders > 0);
    say(`  copy ${copy} of the block: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return first;
}
