/**
 * 請求親顧客 (`cl_parent_id`): a delivery site is billed to the top of its chain of parents (an office billed
 * through its branch through its head office). The chain never loops: the customer policy refuses a save that
 * would close one (server/clients/client-policy.ts), and migration 0027 broke the loops older data held.
 */
import { sql, type Kysely } from 'kysely';
import { chunksOf } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';

/** One customer of a chain: id, its parent and its name (会社名, else 氏名). */
export interface ChainLink {
  id: number;
  parentId: number | null;
  name: string;
}

/** Longer than any real chain; a deeper one means a loop the checks should have refused. */
const MAX_DEPTH = 100;

/**
 * The chain from a customer up through its parents: the customer first, the billing customer last. A loop
 * (not possible after the checks) ends the walk before repeating a customer.
 * @example await parentChain(db, 42) // [{ id: 42, parentId: 7, name: '渋谷営業所' }, { id: 7, parentId: null, name: '本社' }]
 */
export async function parentChain(db: Kysely<Database>, clientId: number): Promise<ChainLink[]> {
  const chain: ChainLink[] = [];
  const seen = new Set<number>();
  for (let at: number | null = clientId; at !== null && !seen.has(at) && chain.length < MAX_DEPTH;) {
    const row: ResourceRow | undefined = await db.selectFrom('client').select(['cl_id', 'cl_parent_id', 'cl_co_name', 'cl_name']).where('cl_id', '=', at).executeTakeFirst();
    if (!row) break;
    seen.add(at);
    const parentId: number | null = row.cl_parent_id === null || row.cl_parent_id === undefined ? null : Number(row.cl_parent_id);
    chain.push({ id: at, parentId, name: String(row.cl_co_name || row.cl_name || `ID ${at}`) });
    at = parentId;
  }
  return chain;
}

/**
 * The customer a customer's slips are billed to: the top of its chain of 請求親顧客 (itself without a parent).
 * @example await billingCustomerOf(db, 42) // 7
 */
export async function billingCustomerOf(db: Kysely<Database>, clientId: number): Promise<number> {
  const chain = await parentChain(db, clientId);
  return chain.at(-1)?.id ?? clientId;
}

/**
 * A customer's billing group, as receivables and credit see it: the billing customer (the top of the chain), its
 * 与信限度額, and the 売掛残高 of the whole group — the billing customer's own and that of every delivery site billed
 * to it (its slips count on the site, the payments on the billing customer: only the sum is what is owed).
 */
export interface BillingGroup {
  billingId: number;
  /** The billing customer's name (会社名, else 氏名). */
  name: string;
  /** The billing customer's 与信限度額 (0 = none). */
  limit: number;
  /** Σ 売掛残高 of the billing customer and its sites. */
  balance: number;
  /** The customers of the group: the billing customer first, then its sites by id. */
  members: number[];
}

/**
 * The billing customer of each customer, set-based: the customers without a 請求親顧客 are their own; the others walk up
 * their chains in one recursive query per 500 (the top of a chain is where the walk went furthest).
 * @example await billingCustomersOf(db, [42, 7]) // Map { 42 => 7, 7 => 7 }
 */
export async function billingCustomersOf(db: Kysely<Database>, clientIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  // Most customers are billed on their own: only those with a parent walk up.
  const withParent: number[] = [];
  for (const chunk of chunksOf([...new Set(clientIds)], 1000)) {
    const rows = await db.selectFrom('client').select(['cl_id', 'cl_parent_id']).where('cl_id', 'in', chunk).execute();
    for (const r of rows) {
      if (r.cl_parent_id === null || r.cl_parent_id === undefined) out.set(Number(r.cl_id), Number(r.cl_id));
      else withParent.push(Number(r.cl_id));
    }
  }
  for (const chunk of chunksOf(withParent, 500)) {
    const up = await sql<{ start_id: number; at_id: number; depth: number }>`
      WITH RECURSIVE up(start_id, at_id, depth) AS (
        SELECT cl_id, cl_id, 0 FROM client WHERE cl_id IN (${sql.join(chunk)})
        UNION ALL
        SELECT up.start_id, p.cl_id, up.depth + 1 FROM up
          JOIN client c ON c.cl_id = up.at_id JOIN client p ON p.cl_id = c.cl_parent_id
          WHERE up.depth < ${MAX_DEPTH})
      SELECT start_id, at_id, depth FROM up`.execute(db);
    const deepest = new Map<number, number>();
    for (const r of up.rows) {
      const start = Number(r.start_id);
      if (Number(r.depth) >= (deepest.get(start) ?? -1)) {
        deepest.set(start, Number(r.depth));
        out.set(start, Number(r.at_id));
      }
    }
  }
  return out;
}

/**
 * The billing groups of customers (two recursive queries per 500 customers: up the chain, then down from the tops).
 * @example (await billingGroupsOf(db, [42])).get(42) // { billingId: 7, name: '本社', limit: 300000, balance: 51840, members: [7, 42, 43] }
 */
export async function billingGroupsOf(db: Kysely<Database>, clientIds: readonly number[]): Promise<Map<number, BillingGroup>> {
  const out = new Map<number, BillingGroup>();
  for (const chunk of chunksOf([...new Set(clientIds)], 500)) {
    const topOf = await billingCustomersOf(db, chunk);
    const tops = [...new Set(topOf.values())];
    if (tops.length === 0) continue;
    const down = await sql<{ top_id: number; cl_id: number; cl_uri_zan: number | null }>`
      WITH RECURSIVE down(top_id, id, depth) AS (
        SELECT cl_id, cl_id, 0 FROM client WHERE cl_id IN (${sql.join(tops)})
        UNION ALL
        SELECT down.top_id, c.cl_id, down.depth + 1 FROM down JOIN client c ON c.cl_parent_id = down.id
          WHERE c.cl_id <> down.top_id AND down.depth < ${MAX_DEPTH})
      SELECT DISTINCT down.top_id, c.cl_id, c.cl_uri_zan FROM down JOIN client c ON c.cl_id = down.id`.execute(db);
    const heads = await db.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name', 'cl_yoshin_gendo']).where('cl_id', 'in', tops).execute();
    const groups = new Map(heads.map((h) => [Number(h.cl_id), {
      billingId: Number(h.cl_id), name: String(h.cl_co_name || h.cl_name || `ID ${String(h.cl_id)}`), limit: Number(h.cl_yoshin_gendo ?? 0), balance: 0, members: [] as number[],
    }]));
    for (const r of down.rows) {
      const group = groups.get(Number(r.top_id))!;
      group.balance += Number(r.cl_uri_zan ?? 0);
      group.members.push(Number(r.cl_id));
    }
    for (const group of groups.values()) group.members.sort((a, b) => (a === group.billingId ? -1 : b === group.billingId ? 1 : a - b));
    for (const [start, top] of topOf) out.set(start, groups.get(top)!);
  }
  return out;
}
