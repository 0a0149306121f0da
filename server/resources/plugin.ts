/**
 * The generic handlers of every declared resource (lib/resources RESOURCES): `{r}_lst`,
 * `{r}_cnt`, `{r}_pagination`, `{r}_dtl`, `{r}_save`, `{r}_del`. No resource has code of its own here.
 */
import type { FastifyInstance } from 'fastify';
import { callName, type PaginationAnswer } from '../../lib/protocol';
import { RESOURCES, type ResourceDef } from '../../lib/resources';
import { addCall, type AreaOptions, type CallContext } from '../calls/call-table';
import { resourceView } from '../db/schema';
import { jsonObject, optionalId, positiveId } from '../http/params';
import { answerRow, resourceColumns } from './columns';
import { keywordMatcher } from './keyword';
import { listCondition, listOrder, parseListParams } from './list-query';
import { deleteRecord, findRecord, saveRecord } from './records';

/** Registers the six calls of every resource in the call table. */
export async function resourcesPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  const view = resourceView(db);
  const matcher = await keywordMatcher(database);

  const count = async (def: ResourceDef, { params }: CallContext): Promise<{ total: number; request: ReturnType<typeof parseListParams> }> => {
    const request = parseListParams(def, params);
    const row = await view
      .selectFrom(def.table)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where((eb) => listCondition(eb, def, request, matcher))
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), request };
  };

  for (const def of Object.values(RESOURCES)) {
    const { area } = def;
    const writer = (ctx: CallContext) => ({ db, userId: ctx.user.user_id, call: ctx.call });

    addCall(calls, callName(def.name, 'lst'), {
      area, level: 'read',
      handler: async ({ params }) => {
        const request = parseListParams(def, params);
        const { id, list } = resourceColumns(def);
        const order = listOrder(def, request);
        // Page the ids first (index-only where possible), then read the columns of those rows only.
        let page = view.selectFrom(def.table).select(id).where((eb) => listCondition(eb, def, request, matcher));
        for (const [column, direction] of order) page = page.orderBy(column, direction);
        let query = view.selectFrom(def.table).select(list).where(id, 'in', page.limit(request.n).offset((request.p - 1) * request.n));
        for (const [column, direction] of order) query = query.orderBy(column, direction);
        const rows = await query.execute();
        return rows.map((row) => answerRow(def, row));
      },
    });
    addCall(calls, callName(def.name, 'cnt'), {
      area, level: 'read',
      handler: async (ctx) => [(await count(def, ctx)).total],
    });
    addCall(calls, callName(def.name, 'pagination'), {
      area, level: 'read',
      handler: async (ctx) => {
        const { total, request } = await count(def, ctx);
        const answer: PaginationAnswer = { total, pages: Math.ceil(total / request.n), page: request.p, n: request.n };
        return [answer];
      },
    });
    addCall(calls, callName(def.name, 'dtl'), {
      area, level: 'read',
      handler: async ({ params }) => [await findRecord(db, def, positiveId(params.id))],
    });
    addCall(calls, callName(def.name, 'save'), {
      area, level: 'write',
      handler: async (ctx) => [await saveRecord(writer(ctx), def, optionalId(ctx.params.id), jsonObject(ctx.params.postData))],
    });
    addCall(calls, callName(def.name, 'del'), {
      area, level: 'write',
      handler: async (ctx) => {
        const id = positiveId(ctx.params.id);
        await deleteRecord(writer(ctx), def, id);
        return [{ id }];
      },
    });
  }
}
