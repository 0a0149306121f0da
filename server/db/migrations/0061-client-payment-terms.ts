/**
 * Payment terms that cannot happen (issue 19): the view `client_payment_terms (cl_id, impossible)` lists the customers
 * whose 入金予定 falls before their own closing date — 回収月 当月 ('0') on a 回収日 before the 締日 (empty or 31 = 末) —
 * with `impossible` '1', so the customer list's filter 「入金予定が締日より前」 reads through it (`FilterDef.through`).
 * The rule is lib/closing/period.ts `paymentTermsProblem` (the save's refusal); this SQL says the same.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIEW client_payment_terms AS
    SELECT cl_id, '1' AS impossible FROM client
    WHERE cl_collect_cycle = '0'
      AND CASE WHEN cl_collect_day BETWEEN 1 AND 30 THEN cl_collect_day ELSE 31 END
        < CASE cl_sime_gp WHEN '5' THEN 5 WHEN '10' THEN 10 WHEN '15' THEN 15 WHEN '20' THEN 20 WHEN '25' THEN 25 WHEN '31' THEN 31 END`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW client_payment_terms`.execute(db);
}
