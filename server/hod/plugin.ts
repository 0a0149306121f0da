/**
 * The regular-delivery (HOD) calls beside the generic resource calls: `hod_preview` — the deliveries
 * the customers' schedules make due in a date range (server/hod/preview.ts); `hod_generate` — their
 * orders created (server/hod/generate.ts) as a job (answers `[{ job_id }]`; `job_dtl` tells how far; a start while a
 * run of the same or an overlapping range runs is refused naming it); `hod_list` — the delivery list (server/hod/list.ts);
 * `hod_uriage` — delivery sales of a period
 * (`from`, `to`, `group`: team | staff | customer); `hodreport_slip_lst` — the 保証金 slips a round's bottles made (./report-slips.ts).
 */
import type { FastifyInstance } from 'fastify';
import { HOD_PERIOD, periodProblem } from '../../lib/period';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { runningRefusal } from '../jobs/jobs';
import { optionalId, pageParam, positiveId, text, type Params } from '../http/params';
import { hodGenerate } from './generate';
import { hodList } from './list';
import { hodPreview } from './preview';
import { hodReportSlips } from './report-slips';
import { isUriageGroup } from '../../lib/hod/uriage';
import { hodUriage } from './uriage';

/** `from` and `to` as the regular-delivery screens take them (`HOD_PERIOD`: both days, from ≤ to, at most 93 days), or 400 naming the field. */
function rangeParams(params: Params): { from: string; to: string } {
  const period = { from: (params.from ?? '').trim(), to: (params.to ?? '').trim() };
  const problem = periodProblem(period, HOD_PERIOD);
  if (problem) throw badRequest(problem.message, { fields: { [problem.field]: problem.message } });
  return period;
}

/** Registers the HOD calls. */
export async function hodPlugin(_app: FastifyInstance, { calls, database, jobs, config }: AreaOptions): Promise<void> {
  addCall(calls, 'hod_preview', {
    handler: async ({ params }) => {
      const { from, to } = rangeParams(params);
      const n = pageParam(params.n, 100, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return [await hodPreview(database.db, from, to, n, p)];
    },
  });
  addCall(calls, 'hod_generate', {
    handler: async ({ call, params, user }) => {
      const { from, to } = rangeParams(params);
      // A run of an overlapping range started before this one (a lower id) and still running: refused naming it, as a
      // start of the very same range is by the job's scope.
      const admit = async (id: number): Promise<void> => {
        const running = await jobs.list({ kinds: ['hod_generate'], state: 'running', limit: 100 });
        const overlapping = running.find((job) => {
          const [otherFrom, otherTo] = job.scope.split('..');
          return job.job_id < id && otherFrom <= to && otherTo >= from;
        });
        if (overlapping) throw runningRefusal(overlapping);
      };
      const job_id = await jobs.start({
        kind: 'hod_generate', scope: `${from}..${to}`, params: { from, to }, user, admit,
        work: ({ id, database: { db }, progress }) => hodGenerate({ db, userId: user.user_id, call, user, jobId: id }, from, to, { progress, chunk: config.batchChunk }),
      });
      return [{ job_id }];
    },
  });
  addCall(calls, 'hod_list', {
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
  addCall(calls, 'hod_uriage', {
    handler: async ({ params }) => {
      const { from, to } = rangeParams(params);
      const group = params.group ?? 'team';
      if (!isUriageGroup(group)) throw badRequest('集計の単位（チーム・担当者・顧客）を選んでください。', { fields: { group: '集計の単位を選んでください。' } });
      return [await hodUriage(database.db, from, to, group)];
    },
  });
  addCall(calls, 'hodreport_slip_lst', {
    handler: async ({ params }) => hodReportSlips(database.db, positiveId(params.hr_id)),
  });
}
