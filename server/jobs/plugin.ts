/**
 * The job calls (server/jobs/jobs.ts): `job_dtl` (id) — one job, how far it is and its result or error;
 * `job_lst` (kind?, state?, n?) — the newest jobs of the kinds the caller may read; `job_cancel` (id) — asks a
 * running job to stop. A job belongs to the area of its kind (lib/jobs.ts `JOB_KINDS`), or of its scope for a kind
 * whose scopes differ (`jobArea`: an import of customers is the 顧客 area's): reading it needs that area's read,
 * cancelling it its write. `job_lst` takes `scope` too (the jobs of one scope, checked against that scope's area).
 */
import type { FastifyInstance } from 'fastify';
import { JOB_KINDS, isJobKind, isJobState, jobArea, type JobInfo, type JobKind } from '../../lib/jobs';
import { can } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import { addCall, type AreaOptions, type SessionUser } from '../calls/call-table';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { pageParam, positiveId } from '../http/params';

const mayReadKind = (user: SessionUser, kind: JobKind, level: 'read' | 'write' = 'read', scope?: string): boolean => can(user.areas, jobArea(kind, scope), level);

/** Registers the job calls. */
export async function jobsPlugin(_app: FastifyInstance, { calls, jobs }: AreaOptions): Promise<void> {
  const readable = async (user: SessionUser, id: string | undefined, level: 'read' | 'write' = 'read'): Promise<JobInfo> => {
    const job = await jobs.find(positiveId(id));
    if (!job) throw notFound();
    if (!mayReadKind(user, job.kind, level, job.scope)) throw new ApiError(403, MESSAGES.forbidden);
    return job;
  };
  addCall(calls, 'job_dtl', {
    handler: async ({ params, user }) => [await readable(user, params.id)],
  });
  addCall(calls, 'job_lst', {
    handler: async ({ params, user }) => {
      const kind = (params.kind ?? '').trim();
      const state = (params.state ?? '').trim();
      if (kind && !isJobKind(kind)) throw badRequest(MESSAGES.jobBadKind, { fields: { kind: MESSAGES.jobBadKind } });
      if (state && !isJobState(state)) throw badRequest(MESSAGES.jobBadState, { fields: { state: MESSAGES.jobBadState } });
      const scope = params.scope === undefined ? undefined : params.scope.trim();
      if (kind && !mayReadKind(user, kind as JobKind, 'read', scope)) throw new ApiError(403, MESSAGES.forbidden);
      const kinds = kind ? [kind as JobKind] : (Object.keys(JOB_KINDS) as JobKind[]).filter((k) => mayReadKind(user, k, 'read', scope));
      const limit = pageParam(params.n, 20, 100, MESSAGES.badPageSize);
      return jobs.list({ kinds, state: state && isJobState(state) ? state : undefined, scope, limit });
    },
  });
  addCall(calls, 'job_cancel', {
    handler: async ({ params, user }) => {
      const job = await readable(user, params.id, 'write');
      if (!(await jobs.cancel(job.job_id))) throw badRequest(MESSAGES.jobNotRunning);
      return [(await jobs.find(job.job_id))!];
    },
  });
}
