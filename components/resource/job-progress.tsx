/**
 * A job's progress bar (lib/api/use-job.ts): its name, who started it and when, done / total with the percentage,
 * and 「取り消す」 for those who may.
 */
import { formatDateTime } from '@/lib/format';
import { JOB_KINDS, jobPercent, type JobInfo } from '@/lib/jobs';
import { buttonClass } from './styles';

export function JobProgress({ job, onCancel }: { job: JobInfo; onCancel?: () => void }) {
  const percent = jobPercent(job);
  const label = `${JOB_KINDS[job.kind].label}の進み具合`;
  return (
    <div role="status" aria-label={JOB_KINDS[job.kind].label} className="flex flex-col gap-[6px] rounded-[6px] border border-line bg-white p-[12px] text-[1.4rem]">
      <p className="text-ink">
        {JOB_KINDS[job.kind].label}を実行中です（{job.user_name}さんが {formatDateTime(job.started)} に開始）。
        {job.cancelling ? ' 取り消しています…' : ' 画面を閉じても処理は続きます。'}
      </p>
      <div className="flex items-center gap-[12px]">
        <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}
          aria-valuetext={`${job.done.toLocaleString('ja-JP')} / ${job.total.toLocaleString('ja-JP')}件（${percent}%）`}
          className="h-[12px] flex-1 overflow-hidden rounded-full bg-subtle">
          <div className="h-full bg-brand transition-[width] duration-300" style={{ width: `${percent}%` }} />
        </div>
        <span className="whitespace-nowrap tabular-nums text-ink">
          {job.done.toLocaleString('ja-JP')} / {job.total > 0 ? job.total.toLocaleString('ja-JP') : '—'}件（{percent}%）
        </span>
        {onCancel && (
          <button type="button" className={buttonClass('secondary', 'sm')} disabled={job.cancelling} onClick={onCancel}>取り消す</button>
        )}
      </div>
    </div>
  );
}
