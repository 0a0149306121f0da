/**
 * Roles move into the database: the `role` table (a label, unique among live roles, and its areas
 * as JSON text), filled with the default roles of lib/permissions ROLE_TABLE and with any other
 * label existing users already hold (no areas), so every database has a row for each role in use.
 */
import { sql, type Kysely } from 'kysely';
import { normalizeAreas, ROLE_TABLE } from '../../../lib/permissions';
import { searchKey } from '../../../lib/text';
import type { DialectName } from '../../config';
import { createResourceTable, uniqueLive } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'role', prefix: 'role_',
    text: ['name', 'areas'],
    integer: [],
    sortable: ['role_name', 'created', 'modified'],
  });
  await uniqueLive(db, 'role', ['role_name']);

  const held = await sql<{ user_role: string }>`SELECT DISTINCT user_role FROM "user" ORDER BY user_role`.execute(db);
  const names = [...Object.keys(ROLE_TABLE), ...held.rows.map((r) => r.user_role).filter((name) => name && !(name in ROLE_TABLE))];
  const stamp = new Date().toISOString();
  for (const name of names) {
    const areas = JSON.stringify(normalizeAreas(ROLE_TABLE[name] ?? {}));
    await sql`INSERT INTO "role" (role_name, role_areas, role_search, created, modified, deleted)
      VALUES (${name}, ${areas}, ${searchKey(name)}, ${stamp}, ${stamp}, 0)`.execute(db);
  }
}
