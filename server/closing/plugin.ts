/**
 * The closing calls (area 売上, issue 13): `closing_preview` (仮締め: a group's month, nothing written),
 * `closing_preview_items` (the slips and payments behind one of its rows), `closing_warnings` (what to look at before
 * 締切, server/closing/warnings.ts), `closing_run` (締切, a job: one running per group and month on any process; a
 * closing date after today only with `early=1`), `closing_restore` (締め戻し of the group's latest closing; `reason`, up
 * to 200 characters, is kept on each issued invoice it cancels in the archive),
 * `closing_lst` (the closings, latest first, with whether each may be restored), `billing_rate_lst` (an invoice's
 * rows per rate) and `closing_late` (cl_id, date: whether a slip or payment of that customer and day is a late entry,
 * and which closing bills it — `[]` when the day is open; what the slip and payment forms show before saving).
 * Parameters `sime_gp` (5, 10, 15, 20, 25, 31) and `sime_ym` (YYYYMM, no hyphen): a bad one is 400 naming it.
 */
import type { FastifyInstance } from 'fastify';
import { closingOf, type ClosingPeriod } from '../../lib/closing/period';
import { isDay } from '../../lib/day';
import { MESSAGES } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { positiveId, type Params } from '../http/params';
import { runningRefusal, type Jobs } from '../jobs/jobs';
import { lateEntry } from './closed';
import { closingItems, closingPlan, closingRefusal, previewOf, type ClosingPlan } from './plan';
import { closingList, closingRestore } from './restore';

/** The most characters of a 締め戻し's reason (kept on each cancelled invoice of the archive). */
const REASON_MAX = 200;
import { closingRun } from './run';
import { closingWarnings } from './warnings';
import { keywordMatcher } from '../resources';
import { japanToday } from '../http/clock';

/** The closing the parameters name, or 400 naming the bad field. */
function periodParam(params: Params): ClosingPeriod {
  const parsed = closingOf(params.sime_gp ?? '', params.sime_ym ?? '');
  if (!parsed.ok) throw badRequest(parsed.problem.message, { fields: { [parsed.problem.field]: parsed.problem.message } });
  return parsed.period;
}

/** 409 while a closing of the group runs (a restore would wait for its transaction). */
async function refuseWhileClosing(jobs: Jobs, gp: string): Promise<void> {
  const running = (await jobs.list({ kinds: ['closing_run'], state: 'running', limit: 100 })).find((job) => job.scope.startsWith(`${gp}:`));
  if (running) throw runningRefusal(running);
}

export async function closingPlugin(_app: FastifyInstance, { calls, database, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'closing_preview', {
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
  const matcher = await keywordMatcher(database);
  addCall(calls, 'closing_warnings', {
    handler: async ({ params }) => closingWarnings(db, matcher, periodParam(params)),
  });
  addCall(calls, 'closing_run', {
    handler: async ({ call, params, user }) => {
      const period = periodParam(params);
      // Refused at once when it is clear already, again once the job holds the month (a run of the same month that
      // ended in between has closed it), and by the job under the closing lock.
      const refuse = async (): Promise<void> => {
        const refusal = await closingRefusal(db, period, () => closingPlan(db, period));
        if (refusal) throw refusal;
      };
      await refuse();
      // A closing before its day: only when the caller says so (the screen asks, naming the date).
      const today = japanToday();
      if (period.closing_date > today && (params.early ?? '').trim() !== '1') {
        throw new ApiError(409, MESSAGES.closingEarly(period.closing_date, today), { early: true, closing_date: period.closing_date });
      }
      const job_id = await jobs.start({
        kind: 'closing_run', scope: `${period.sime_gp}:${period.sime_ym}`, params: { sime_gp: period.sime_gp, sime_ym: period.sime_ym }, user, admit: refuse,
        work: ({ id, database: { db: jobDb }, progress }) => closingRun({ db: jobDb, userId: user.user_id, call, user, jobId: id }, period, progress),
      });
      return [{ job_id }];
    },
  });
  addCall(calls, 'closing_restore', {
    handler: async ({ call, params, user }) => {
      const period = periodParam(params);
      await refuseWhileClosing(jobs, period.sime_gp);
      const reason = (params.reason ?? '').normalize('NFC').trim();
      if (reason.length > REASON_MAX) {
        const message = `締め戻しの理由は${REASON_MAX}文字以内で入力してください。`;
        throw badRequest(message, { fields: { reason: message } });
      }
      return [await closingRestore({ db, userId: user.user_id, call, user }, period, reason)];
    },
  });
  addCall(calls, 'closing_lst', {
    handler: async ({ params }) => {
      const gp = (params.sime_gp ?? '').trim();
      if (gp && !closingOf(gp, '202501').ok) throw badRequest(MESSAGES.closingBadGroup, { fields: { sime_gp: MESSAGES.closingBadGroup } });
      return closingList(db, gp || undefined);
    },
  });
  addCall(calls, 'closing_late', {
    handler: async ({ params }) => {
      const clientId = positiveId(params.cl_id);
      const date = (params.date ?? '').trim();
      if (!isDay(date)) {
        const message = '日付を YYYY-MM-DD の形で指定してください。';
        throw badRequest(message, { fields: { date: message } });
      }
      const late = await lateEntry(db, clientId, date);
      return late ? [late] : [];
    },
  });
  addCall(calls, 'billing_rate_lst', {
    handler: async ({ params }) => {
      const id = positiveId(params.bl_id);
      const invoice = await db.selectFrom('billing').select('bl_id').where('bl_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
      if (!invoice) throw notFound();
      return db.selectFrom('billing_rate').select(['blr_id', 'blr_bl_id', 'blr_key', 'blr_tax_class', 'blr_rate', 'blr_net', 'blr_tax', 'blr_total'])
        .where('blr_bl_id', '=', id).orderBy('blr_id').execute();
    },
  });
}
