/**
 * 請求親顧客 (`cl_parent_id`): a delivery site is billed to the top of its chain of parents (an office billed
 * through its branch through its head office). The chain never loops: the customer policy refuses a save that
 * would close one (server/resources/policies/client.ts), and migration 0027 broke the loops older data held.
 */
import type { Kysely } from 'kysely';
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
