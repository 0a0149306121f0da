/**
 * Existing data under the exact money rules (issue 12), idempotent so it may run again:
 * - 税転嫁: 明細単位 (1) is not allowed on a qualified invoice and is no longer offered → 3 外税・請求単位 (the
 *   default), as is an empty or unknown code.
 * - 請求親顧客 is a reference without loops: a parent id naming no live customer, or the customer itself, is
 *   cleared; a loop of parents is broken at its lowest id (whose parent is cleared).
 * - 容器保証金 is 不課税, not 非課税: items named 保証金 in the old joint class 非課税・不課税, and their order lines,
 *   become `outside`.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

/**
 * The customers whose parent to clear so that no chain of parents loops: the lowest id of every loop.
 * @example loopBreakers(new Map([[1, 2], [2, 1], [3, 1]])) // [1]
 */
export function loopBreakers(parents: ReadonlyMap<number, number>): number[] {
  const settled = new Set<number>();
  const breakers: number[] = [];
  for (const start of parents.keys()) {
    const path: number[] = [];
    const onPath = new Set<number>();
    let at: number | undefined = start;
    while (at !== undefined && !settled.has(at) && !onPath.has(at)) {
      path.push(at);
      onPath.add(at);
      at = parents.get(at);
    }
    if (at !== undefined && onPath.has(at)) breakers.push(Math.min(...path.slice(path.indexOf(at))));
    for (const id of path) settled.add(id);
  }
  return breakers;
}

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await sql`UPDATE client SET cl_zei_ten = '3' WHERE cl_zei_ten IS NULL OR cl_zei_ten NOT IN ('2', '3', '4', '5')`.execute(db);

  await sql`UPDATE client SET cl_parent_id = NULL WHERE cl_parent_id IS NOT NULL
    AND (cl_parent_id = cl_id OR NOT EXISTS (SELECT 1 FROM client p WHERE p.cl_id = client.cl_parent_id AND p.deleted = 0))`.execute(db);
  const { rows } = await sql<{ cl_id: number; cl_parent_id: number }>`SELECT cl_id, cl_parent_id FROM client WHERE cl_parent_id IS NOT NULL`.execute(db);
  const breakers = loopBreakers(new Map(rows.map((r) => [Number(r.cl_id), Number(r.cl_parent_id)])));
  for (const id of breakers) await sql`UPDATE client SET cl_parent_id = NULL WHERE cl_id = ${id}`.execute(db);

  await sql`UPDATE item SET it_tax_class = 'outside' WHERE it_tax_class = 'exempt' AND it_name LIKE '%保証金%'`.execute(db);
  await sql`UPDATE order_detail SET odd_tax_class = 'outside'
    WHERE odd_tax_class = 'exempt' AND odd_it_id IN (SELECT it_id FROM item WHERE it_tax_class = 'outside')`.execute(db);
}
