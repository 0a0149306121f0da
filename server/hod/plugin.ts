/**
 * The regular-delivery (HOD) calls beside the generic resource calls: `hod_preview` — the deliveries
 * the customers' schedules make due in a date range (server/hod/preview.ts); `hod_generate` — their
 * orders created (server/hod/generate.ts); `hod_list` — the delivery list (server/hod/list.ts).
 */
import type { FastifyInstance } from 'fastify';
import { isDay } from '../../lib/hod/schedule';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { optionalId, pageParam, text, type Params } from '../http/params';
import { hodGenerate } from './generate';
import { hodList } from './list';
import { hodPreview, MAX_PREVIEW_DAYS } from './preview';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `from` and `to` (YYYY-MM-DD, from ≤ to, at most MAX_PREVIEW_DAYS days), or 400 naming the field. */
function rangeParams(params: Params): { from: string; to: string } {
  const from = (params.from ?? '').trim();
  const to = (params.to ?? '').trim();
  if (!isDay(from)) throw badRequest(MESSAGES.hodBadFrom, { fields: { from: MESSAGES.hodBadFrom } });
  if (!isDay(to)) throw badRequest(MESSAGES.hodBadTo, { fields: { to: MESSAGES.hodBadTo } });
  if (to < from) throw badRequest(MESSAGES.hodToBeforeFrom, { fields: { to: MESSAGES.hodToBeforeFrom } });
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_PREVIEW_DAYS) throw badRequest(MESSAGES.hodRangeTooLong, { fields: { to: MESSAGES.hodRangeTooLong } });
  return { from, to };
}

/** Registers the HOD calls. */
export async function hodPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  addCall(calls, 'hod_preview', {
    area: 'order', level: 'read',
    handler: async ({ params }) => {
      const { from, to } = rangeParams(params);
      const n = pageParam(params.n, 100, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return [await hodPreview(database.db, from, to, n, p)];
    },
  });
  addCall(calls, 'hod_generate', {
    area: 'order', level: 'write',
    handler: async ({ call, params, user }) => {
      const { from, to } = rangeParams(params);
      return [await hodGenerate({ db: database.db, userId: user.user_id, call, user }, from, to)];
    },
  });
  addCall(calls, 'hod_list', {
    area: 'hod', level: 'read',
    handler: async ({ params }) => {
      const { from, to } = rangeParams(params);
      const id = (name: string): string => String(optionalId(params[name]) ?? '');
      return hodList(database.db, {
        fromDate: from, toDate: to,
        team: text(params, 'team', 50).trim(),
        userId: id('userId'),
        clientId: id('clientId'),
        coName: text(params, 'coName', 100).trim(),
      });
    },
  });
}
