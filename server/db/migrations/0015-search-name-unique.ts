/**
 * One saved search per name per user and list (`search_save` replaces the one of the same name): a partial
 * unique index over the live rows, so two saves at once cannot both insert. Duplicates that concurrent
 * saves left before are deleted (softly) first, keeping the newest of each name.
 */
import { sql, type Kysely } from 'kysely';
import { uniqueLive } from './resource-table';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE search SET deleted = 1 WHERE deleted = 0 AND EXISTS (
    SELECT 1 FROM search AS newer WHERE newer.deleted = 0 AND newer.srch_usr_id = search.srch_usr_id
      AND newer.srch_tbl = search.srch_tbl AND newer.srch_name = search.srch_name AND newer.srch_id > search.srch_id)`.execute(db);
  await uniqueLive(db, 'search', ['srch_usr_id', 'srch_tbl', 'srch_name']);
}
