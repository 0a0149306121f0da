/**
 * The generic handlers of every declared resource (lib/resources RESOURCES): `{r}_lst`,
 * `{r}_cnt`, `{r}_pagination`, `{r}_csv` (the list as a file), `{r}_dtl`, `{r}_save`, `{r}_del`, and
 * `{r}_bulk_save`, `{r}_sum` and the child rows' list (`children.call`, e.g. `order_detail_lst`) where declared.
 * No resource has code of its own here.
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS, MESSAGES, type CountExactAnswer, type PaginationAnswer, type Verb } from '../../lib/protocol';
import { can } from '../../lib/permissions';
import { childRowsCall, resourceCall, resourceVerbs } from '../../lib/protocol/calls';
import { RESOURCE_LIST, resourceNamed } from '../../lib/resources';
import { keyLabel, type ResourceDef } from '../../lib/resources/types';
import { addCall, type AreaOptions, type CallContext } from '../calls/call-table';
import { resourceView } from '../db/schema';
import { jsonObject, optionalId, positiveId } from '../http/params';
import { storedChildren } from './children';
import { answerRow } from './columns';
import { keywordMatcher } from './keyword';
import { parseListParams, selectPage, sumMatching, type ListRequest } from './list-query';
import { countAnswer, countedTotal, countOn, countProgress, countScope, exactCountDone, exactCountStart, listTotal } from './list-count';
import { exportCsv } from './csv-export';
import { policyOf } from './registry';
import { ApiError, badRequest } from '../http/api-error';
import { deleteRecord, findRecord, saveRecord, saveRecords, type BulkEntry } from './records';
import { cellText } from '../../lib/resources/checks';

/**
 * The records of a `{r}_bulk_save`: `postData` is `{ "rows": [{ "id": 12, …values, "modified": "…" }, …] }`
 * (a row without `id` is a new record), 1 to LIMITS.maxBulkRows rows.
 */
export function bulkEntries(def: ResourceDef, postData: string | undefined): BulkEntry[] {
  const rows = jsonObject(postData, (key) => keyLabel(def, key)).rows;
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > LIMITS.maxBulkRows) throw badRequest(MESSAGES.badBulk);
  return rows.map((row: unknown) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw badRequest(MESSAGES.badBulk);
    const { id, ...values } = row as Record<string, unknown>;
    return { id: id === undefined || id === null || id === '' ? undefined : positiveId(cellText(id)), values };
  });
}

/**
 * The values of a `{r}_save`: `postData`, a JSON object. A save without it, or with no value, is refused, never stored
 * as a record of defaults (nor as an edit that changes nothing) — except an empty new record of a resource with
 * required fields no default fills, which the form's rules answer naming each field to fill in.
 */
export function saveValues(def: ResourceDef, id: number | undefined, postData: string | undefined): Record<string, unknown> {
  if (!postData?.trim()) throw badRequest(MESSAGES.emptySave);
  const values = jsonObject(postData, (key) => keyLabel(def, key));
  const named = def.fields.some((f) => f.required && f.initial === undefined);
  if (Object.keys(values).length === 0 && (id !== undefined || !named)) throw badRequest(MESSAGES.emptySave);
  return values;
}

