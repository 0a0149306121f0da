/**
 * 営業担当 is a staff member, picked from the users (issue 19): `cl_sale_usr_id`, a reference to a user, in place of the
 * free text `cl_sale_staff`. Each customer's text is matched to a live user of that name (an active one first, then the
 * lowest id) — the rule the sales slip's 担当者 used to apply at every save — and cleared where it matched; a name that
 * matches no user stays in `cl_sale_staff`, shown read-only as 「営業担当（移行前の入力）」 until someone picks the staff
 * member, so nothing typed is lost.
 */
import { sql, type Kysely } from 'kysely';

/** Fills `cl_sale_usr_id` from the text where a user of that name exists, and clears the matched text. */
export async function fillSaleStaff(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE client SET cl_sale_usr_id = (
      SELECT u.user_id FROM "user" u WHERE u.deleted = 0 AND u.user_name = TRIM(client.cl_sale_staff)
      ORDER BY u.user_active DESC, u.user_id LIMIT 1)
    WHERE cl_sale_usr_id IS NULL AND cl_sale_staff IS NOT NULL AND TRIM(cl_sale_staff) <> ''`.execute(db);
  await sql`UPDATE client SET cl_sale_staff = '' WHERE cl_sale_usr_id IS NOT NULL AND cl_sale_staff <> ''`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('client').addColumn('cl_sale_usr_id', 'integer').execute();
  await fillSaleStaff(db);
}
