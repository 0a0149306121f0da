/**
 * Saved searches (spec §3/§7): `search_save`, `search_lst`, `search_dtl`, `search_sync`.
 * Each user sees and changes only their own, per list table.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { LIMITS, MESSAGES, type SavedSearch } from '../../lib/protocol';
import { diff, writeAudit } from '../audit/audit-log';
import { addCall, type AreaOptions, type SessionUser } from '../calls/call-table';
import { isUniqueError, retryOnUnique } from '../db/concurrency';
import type { Database, SearchTable } from '../db/schema';
import { badRequest, notFound } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { jsonObject, optionalId, positiveId, text, type Params } from '../http/params';

const TABLE = /^[a-z][a-z0-9_]{0,49}$/;
const NAME_MAX = 100;

const answer = (row: Selectable<SearchTable>): SavedSearch => ({
  srch_id: row.srch_id,
  srch_name: row.srch_name,
  srch_tbl: row.srch_tbl,
  srch_kw: row.srch_kw,
  srch_col: row.srch_col,
  srch_odr: row.srch_odr,
  postData: row.srch_post_data,
});

function tableParam(params: Params): string {
  const table = (params.srch_tbl ?? '').trim();
  if (!TABLE.test(table)) throw badRequest();
  return table;
}

/** The caller's own, not deleted saved search, or 404. */
async function ownSearch(db: Kysely<Database>, user: SessionUser, id: number): Promise<Selectable<SearchTable>> {
  const row = await db.selectFrom('search').selectAll().where('srch_id', '=', id).where('srch_usr_id', '=', user.user_id).where('deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Reads the values of a saved search from the call parameters. */
function searchValues(params: Params) {
  const name = text(params, 'srch_name', NAME_MAX, MESSAGES.searchName);
  if (!name) throw badRequest(MESSAGES.searchName);
  const odr = (params.srch_odr ?? '').trim().toLowerCase();
  if (odr && odr !== 'asc' && odr !== 'desc') throw badRequest(MESSAGES.badSortOrder);
  return {
    srch_name: name,
    srch_tbl: tableParam(params),
    srch_kw: text(params, 'srch_kw', LIMITS.maxKeyword, MESSAGES.badKeyword),
    srch_col: text(params, 'srch_col', NAME_MAX, MESSAGES.badSortColumn),
    srch_odr: odr,
    srch_post_data: JSON.stringify(jsonObject(params.postData)),
  };
}

type SearchValues = ReturnType<typeof searchValues>;

const nameTaken = () => badRequest(MESSAGES.searchNameTaken, { fields: { srch_name: MESSAGES.searchNameTaken } });

/** The caller's live saved search of a list by name. */
const searchNamed = (db: Kysely<Database>, user: SessionUser, values: SearchValues) =>
  db.selectFrom('search').selectAll()
    .where('srch_usr_id', '=', user.user_id).where('srch_tbl', '=', values.srch_tbl)
    .where('srch_name', '=', values.srch_name).where('deleted', '=', 0).executeTakeFirst();

/**
 * Saves a search: by id (the caller's own; a name another of their searches has is refused), else the
 * one of the same name is replaced or a new one added. A unique index keeps one live search per user,
 * list and name: a save that raced another to insert the name runs again and replaces it.
 */
async function saveSearch(db: Kysely<Database>, user: SessionUser, call: string, id: number | undefined, values: SearchValues): Promise<Selectable<SearchTable>> {
  try {
    return await retryOnUnique(db, async (trx) => {
      const named = await searchNamed(trx, user, values);
      const current = id !== undefined ? await ownSearch(trx, user, id) : named;
      if (current && named && named.srch_id !== current.srch_id) throw nameTaken();
      const stamp = nextStamp(current?.modified);
      const row = current
        ? await trx.updateTable('search').set({ ...values, modified: stamp }).where('srch_id', '=', current.srch_id).returningAll().executeTakeFirstOrThrow()
        : await trx.insertInto('search').values({ ...values, srch_usr_id: user.user_id, created: stamp, modified: stamp }).returningAll().executeTakeFirstOrThrow();
      await writeAudit(trx, { userId: user.user_id, call, table: 'search', recordId: row.srch_id, changes: diff(current, values), at: stamp });
      return row;
    });
  } catch (error) {
    throw isUniqueError(error) ? nameTaken() : error;
  }
}

/** Registers the saved-search calls. */
export async function searchPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;

  addCall(calls, 'search_save', {
    handler: async ({ call, params, user }) => [answer(await saveSearch(db, user, call, optionalId(params.srch_id), searchValues(params)))],
  });

  addCall(calls, 'search_lst', {
    handler: async ({ params, user }) =>
      db.selectFrom('search').select(['srch_id', 'srch_name'])
        .where('srch_usr_id', '=', user.user_id).where('srch_tbl', '=', tableParam(params)).where('deleted', '=', 0)
        .orderBy('srch_name').orderBy('srch_id').execute(),
  });

  addCall(calls, 'search_dtl', {
    handler: async ({ params, user }) => [answer(await ownSearch(db, user, positiveId(params.srch_id)))],
  });

  addCall(calls, 'search_sync', {
    handler: async ({ call, params, user }) => {
      const id = positiveId(params.srch_id);
      await db.transaction().execute(async (trx) => {
        const current = await ownSearch(trx, user, id);
        const stamp = nextStamp(current.modified);
        // Only a live one: of deletes at once, the later ones wait for the first and then find nothing (404).
        const deleted = await trx.updateTable('search').set({ deleted: 1, modified: stamp }).where('srch_id', '=', id).where('deleted', '=', 0).returning('srch_id').executeTakeFirst();
        if (!deleted) throw notFound();
        await writeAudit(trx, { userId: user.user_id, call, table: 'search', recordId: id, changes: { deleted: [0, 1] }, at: stamp });
      });
      return [{ srch_id: id }];
    },
  });
}