/** Registers the calls of every resource in the call table. */
export async function resourcesPlugin(_app: FastifyInstance, { calls, database, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  const view = resourceView(db);
  // An export walks every row once: on SQLite through the second connection, whose small page cache it passes
  // through instead of filling the main one (the export's memory stays flat; lists keep their cache warm).
  const exportView = resourceView(database.reader);
  const matcher = await keywordMatcher(database);
  const listReaders = new Map<string, (ctx: CallContext) => ListRequest>();

  for (const def of RESOURCE_LIST) {
    const verbs = resourceVerbs(def);
    const writer = (ctx: CallContext) => ({ db, userId: ctx.user.user_id, call: ctx.call, user: ctx.user });
    const policy = policyOf(def.name);
    // The owner's own record (def.owner) is readable and savable without the area; records.ts limits the fields.
    const owns = (ctx: CallContext) => Boolean(def.owner) && (ctx.params.id ?? '').trim() === String(ctx.user.user_id);
    const allow = (verb: Verb) => (ctx: CallContext) =>
      ((verb === 'dtl' || verb === 'save') && owns(ctx)) || Boolean(policy?.allow?.(ctx.user, verb, ctx.params));
    // Reads see only the rows the policy's scope gives the caller (list, count and pagination alike).
    const scope = (ctx: CallContext) => policy?.scope?.(ctx.user);
    const listRequest = (ctx: CallContext) => ({ ...parseListParams(def, ctx.params), scope: scope(ctx) });

    addCall(calls, resourceCall(def, 'lst'), {
      handler: async (ctx) => (await selectPage(view, def, listRequest(ctx), matcher)).map((row) => answerRow(def, row)),
    });
    addCall(calls, resourceCall(def, 'cnt'), {
      handler: async (ctx) => countAnswer(await listTotal(db, view, def, listRequest(ctx), matcher)),
    });
    addCall(calls, resourceCall(def, 'pagination'), {
      handler: async (ctx) => {
        const request = listRequest(ctx);
        const { count: total, more } = await listTotal(db, view, def, request, matcher);
        const answer: PaginationAnswer = { total, pages: Math.ceil(total / request.n), page: request.p, n: request.n, ...(more ? { more } : {}) };
        return [answer];
      },
    });
    if (verbs.has('sum')) {
      addCall(calls, resourceCall(def, 'sum'), {
        handler: async (ctx) => [await sumMatching(view, def, listRequest(ctx), matcher)],
      });
    }
    if (verbs.has('csv')) {
      addCall(calls, resourceCall(def, 'csv'), {
        handler: (ctx) => exportCsv({ view: exportView, database, keyword: matcher }, def, ctx, listRequest(ctx)),
      });
    }
    listReaders.set(def.name, listRequest);
    addCall(calls, resourceCall(def, 'dtl'), {
      allow: allow('dtl'),
      handler: async (ctx) => [await findRecord(db, def, positiveId(ctx.params.id), scope(ctx))],
    });
    const { children } = def;
    if (children) {
      // A record's child rows in order (prefixed columns), e.g. `order_detail_lst` with `od_id`: 404 for a record the caller cannot see.
      addCall(calls, childRowsCall(children), {
        handler: async (ctx) => {
          const recordId = positiveId(ctx.params[children.parentField]);
          await findRecord(db, def, recordId, scope(ctx));
          return (await storedChildren(db, children, [recordId])).get(recordId) ?? [];
        },
      });
    }
    if (verbs.has('save')) {
      addCall(calls, resourceCall(def, 'save'), {
        allow: allow('save'),
        handler: async (ctx) => {
          const id = optionalId(ctx.params.id);
          return [await saveRecord(writer(ctx), def, id, saveValues(def, id, ctx.params.postData))];
        },
      });
    }
    if (verbs.has('bulk_save')) {
      addCall(calls, resourceCall(def, 'bulk_save'), {
        allow: allow('bulk_save'),
        handler: async (ctx) => saveRecords(writer(ctx), def, bulkEntries(def, ctx.params.postData)),
      });
    }
    if (verbs.has('del')) {
      addCall(calls, resourceCall(def, 'del'), {
        allow: allow('del'),
        handler: async (ctx) => {
          const id = positiveId(ctx.params.id);
          await deleteRecord(writer(ctx), def, id);
          return [{ id }];
        },
      });
    }
  }

  // A list's exact total: the counters when they answer it, else counted in id ranges; past `wait` ms (default and at
  // most LIMITS.countInlineMs; 0: at once) it goes on as a job, answering its id.
  addCall(calls, 'count_exact', {
    handler: async (ctx): Promise<CountExactAnswer[]> => {
      const def = resourceNamed((ctx.params.resource ?? '').trim());
      const listRequest = def && listReaders.get(def.name);
      if (!def || !listRequest) throw badRequest(MESSAGES.countBadResource, { fields: { resource: MESSAGES.countBadResource } });
      if (!can(ctx.user.areas, def.area, 'read')) throw new ApiError(403, MESSAGES.forbidden);
      const waitText = (ctx.params.wait ?? '').trim();
      const wait = waitText === '' ? LIMITS.countInlineMs : /^\d{1,4}$/.test(waitText) ? Number(waitText) : Number.NaN;
      if (!(wait <= LIMITS.countInlineMs)) throw badRequest(MESSAGES.countBadWait, { fields: { wait: MESSAGES.countBadWait } });
      const request = listRequest(ctx);
      const counted = await countedTotal(db, def, request);
      if (counted !== undefined) return [{ count: counted }];
      const until = Date.now() + wait;
      const state = await countOn(exportView, def, request, matcher, await exactCountStart(exportView, def), () => Date.now() < until);
      if (exactCountDone(state)) return [{ count: state.found }];
      const jobId = await jobs.start({
        kind: 'count_exact', scope: countScope(def, request, ctx.user.user_id), params: { resource: def.name }, user: ctx.user,
        work: async ({ progress }) => {
          await progress(...countProgress(state));
          const done = await countOn(exportView, def, request, matcher, state, async (s) => {
            await progress(...countProgress(s));
            return true;
          });
          await progress(...countProgress(done));
          return { count: done.found };
        },
      });
      return [{ job_id: jobId }];
    },
  });
}
