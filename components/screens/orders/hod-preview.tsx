/**
 * 定期配送の受注生成 (/orders/hod): a date range, the regular deliveries the customers' schedules make
 * due in it (`hod_preview`: moved off Sundays and holidays, skipped for pauses), counts, the rows page by
 * page, and 「受注を作成」 (`hod_generate`, order write): their orders in one step, none twice — a job whose progress
 * bar shows here (lib/api/use-job.ts), also after a reload or on another screen, until its result.
 */
import clsx from 'clsx';
import { useState } from 'react';
import { addDays, formatDateJa, todayJst } from '@/lib/format';
import type { HodGenerateResult } from '@/lib/hod/kinds';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { detailPathOf } from '@/lib/list/resource-paths';
import { COMING_PRESETS, HOD_PERIOD, periodProblem } from '@/lib/period';
import { clientResource } from '@/lib/resources/client';
import { JobProgress, useAnnouncedJob, useConfirmedAction } from '@/components/resource/job-progress';
import { PreviewPager } from '@/components/resource/pagination';
import { AppLink, useLoadingWhile } from '@/components/resource/shell-bridge';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { buttonClass } from '@/components/resource/styles';
import { QueryForm, WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useHodPreview } from '@/lib/client/data/delivery';
import { useCanCall } from '@/lib/client/auth/use-can-call';

const PAGE_SIZE = 100;

const resultText = (done: HodGenerateResult): string =>
  `受注を作成しました（${formatDateJa(done.from)}〜${formatDateJa(done.to)}・作成 ${done.created}件・うち保留 ${done.held}件・作成済み ${done.existed}件）。`;

export default function HodPreviewScreen({ match }: ScreenProps) {
  const [draft, setDraft] = useState(() => ({ from: todayJst(), to: addDays(todayJst(), 6) }));
  const [range, setRange] = useState(draft);
  const [page, setPage] = useState(1);
  const query = { ...range, n: PAGE_SIZE, p: page };
  // The preview is computed from the schedules as they are now (a skip entered a moment ago counts):
  // every showing asks the server again.
  const { data, error, isLoading, mutate } = useHodPreview(query);
  const answer = data?.[0];
  const pages = answer ? Math.max(1, Math.ceil(answer.total / PAGE_SIZE)) : 1;
  const canGenerate = useCanCall('hod_generate');
  const confirmed = useConfirmedAction();
  const generation = useAnnouncedJob<HodGenerateResult>('hod_generate', resultText, () => mutate());
  const generating = generation.running;
  useLoadingWhile(isLoading);

  const generate = async () => {
    if (!answer) return;
    const question = `${formatDateJa(range.from)}〜${formatDateJa(range.to)}の定期配送 ${answer.deliveries.toLocaleString('ja-JP')}件の受注を作成します。作成済みの配送は作成しません。`;
    await confirmed(question, { title: '受注の作成', confirmLabel: '受注を作成', danger: false }, () => generation.start('hod_generate', range));
  };
  const cancel = () => confirmed('受注の作成を取り消します。作成中の受注は1件も残りません。', { title: '受注作成の取り消し', confirmLabel: '取り消す', danger: true }, () => generation.cancel());


  return (
    <WorkScreen id="hod-preview-title" title={match.route.title} intro="期間内に予定日がある定期配送です。日曜・祝日は顧客の設定どおり前後の営業日へ移すかスキップし、休止期間・スキップの日は配送しません。">
      <QueryForm
        onSubmit={() => {
        if (periodProblem(draft, HOD_PERIOD)) return;
        setPage(1);
        setRange(draft);
        if (draft.from === range.from && draft.to === range.to && page === 1) void mutate();
        }}
      >
        <DateRangePicker label="期間" fromLabel="開始日" toLabel="終了日" value={draft} onChange={setDraft} presets={COMING_PRESETS} rules={HOD_PERIOD} />
        <button type="submit" className={buttonClass('primary')}>表示</button>
        {canGenerate && (
          <button type="button" className={buttonClass('secondary')} disabled={!answer || generating || answer.deliveries === 0} onClick={() => void generate()}>
            受注を作成
          </button>
        )}
      </QueryForm>
      {generation.job && (
        <JobProgress job={generation.job} result={generation.job.result ? resultText(generation.job.result) : undefined} onCancel={canGenerate ? () => void cancel() : undefined} />
      )}
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      {answer && (
        <>
          <dl aria-label="集計" className="flex flex-wrap gap-x-[24px] gap-y-[4px] text-[1.4rem]">
            {([
              ['期間', `${formatDateJa(answer.from)}〜${formatDateJa(answer.to)}`],
              ['定期配送の顧客', `${answer.customers.toLocaleString('ja-JP')}件`],
              ['配送', `${answer.deliveries.toLocaleString('ja-JP')}件`],
              ['うち日曜・祝日で移動', `${answer.moved.toLocaleString('ja-JP')}件`],
              ['スキップ', `${answer.skipped.toLocaleString('ja-JP')}件`],
              ['本数', `${answer.bottles.toLocaleString('ja-JP')}本`],
            ] as const).map(([label, value]) => (
              <div key={label} className="flex gap-[6px]">
                <dt className="text-ink-soft">{label}</dt>
                <dd className="font-medium text-ink">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
            <table className="w-full border-collapse text-[1.4rem]" aria-busy={isLoading || undefined}>
              <caption className="visually-hidden">定期配送の予定</caption>
              <thead className="bg-subtle text-ink-soft">
                <tr className="h-[36px]">
                  {['配送日', '予定日', '顧客', '本数', '状態', '備考', '次回配送日'].map((label) => (
                    <th key={label} scope="col" className="whitespace-nowrap border-b border-line px-[10px] text-left font-medium">{label}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {answer.rows.length === 0 && (
                  <tr><td colSpan={7} className="px-[10px] py-[12px] text-ink-soft">この期間に予定の定期配送はありません。</td></tr>
                )}
                {answer.rows.map((row) => (
                  <tr key={`${row.cl_id}-${row.original_date}`} className={clsx('h-row border-b border-line last:border-b-0', row.status === 'skip' && 'text-ink-soft')}>
                    <td className="whitespace-nowrap px-[10px]">{row.date ? formatDateJa(row.date) : '—'}</td>
                    <td className="whitespace-nowrap px-[10px]">{formatDateJa(row.original_date)}</td>
                    <th scope="row" className="px-[10px] text-left font-medium">
                      <AppLink to={detailPathOf(clientResource, row.cl_id)} className="text-brand underline-offset-2 hover:underline">{row.cl_label || `顧客 ${row.cl_id}`}</AppLink>
                    </th>
                    <td className="px-[10px] text-right tabular-nums">{row.quantity}</td>
                    <td className="whitespace-nowrap px-[10px]">{row.status === 'skip' ? 'スキップ' : '配送'}</td>
                    <td className="px-[10px]">{row.note}</td>
                    <td className="whitespace-nowrap px-[10px]">{formatDateJa(row.next_shipping_date)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <PreviewPager page={page} pages={pages} total={answer.total} onPage={setPage} />
        </>
      )}
    </WorkScreen>
  );
}
