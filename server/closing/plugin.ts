/**
 * The closing calls (area 売上, issue 13): `closing_preview` (仮締め: a group's month, nothing written),
 * `closing_preview_items` (the slips and payments behind one of its rows), `closing_run` (締切, a job: one running per
 * group and month on any process), `closing_restore` (締め戻し of the group's latest closing), `closing_lst` (the
 * closings, latest first, with whether each may be restored) and `billing_rate_lst` (an invoice's rows per rate).
 * Parameters `sime_gp` (5, 10, 15, 20, 25, 31) and `sime_ym` (YYYYMM, no hyphen): a bad one is 400 naming it.
 */
import type { FastifyInstance } from 'fastify';
import { closingOf, type ClosingPeriod } from '../../lib/closing/period';
import { formatDateTime } from '../../lib/format';
import { MESSAGES } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { positiveId, type Params } from '../http/params';
import type { Jobs } from '../jobs/jobs';
import { jobTitle } from '../../lib/jobs';
import { closingItems, closingPlan, closingRefusal, previewOf, type ClosingPlan } from './plan';
import { closingList, closingRestore } from './restore';
import { closingRun } from './run';

/** The closing the parameters name, or 400 naming the bad field. */
function periodParam(params: Params): ClosingPeriod {
  const parsed = closingOf(params.sime_gp ?? '', params.sime_ym ?? '');
  if (!parsed.ok) throw badRequest(parsed.problem.message, { fields: { [parsed.problem.field]: parsed.problem.message } });
  return parsed.period;
}

/** 409 while a closing of the group runs (a restore would wait for its transaction). */
async function refuseWhileClosing(jobs: Jobs, gp: string): Promise<void> {
  const running = (await jobs.list({ kinds: ['closing_run'], state: 'running', limit: 100 })).find((job) => job.scope.startsWith(`${gp}:`));
  if (running) throw new ApiError(409, MESSAGES.jobRunning(jobTitle(running.kind, running.scope), running.user_name, formatDateTime(running.started)), { job_id: running.job_id });
}

export async function closingPlugin(_app: FastifyInstance, { calls, database, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'closing_preview', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const period = periodParam(params);
      let plan: ClosingPlan | undefined;
      const planOf = async (): Promise<ClosingPlan> => (plan ??= await closingPlan(db, period));
      const refusal = await closingRefusal(db, period, planOf);
      if (refusal) throw refusal;
      return [previewOf(await planOf())];
    },
  });
  addCall(calls, 'closing_preview_items', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const period = periodParam(params);
      const clientId = positiveId(params.cl_id);
      const items = await closingItems(db, period, clientId);
      if (!items) {
        const message = `顧客（ID ${clientId}）はこの締日の請求先ではありません（請求親顧客のない、締日が同じ顧客を指定してください）。`;
        throw badRequest(message, { fields: { cl_id: message } });
      }
      return [items];
    },
  });
  addCall(calls, 'closing_run', {
    area: 'sales', level: 'write',
    handler: async ({ call, params, user }) => {
      const period = periodParam(params);
      // Refused at once when it is clear already, again once the job holds the month (a run of the same month that
      // ended in between has closed it), and by the job under the closing lock.
      const refuse = async (): Promise<void> => {
        const refusal = await closingRefusal(db, period, () => closingPlan(db, period));
        if (refusal) throw refusal;
      };
      await refuse();
      const job_id = await jobs.start({
        kind: 'closing_run', scope: `${period.sime_gp}:${period.sime_ym}`, params: { sime_gp: period.sime_gp, sime_ym: period.sime_ym }, user, admit: refuse,
        work: ({ id, database: { db: jobDb }, progress }) => closingRun({ db: jobDb, userId: user.user_id, call, user, jobId: id }, period, progress),
      });
      return [{ job_id }];
    },
  });
  addCall(calls, 'closing_restore', {
    area: 'sales', level: 'write',
    handler: async ({ call, params, user }) => {
      const period = periodParam(params);
      await refuseWhileClosing(jobs, period.sime_gp);
      return [await closingRestore({ db, userId: user.user_id, call, user }, period)];
    },
  });
  addCall(calls, 'closing_lst', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const gp = (params.sime_gp ?? '').trim();
      if (gp && !closingOf(gp, '202501').ok) throw badRequest(MESSAGES.closingBadGroup, { fields: { sime_gp: MESSAGES.closingBadGroup } });
      return closingList(db, gp || undefined);
    },
  });
  addCall(calls, 'billing_rate_lst', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const id = positiveId(params.bl_id);
      const invoice = await db.selectFrom('billing').select('bl_id').where('bl_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
      if (!invoice) throw notFound();
      return db.selectFrom('billing_rate').select(['blr_id', 'blr_bl_id', 'blr_key', 'blr_tax_class', 'blr_rate', 'blr_net', 'blr_tax', 'blr_total'])
        .where('blr_bl_id', '=', id).orderBy('blr_id').execute();
    },
  });
}
