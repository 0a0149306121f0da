/**
 * A job's progress (lib/client/api/use-job.ts): its name, who started it and when, a bar with done / total and the
 * percentage, 「取り消す」 while it runs (for those who may), and once it ended its outcome (`result`: the screen's
 * words for what it did).
 */
import { useCallback } from 'react';
import { useJob, type JobController } from '@/lib/client/api/use-job';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { formatDateTime } from '@/lib/format';
import { JOB_KINDS, jobPercent, jobTitle, type JobInfo, type JobKind } from '@/lib/jobs';
import { type ConfirmOptions, useAlert, useConfirm } from '@/components/ui';
import { buttonClass } from './styles';

const count = (n: number): string => n.toLocaleString('ja-JP');

export function JobProgress({ job, result, onCancel }: { job: JobInfo; result?: string; onCancel?: () => void }) {
  const { label } = JOB_KINDS[job.kind];
  // What it works on too: 「締め処理（2026年11月 20日締め）」.
  const title = jobTitle(job.kind, job.scope);
  const percent = jobPercent(job);
  const started = `${job.user_name}さんが ${formatDateTime(job.started)} に開始`;
  const outcome = {
    running: `${title}を実行中です（${started}）。${job.cancelling ? '取り消しています…' : '画面を閉じても処理は続きます。'}`,
    done: `${title}が終わりました（${started}）。${result ?? ''}`,
    failed: `${title}ができませんでした（${started}）。${job.error}`,
    cancelled: `${title}を取り消しました（${started}）。${job.error}`,
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

/**
 * The 作成 and 取り消し of a screen that runs a job: each asks first (the shared confirm dialog) and shows a
 * refusal (a running job named, a cancel too late) as the screen's alert.
 * @example const confirmed = useConfirmedAction(); await confirmed('…を作成します。', { title: '受注の作成' }, () => job.start('hod_generate', range));
 */
export function useConfirmedAction(): (question: string, options: ConfirmOptions, action: () => Promise<unknown>) => Promise<void> {
  const alert = useAlert();
  const confirm = useConfirm();
  return useCallback(async (question, options, action) => {
    if (!(await confirm(question, options))) return;
    try {
      await action();
    } catch (failure) {
      alert(messageOf(failure) ?? '', 'error');
    }
  }, [alert, confirm]);
}

/**
 * A job a screen starts and follows (lib/client/api/use-job), whose end is told as the screen's alert — its
 * result in words, or why it failed or was cancelled — after which the screen reads its data again. `scope`: only the
 * jobs of one scope (an import kind's).
 * @example const generation = useAnnouncedJob<HodGenerateResult>('hod_generate', resultText, () => mutate());
 */
export function useAnnouncedJob<R>(kind: JobKind, resultText: (result: R) => string, onEnd: () => unknown, scope?: string): JobController<R> {
  const alert = useAlert();
  return useJob<R>(kind, (job) => {
    if (job.state === 'done' && job.result) alert(resultText(job.result), 'success');
    else alert(job.error, job.state === 'cancelled' ? 'info' : 'error');
    void onEnd();
  }, scope);
}
