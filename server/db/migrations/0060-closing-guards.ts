/**
 * Closing guards (issue 19): views the list filters read through (`FilterDef.through`), so a warning's count and the
 * list its link opens are the same rows (server/closing/warnings.ts counts with the list's own query).
 * - `client_closing_group (cl_id, sime_gp)`: every customer with the 締日 of its 請求先 (the top of its 請求親顧客 chain,
 *   as the closing's `groupOf` walks it): the group whose closing bills the customer's slips and payments.
 * - `payment_allocation_state (py_id, unallocated)`: '1' when a payment's allocations (消込) do not add up to its amount
 *   (未消込 or partly), else '0' (text: compared with a filter's values on both dialects alike).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW client_closing_group AS
    WITH RECURSIVE chain(cl_id, top_id, depth) AS (
      SELECT cl_id, cl_id, 0 FROM client WHERE cl_parent_id IS NULL AND deleted = 0
      UNION ALL
      SELECT c.cl_id, chain.top_id, chain.depth + 1 FROM chain JOIN client c ON c.cl_parent_id = chain.cl_id
        WHERE c.cl_id <> chain.top_id AND chain.depth < 100)
    SELECT chain.cl_id, t.cl_sime_gp AS sime_gp FROM chain JOIN client t ON t.cl_id = chain.top_id`.execute(db);
  await sql`CREATE VIEW payment_allocation_state AS
    SELECT p.py_id, CASE WHEN p.py_amount <> COALESCE((SELECT SUM(a.al_amount) FROM allocation a WHERE a.al_py_id = p.py_id), 0)
      THEN '1' ELSE '0' END AS unallocated
    FROM payment p`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW payment_allocation_state`.execute(db);
  await sql`DROP VIEW client_closing_group`.execute(db);
}
