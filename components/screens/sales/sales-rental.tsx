/**
 * 月次サーバーレンタル (/sales/rental, `?ym=YYYYMM` opens that month): a month, the rental charges of the live agreements and installed servers
 * (`rental_preview`: customer, agreement, server, days, tax-exclusive amount, pro-rata for a start, installation or cancel
 * inside the month), and 「売上を作成」 (`rental_generate`, sales write): one 区分 レンタル slip per agreement, none twice —
 * a job whose progress bar shows here (lib/client/api/use-job.ts), also after a reload, until its result.
 */
import clsx from 'clsx';
import { useState } from 'react';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { useRoute } from '@/lib/client/router/hooks';
import { formatDateJa, formatMoney, monthLabel, todayJst } from '@/lib/format';
import { detailPathOf } from '@/lib/list/resource-paths';
import { MESSAGES } from '@/lib/protocol';
import { clientResource } from '@/lib/resources/client';
import { rentalMonth, type RentalGenerateResult } from '@/lib/sales/rental';
import { JobProgress, useAnnouncedJob, useConfirmedAction } from '@/components/resource/job-progress';
import { PreviewPager } from '@/components/resource/pagination';
import { AppLink, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import { QueryForm, WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useRentalPreview } from '@/lib/client/data/delivery';
import { useCanCall } from '@/lib/client/auth/use-can-call';

const PAGE_SIZE = 100;

const resultText = (done: RentalGenerateResult): string =>
  `レンタルの売上伝票を作成しました（${monthLabel(done.ym)}・作成 ${done.created}件・作成済み ${done.existed}件・税抜 ${formatMoney(done.amount)}）。`;

export default function SalesRentalScreen({ match }: ScreenProps) {
  // A link may name the month (`?ym=YYYYMM`, the closing screen's warning); else this month.
  const linked = rentalMonth(useRoute().query.get('ym') ?? '');
  const [draft, setDraft] = useState(() => (linked ? `${linked.ym.slice(0, 4)}-${linked.ym.slice(4)}` : todayJst().slice(0, 7)));
  const [ym, setYm] = useState(() => draft.replace('-', ''));
  const [page, setPage] = useState(1);
  const month = rentalMonth(ym);
  const query = month ? { ym, n: PAGE_SIZE, p: page } : null;
  // Agreements and servers change under the screen: every showing asks the server again.
  const { data, error, isLoading, mutate } = useRentalPreview(query);
  const answer = data?.[0];
  const pages = answer ? Math.max(1, Math.ceil(answer.total / PAGE_SIZE)) : 1;
  const canGenerate = useCanCall('rental_generate');
  const confirmed = useConfirmedAction();
  const generation = useAnnouncedJob<RentalGenerateResult>('rental_generate', resultText, () => mutate());
  const draftProblem = rentalMonth(draft.replace('-', '')) ? undefined : MESSAGES.rentalBadMonth;
  useLoadingWhile(isLoading);

  const generate = async () => {
    if (!answer) return;
    const question = `${monthLabel(answer.ym)}分のサーバーレンタル ${answer.slips.toLocaleString('ja-JP')}件（税抜 ${formatMoney(answer.amount)}）の売上伝票を作成します。作成済みの契約は作成しません。`;
    await confirmed(question, { title: 'レンタル売上の作成', confirmLabel: '売上を作成', danger: false }, () => generation.start('rental_generate', { ym: answer.ym }));
  };
  const cancel = () => confirmed('売上の作成を取り消します。作成中の伝票は1件も残りません。', { title: '売上作成の取り消し', confirmLabel: '取り消す', danger: true }, () => generation.cancel());


  return (
    <WorkScreen id="sales-rental-title" title={match.route.title} intro="契約中・休止中の契約と、その月に解約した契約のレンタル料です。顧客に設置中で月額レンタル料のあるサーバーは1台ずつ、ないときは契約の月額です。月の途中の開始・設置・解約は日割り（顧客の金額端数処理）です。">
      <QueryForm
        onSubmit={() => {
        if (draftProblem) return;
        const next = draft.replace('-', '');
        setPage(1);
        setYm(next);
        if (next === ym && page === 1) void mutate();
        }}
      >
        <label className="flex flex-col gap-[4px] text-[1.3rem]">
          対象月
          <input type="month" value={draft} onChange={(e) => setDraft(e.target.value)} className={inputClass} aria-invalid={draftProblem ? true : undefined} aria-describedby={draftProblem ? 'rental-month-problem' : undefined} />
        </label>
        <button type="submit" className={buttonClass('primary')}>表示</button>
        {canGenerate && (
          <button type="button" className={buttonClass('secondary')} disabled={!answer || generation.running || answer.slips === 0} onClick={() => void generate()}>
            売上を作成
          </button>
        )}
      </QueryForm>
      {draftProblem && <p id="rental-month-problem" className="text-[1.3rem] text-danger">{draftProblem}</p>}
      {generation.job && (
        <JobProgress job={generation.job} result={generation.job.result ? resultText(generation.job.result) : undefined} onCancel={canGenerate ? () => void cancel() : undefined} />
      )}
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      {answer && (
        <>
          <dl aria-label="集計" className="flex flex-wrap gap-x-[24px] gap-y-[4px] text-[1.4rem]">
            {([
              ['対象月', `${monthLabel(answer.ym)}（${formatDateJa(answer.from)}〜${formatDateJa(answer.to)}）`],
              ['契約', `${answer.agreements.toLocaleString('ja-JP')}件`],
              ['作成する伝票', `${answer.slips.toLocaleString('ja-JP')}件`],
              ['作成済み', `${answer.existed.toLocaleString('ja-JP')}件`],
              ['作成する金額（税抜）', formatMoney(answer.amount)],
            ] as const).map(([label, value]) => (
              <div key={label} className="flex gap-[6px]">
                <dt className="text-ink-soft">{label}</dt>
                <dd className="font-medium text-ink">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
            <table className="w-full border-collapse text-[1.4rem]" aria-busy={isLoading || undefined}>
              <caption className="visually-hidden">レンタル料の明細</caption>
              <thead className="bg-subtle text-ink-soft">
                <tr className="h-[36px]">
                  {['顧客', '契約番号', 'サーバー', '期間', '日数', '月額（税抜）', '金額（税抜）', '状態'].map((label) => (
                    <th key={label} scope="col" className="whitespace-nowrap border-b border-line px-[10px] text-left font-medium">{label}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {answer.rows.length === 0 && (
                  <tr><td colSpan={8} className="px-[10px] py-[12px] text-ink-soft">この月に請求するレンタル料はありません。</td></tr>
                )}
                {answer.rows.map((row) => (
                  <tr key={`${row.ag_id}-${row.server}`} className={clsx('h-row border-b border-line last:border-b-0', row.existed && 'text-ink-soft')}>
                    <th scope="row" className="px-[10px] text-left font-medium">
                      <AppLink to={detailPathOf(clientResource, row.cl_id)} className="text-brand underline-offset-2 hover:underline">{row.cl_label || `顧客 ${row.cl_id}`}</AppLink>
                    </th>
                    <td className="whitespace-nowrap px-[10px]">{row.agreement_no}</td>
                    <td className="whitespace-nowrap px-[10px]">{row.server || '（契約の月額）'}</td>
                    <td className="whitespace-nowrap px-[10px]">{formatDateJa(row.from)}〜{formatDateJa(row.to)}</td>
                    <td className="whitespace-nowrap px-[10px] text-right tabular-nums">{row.days}/{row.month_days}日</td>
                    <td className="px-[10px] text-right tabular-nums">{formatMoney(row.fee)}</td>
                    <td className="px-[10px] text-right tabular-nums">{formatMoney(row.amount)}</td>
                    <td className="whitespace-nowrap px-[10px]">{row.existed ? '作成済み' : '未作成'}</td>
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
