/**
 * 「正確に数える」 beside a total shown as 「10,000件以上」 (a filtered list past `LIMITS.countCap`): `count_exact`
 * answers the exact figure, or — when counting takes longer than a second — a job, whose progress is shown until it
 * ends with the figure (lib/client/api/use-job.ts). The figure goes to the list (`onCount`), which then shows it.
 */
import { useState } from 'react';
import { call } from '@/lib/client/api/fetcher';
import { useJob } from '@/lib/client/api/use-job';
import { messageOf } from '@/lib/client/list/use-list-controller';
import type { ListParams, ResourceName } from '@/lib/protocol/calls';
import { JobProgress } from './job-progress';
import { buttonClass } from './styles';

export function ExactCount({ resource, query, onCount }: { resource: ResourceName; query: ListParams; onCount: (count: number) => void }) {
  const [problem, setProblem] = useState('');
  const [asking, setAsking] = useState(false);
  // Only the count this list starts (scope null): another list's count running is not this one's.
  const job = useJob<{ count: number }>('count_exact', (ended) => {
    if (ended.state === 'done' && ended.result) onCount(ended.result.count);
    else setProblem(ended.error);
  }, null);
  const run = async () => {
    setProblem('');
    setAsking(true);
    try {
      const [answer] = await call('count_exact', { ...query, resource });
      if ('count' in answer) onCount(answer.count);
      else job.follow(answer.job_id);
    } catch (error) {
      setProblem(messageOf(error) ?? '');
    } finally {
      setAsking(false);
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-[8px]">
      <button type="button" className={buttonClass('secondary', 'sm')} disabled={asking || job.running} onClick={() => void run()}>
        正確に数える
      </button>
      {asking && <span role="status" className="text-muted">数えています…</span>}
      {job.job?.state === 'running' && <JobProgress job={job.job} onCancel={() => void job.cancel()} />}
      {problem && <span role="alert" className="text-danger">{problem}</span>}
    </span>
  );
}
