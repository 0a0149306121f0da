/**
 * Watching a job (docs/architecture.md "Jobs") from a screen: the running job of a kind is found when the screen
 * opens (a reload, another tab or another user's run), a call that starts one is followed, and `job_dtl` is read
 * every 500 ms until the job ends; `onEnd` then gets the ended job once (its result or error).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { call } from './fetcher';
import type { JobInfo, JobKind } from '../../jobs';
import type { JobCallName, ParamsOf } from '../../protocol/calls';

const POLL_MS = 500;

export interface JobController<R> {
  /** The job followed (running, or the last one ended on this screen); null before any. */
  job: JobInfo<R> | null;
  running: boolean;
  /** Calls `name` (a call that starts a job of this kind) and follows the job it answers; a refusal is thrown. */
  start(name: JobCallName, params: Record<string, string>): Promise<void>;
  /** Follows a job a call answered (a call that answers a result at once, or a job when it takes longer). */
  follow(jobId: number): void;
  /** Asks the followed job to stop. */
  cancel(): Promise<void>;
}

/**
 * The job controller of a kind (and scope: the jobs of one import kind; null: only the jobs this screen starts or
 * follows, none found running when it opens).
 * @example const { job, running, start } = useJob<HodGenerateResult>('hod_generate', (j) => alert(…)); await start('hod_generate', range)
 */
export function useJob<R>(kind: JobKind, onEnd: (job: JobInfo<R>) => void, scope?: string | null): JobController<R> {
  const [jobId, setJobId] = useState<number | null>(null);
  const ended = useRef(new Set<number>());
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  // A job of this kind already running (started before a reload, in another tab, by someone else) is followed.
  useEffect(() => {
    if (scope === null) return;
    let live = true;
    void call('job_lst', { kind, state: 'running', n: 1, ...(scope === undefined ? {} : { scope }) }).then(([running]) => {
      if (live && running) setJobId((current) => current ?? running.job_id);
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [kind, scope]);

  const { data, mutate } = useSWR(
    jobId === null ? null : ['job_dtl', jobId] as const,
    // The job's result is of the kind's type R (lib/jobs.ts JOB_KINDS), which the call map cannot know.
    ([name, id]) => call(name, { id }) as Promise<JobInfo<R>[]>,
    { refreshInterval: (rows) => (rows?.[0] && rows[0].state !== 'running' ? 0 : POLL_MS), revalidateOnFocus: false, dedupingInterval: 0 },
  );
  const job = data?.[0] ?? null;

  useEffect(() => {
    if (!job || job.state === 'running' || ended.current.has(job.job_id)) return;
    ended.current.add(job.job_id);
    onEndRef.current(job);
  }, [job]);

  const start = useCallback(async (name: JobCallName, params: Record<string, string>) => {
    const [started] = await call(name, params as ParamsOf<JobCallName>);
    setJobId(started.job_id);
  }, []);

  const follow = useCallback((id: number) => setJobId(id), []);

  const cancel = useCallback(async () => {
    if (jobId === null) return;
    await call('job_cancel', { id: jobId });
    await mutate();
  }, [jobId, mutate]);

  return { job: job && job.job_id === jobId ? job : null, running: jobId !== null && (!job || job.job_id !== jobId || job.state === 'running'), start, follow, cancel };
}
