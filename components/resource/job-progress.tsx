/**
 * A job's progress (lib/client/api/use-job.ts): its name, who started it and when, a bar with done / total and the
 * percentage, 「取り消す」 while it runs (for those who may), and once it ended its outcome (`result`: the screen's
 * words for what it did).
 */
import { formatDateTime } from '@/lib/format';
import { JOB_KINDS, jobPercent, type JobInfo } from '@/lib/jobs';
import { buttonClass } from './styles';

const count = (n: number): string => n.toLocaleString('ja-JP');

export function JobProgress({ job, result, onCancel }: { job: JobInfo; result?: string; onCancel?: () => void }) {
  const { label } = JOB_KINDS[job.kind];
  const percent = jobPercent(job);
  const started = `${job.user_name}さんが ${formatDateTime(job.started)} に開始`;
  const outcome = {
    running: `${label}を実行中です（${started}）。${job.cancelling ? '取り消しています…' : '画面を閉じても処理は続きます。'}`,
    done: `${label}が終わりました（${started}）。${result ?? ''}`,
    failed: `${label}ができませんでした（${started}）。${job.error}`,
    cancelled: `${label}を取り消しました（${started}）。${job.error}`,
  }[job.state];
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-[6px] rounded-[6px] border border-line bg-white p-[12px] text-[1.4rem]">
      <p className={job.state === 'failed' ? 'text-danger' : 'text-ink'}>{outcome}</p>
      <div className="flex items-center gap-[12px]">
        <div role="progressbar" aria-label={`${label}の進み具合`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}
          aria-valuetext={`${count(job.done)} / ${count(job.total)}件（${percent}%）`}
          className="h-[12px] flex-1 overflow-hidden rounded-full bg-subtle">
          <div className="h-full bg-brand transition-[width] duration-300" style={{ width: `${percent}%` }} />
        </div>
        <span className="whitespace-nowrap tabular-nums text-ink">
          {count(job.done)} / {job.total > 0 || job.state !== 'running' ? count(job.total) : '—'}件（{percent}%）
        </span>
        {onCancel && job.state === 'running' && (
          <button type="button" className={buttonClass('secondary', 'sm')} disabled={job.cancelling} onClick={onCancel}>取り消す</button>
        )}
      </div>
    </div>
  );
}
