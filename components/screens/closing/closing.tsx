/**
 * 締め処理 (/closing): a closing day group (5・10・15・20・25日・末日締め) and a month (sent as YYYYMM), 「仮締め」 —
 * every billing customer's invoice as the closing would write it (`closing_preview`: 前回請求額, 入金額, 繰越額, 今回売上額,
 * 消費税 per rate, 今回請求額, a totals row; a row unfolds to its slips and payments, `closing_preview_items`, each a link)
 * — what to look at first (`closing_warnings`: the date not come, unprocessed orders, rentals not made, payments not
 * 消込, each linking to its list) and 「締切」 (`closing_run`, a job with its progress bar, also after a reload) after a
 * confirm (naming the date and sending `early=1` before the closing date). Once closed (just now, or a month closed
 * before and asked again): the invoice list of that month
 * and group, the invoices' PDFs as one file or a ZIP (`billing_pdf_batch`, a job, then `billing_pdf_batch_file`), and
 * the invoices mailed at once (./closing-mail.tsx).
 */
import clsx from 'clsx';
import { Fragment, useState } from 'react';
import { download } from '@/lib/client/api/fetcher';
import { addMonths } from '@/lib/day';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { formatDateJa, formatMoney, todayJst } from '@/lib/format';
import type { JobInfo } from '@/lib/jobs';
import { detailPathOf, filteredListPathOf } from '@/lib/list/resource-paths';
import { MESSAGES } from '@/lib/protocol';
import { billingResource } from '@/lib/resources/billing';
import { clientResource } from '@/lib/resources/client';
import { CLOSING_DAY } from '@/lib/resources/options';
import { PAYMENT_KIND, paymentResource } from '@/lib/resources/payment';
import { salesResource } from '@/lib/resources/sales';
import { LATE_MARK, taxedKeys, type ClosingPreview, type ClosingPreviewRow, type ClosingRunResult, type ClosingWarning } from '@/lib/closing/answers';
import { closingLabel as closingName } from '@/lib/closing/period';
import { rentalMonth } from '@/lib/sales/rental';
import { optionText } from '@/components/resource/cells';
import { cellClass, DataTable, headCellClass, numberCellClass } from '@/components/resource/data-table';
import { JobProgress, useAnnouncedJob, useConfirmedAction } from '@/components/resource/job-progress';
import { AppLink, useAlert, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import { ClosingMail } from './closing-mail';
import { QueryForm, WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useClosingItems, useClosingPreview, useClosings, useClosingWarnings } from '@/lib/client/data/closing';
import { useCanCall } from '@/lib/client/auth/use-can-call';
import { cellText } from '../../../lib/resources/checks';

/** What is asked: a group and a month (YYYYMM). */
interface Closing {
  gp: string;
  ym: string;
}

const linkClass = 'text-brand underline-offset-2 hover:underline';

/** The month before today's (a closing is usually run after its month ends), as YYYY-MM. */
function lastMonth(): string {
  return addMonths(todayJst(), -1).slice(0, 7);
}

const closingLabel = ({ gp, ym }: Closing): string => closingName(gp, ym);

const runResultText = (done: ClosingRunResult): string =>
  `請求書を${done.invoices.toLocaleString('ja-JP')}件発行しました（今回請求額の合計 ${formatMoney(done.total)}）。`;

/** The closing a job ran: from its parameters (a job found after a reload has no screen state). */
function closingOfJob(job: JobInfo | null): Closing | undefined {
  const gp = cellText(job?.params.sime_gp ?? '');
  const ym = cellText(job?.params.sime_ym ?? '');
  return gp && rentalMonth(ym) ? { gp, ym } : undefined;
}

const taxOf = (row: { rates: ClosingPreviewRow['rates'] }, key: string): number => row.rates.filter((r) => r.key === key).reduce((sum, r) => sum + r.tax, 0);

/** A slip or payment dated before the period, entered after the previous closing (issue 19). */
const LateMark = () => <span className="ml-[6px] text-[1.2rem] font-bold text-warning">{LATE_MARK}</span>;

/** The slips and payments behind one customer's invoice. */
function PreviewItems({ closing, clientId }: { closing: Closing; clientId: number }) {
  const { data, error, isLoading } = useClosingItems({ sime_gp: closing.gp, sime_ym: closing.ym, cl_id: clientId });
  const items = data?.[0];
  if (error) return <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>;
  if (isLoading || !items) return <p className="text-[1.4rem] text-ink-soft">明細を読み込んでいます…</p>;
  return (
    <div className="grid gap-[12px] lg:grid-cols-2">
      <div className="flex flex-col gap-[4px]">
        <h3 className="text-[1.4rem] font-bold text-ink">売上伝票（{items.slips.length}件）</h3>
        <DataTable caption="売上伝票" headers={[['伝票番号'], ['売上日'], ['顧客'], ['税抜', true], ['消費税', true], ['合計', true]]} empty={items.slips.length === 0 && 'この期間の売上伝票はありません。'}>
          {items.slips.map((s) => (
            <tr key={s.sl_id} className="h-row">
              <td className={cellClass}><AppLink to={detailPathOf(salesResource, s.sl_id)} className={linkClass}>{s.number}</AppLink></td>
              <td className={clsx(cellClass, 'tabular-nums')}>{s.date}{s.late && <LateMark />}</td>
              <td className={cellClass}>{s.client_name}</td>
              <td className={numberCellClass}>{formatMoney(s.net)}</td>
              <td className={numberCellClass}>{formatMoney(s.tax)}</td>
              <td className={numberCellClass}>{formatMoney(s.total)}</td>
            </tr>
          ))}
        </DataTable>
      </div>
      <div className="flex flex-col gap-[4px]">
        <h3 className="text-[1.4rem] font-bold text-ink">入金伝票（{items.payments.length}件）</h3>
        <DataTable caption="入金伝票" headers={[['入金日'], ['入金区分'], ['金額', true]]} empty={items.payments.length === 0 && 'この期間の入金伝票はありません。'}>
          {items.payments.map((p) => (
            <tr key={p.py_id} className="h-row">
              <td className={clsx(cellClass, 'tabular-nums')}><AppLink to={detailPathOf(paymentResource, p.py_id)} className={linkClass}>{p.date}</AppLink>{p.late && <LateMark />}</td>
              <td className={cellClass}>{optionText(PAYMENT_KIND, p.kind)}</td>
              <td className={numberCellClass}>{formatMoney(p.amount)}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </div>
  );
}

/** The preview table: one row per billing customer, 消費税 per taxed rate, the totals row; a row unfolds to its items. */
function PreviewTable({ preview, closing }: { preview: ClosingPreview; closing: Closing }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const keys = taxedKeys(preview.rows);
  const headers = ['顧客', '対象期間', '前回請求額', '入金額', '繰越額', '今回売上額（税抜）', ...keys.map((k) => `消費税 ${k}%`), '今回請求額', '明細'];
  const toggle = (id: number) => setOpen((s) => {
    const next = new Set(s);
    if (!next.delete(id)) next.add(id);
    return next;
  });
  const money = (row: Omit<ClosingPreview['totals'], 'invoices'>) => [row.prev_total, row.paid, row.carry, row.sales_net];
  return (
    <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
      <table className="w-full border-collapse text-[1.4rem]">
        <caption className="visually-hidden">仮締めの請求内容</caption>
        <thead>
          <tr>
            {headers.map((label, i) => (
              <th key={label} scope="col" className={clsx(headCellClass, i >= 2 && i < headers.length - 1 && 'text-right')}>{label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.length === 0 && (
            <tr><td colSpan={headers.length} className="h-[60px] text-center text-muted">この締日・月に請求書を発行する顧客はありません。</td></tr>
          )}
          {preview.rows.map((row) => (
            <Fragment key={row.cl_id}>
              <tr className="h-row">
                <th scope="row" className={clsx(cellClass, 'text-left font-medium')}>
                  <AppLink to={detailPathOf(clientResource, row.cl_id)} className={linkClass}>{row.name || `顧客 ${row.cl_id}`}</AppLink>
                </th>
                <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{row.period_from}〜{row.period_to}</td>
                {money(row).map((value, i) => <td key={i} className={numberCellClass}>{formatMoney(value)}</td>)}
                {keys.map((k) => <td key={k} className={numberCellClass}>{formatMoney(taxOf(row, k))}</td>)}
                <td className={clsx(numberCellClass, 'font-semibold')}>{formatMoney(row.total)}</td>
                <td className={cellClass}>
                  <button type="button" className={buttonClass('secondary', 'sm')} aria-expanded={open.has(row.cl_id)} aria-controls={`closing-items-${row.cl_id}`}
                    aria-label={`${row.name || `顧客 ${row.cl_id}`}の明細`} onClick={() => toggle(row.cl_id)}>
                    {open.has(row.cl_id) ? '閉じる' : '明細'}
                  </button>
                </td>
              </tr>
              {open.has(row.cl_id) && (
                <tr id={`closing-items-${row.cl_id}`}>
                  <td colSpan={headers.length} className={clsx(cellClass, 'bg-subtle')}>
                    <PreviewItems closing={closing} clientId={row.cl_id} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
        {preview.rows.length > 0 && (
          <tfoot>
            <tr className="h-row bg-subtle font-semibold">
              <th scope="row" colSpan={2} className={clsx(cellClass, 'text-left')}>合計（{preview.rows.length.toLocaleString('ja-JP')}件）</th>
              {money(preview.totals).map((value, i) => <td key={i} className={numberCellClass}>{formatMoney(value)}</td>)}
              {keys.map((k) => <td key={k} className={numberCellClass}>{formatMoney(preview.rows.reduce((sum, r) => sum + taxOf(r, k), 0))}</td>)}
              <td className={numberCellClass}>{formatMoney(preview.totals.total)}</td>
              <td className={cellClass} />
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** What to look at before 締切 (`closing_warnings`): each warning with its count and a link to the rows it means. */
function Warnings({ warnings }: { warnings: readonly ClosingWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <section aria-labelledby="closing-warnings-title" className="flex flex-col gap-[6px] rounded-[6px] border border-warning/40 bg-warning-soft px-[16px] py-[10px]">
      <h2 id="closing-warnings-title" className="text-[1.5rem] font-bold text-ink">締切の前に確認してください（{warnings.length}件）</h2>
      <ul className="flex flex-col gap-[4px] text-[1.4rem]">
        {warnings.map((w) => (
          <li key={w.kind} data-kind={w.kind}>
            {w.message}
            {w.link && <> <AppLink to={w.link} className={linkClass}>一覧を開く（{w.count.toLocaleString('ja-JP')}件）</AppLink></>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** After the closing: its invoice list and the PDFs of all its invoices (a job, then one PDF or a ZIP). */
function AfterClosing({ closing, canWrite }: { closing: Closing; canWrite: boolean }) {
  const confirmed = useConfirmedAction();
  const batch = useAnnouncedJob<{ invoices?: number }>('billing_pdf_batch', (r) => `請求書PDFを作成しました${r.invoices !== undefined ? `（${r.invoices.toLocaleString('ja-JP')}件）` : ''}。`, () => undefined);
  const [downloading, setDownloading] = useState(false);
  const alert = useAlert();
  const listPath = filteredListPathOf(billingResource, { sime_ym: closing.ym, sime_gp: [closing.gp] });
  const batchClosing = closingOfJob(batch.job);
  const ready = batch.job?.state === 'done' && batchClosing?.gp === closing.gp && batchClosing.ym === closing.ym;
  const fetchFile = async (format: 'pdf' | 'zip') => {
    if (!batch.job) return;
    setDownloading(true);
    try {
      await download('billing_pdf_batch_file', { job_id: batch.job.job_id, format });
    } catch (failure) {
      alert(messageOf(failure) ?? '', 'error');
    } finally {
      setDownloading(false);
    }
  };
  return (
    <section aria-labelledby="after-closing-title" className="flex flex-col gap-[8px] rounded-[6px] border border-line bg-surface px-[16px] py-[10px]">
      <h2 id="after-closing-title" className="text-[1.6rem] font-bold text-ink">{closingLabel(closing)}の請求書</h2>
      <div className="flex flex-wrap items-center gap-[12px]">
        {listPath && <AppLink to={listPath} className={buttonClass('secondary')}>請求一覧を開く</AppLink>}
        {canWrite && (
          <button type="button" className={buttonClass('secondary')} disabled={batch.running}
            onClick={() => void confirmed(`${closingLabel(closing)}の請求書PDFをまとめて作成します。`, { title: '請求書PDFの一括作成', confirmLabel: '作成', danger: false },
              () => batch.start('billing_pdf_batch', { sime_gp: closing.gp, sime_ym: closing.ym }))}>
            請求書PDFを一括作成
          </button>
        )}
        {ready && (
          <>
            <button type="button" className={buttonClass('primary')} disabled={downloading} onClick={() => void fetchFile('pdf')}>PDF（1ファイル）をダウンロード</button>
            <button type="button" className={buttonClass('secondary')} disabled={downloading} onClick={() => void fetchFile('zip')}>ZIP（顧客ごと）をダウンロード</button>
          </>
        )}
      </div>
      {batch.job && <JobProgress job={batch.job} />}
      <ClosingMail gp={closing.gp} ym={closing.ym} canWrite={canWrite} />
    </section>
  );
}

export default function ClosingScreen({ match }: ScreenProps) {
  const [gp, setGp] = useState('31');
  const [draft, setDraft] = useState(lastMonth);
  const [asked, setAsked] = useState<Closing | null>(null);
  // Slips and payments change under the screen: every 仮締め asks the server again.
  const { data, error, isLoading, mutate } = useClosingPreview(asked ? { sime_gp: asked.gp, sime_ym: asked.ym } : null);
  const preview = data?.[0];
  const warnings = useClosingWarnings(asked ? { sime_gp: asked.gp, sime_ym: asked.ym } : null);
  const canWrite = useCanCall('closing_run');
  const confirmed = useConfirmedAction();
  // Once the closing has ended its preview is history (a closed month previews no more): 仮締め asks again when wanted.
  const run = useAnnouncedJob<ClosingRunResult>('closing_run', runResultText, () => setAsked(null));
  const draftProblem = rentalMonth(draft.replace('-', '')) ? undefined : MESSAGES.rentalBadMonth;
  const ran = run.job?.state === 'done' ? closingOfJob(run.job) : undefined;
  // A month closed before (today or months ago) answers no preview: its invoices, their PDFs and mail are offered instead.
  const closings = useClosings(asked ? { sime_gp: asked.gp } : null);
  const closedBefore = asked && !ran && closings.data?.some((c) => c.sime_ym === asked.ym) ? asked : undefined;
  const after = ran ?? closedBefore;
  useLoadingWhile(isLoading);


  const close = async () => {
    if (!preview || !asked) return;
    // Before its day the server refuses unless told (`early=1`): the question says so, naming the date.
    const early = preview.closing_date > todayJst();
    const question = `${early ? `締め日（${formatDateJa(preview.closing_date)}）はまだ来ていません。締め日前ですが、` : ''}${closingLabel(asked)}（締め日 ${formatDateJa(preview.closing_date)}）の締切を行います。請求書 ${preview.rows.length.toLocaleString('ja-JP')}件（今回請求額の合計 ${formatMoney(preview.totals.total)}）を発行し、対象期間の売上伝票と入金伝票は変更できなくなります。`;
    await confirmed(question, { title: early ? '締め日前の締切' : '締切', confirmLabel: '締切を実行', danger: true },
      () => run.start('closing_run', { sime_gp: asked.gp, sime_ym: asked.ym, ...(early ? { early: '1' } : {}) }));
  };
  const cancel = () => confirmed('締め処理を取り消します。作成中の請求書は1件も残りません。', { title: '締め処理の取り消し', confirmLabel: '取り消す', danger: true }, () => run.cancel());

  return (
    <WorkScreen id="closing-title" title={match.route.title} intro="締日と月を選んで「仮締め」で請求内容を確認し、「締切」で請求書を発行します。請求先ごと（納品先の売上・入金は請求親顧客へ）に、前回請求額 − 入金額 = 繰越額、繰越額 + 今回売上額 + 消費税 = 今回請求額です。">
      <QueryForm
        onSubmit={() => {
        if (draftProblem) return;
        const next = { gp, ym: draft.replace('-', '') };
        if (asked && next.gp === asked.gp && next.ym === asked.ym) void Promise.all([mutate(), warnings.mutate(), closings.mutate()]);
        else setAsked(next);
        }}
      >
        <label className="flex flex-col gap-[4px] text-[1.3rem]">
          締日
          <select value={gp} onChange={(e) => setGp(e.target.value)} className={inputClass}>
            {CLOSING_DAY.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-[4px] text-[1.3rem]">
          締め年月
          <input type="month" value={draft} onChange={(e) => setDraft(e.target.value)} className={inputClass} aria-invalid={draftProblem ? true : undefined} aria-describedby={draftProblem ? 'closing-month-problem' : undefined} />
        </label>
        <button type="submit" className={buttonClass('primary')}>仮締め</button>
        {canWrite && (
          <button type="button" className={buttonClass('danger')} disabled={!preview || !asked || preview.rows.length === 0 || run.running} onClick={() => void close()}>
            締切
          </button>
        )}
      </QueryForm>
      {draftProblem && <p id="closing-month-problem" className="text-[1.3rem] text-danger">{draftProblem}</p>}
      {preview && asked && warnings.data && <Warnings warnings={warnings.data} />}
      {run.job && (
        <JobProgress job={run.job} result={run.job.result ? runResultText(run.job.result) : undefined} onCancel={canWrite ? () => void cancel() : undefined} />
      )}
      {after && <AfterClosing closing={after} canWrite={canWrite} />}
      {error && !closedBefore && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      {preview && asked && (
        <>
          <dl aria-label="仮締めの集計" className="flex flex-wrap gap-x-[24px] gap-y-[4px] text-[1.4rem]">
            {([
              ['締め', closingLabel(asked)],
              ['締め日', formatDateJa(preview.closing_date)],
              ['請求書', `${preview.rows.length.toLocaleString('ja-JP')}件`],
              ['今回売上額（税抜）', formatMoney(preview.totals.sales_net)],
              ['消費税', formatMoney(preview.totals.tax_total)],
              ['今回請求額', formatMoney(preview.totals.total)],
            ] as const).map(([label, value]) => (
              <div key={label} className="flex gap-[6px]">
                <dt className="text-ink-soft">{label}</dt>
                <dd className="font-medium tabular-nums text-ink">{value}</dd>
              </div>
            ))}
          </dl>
          <PreviewTable preview={preview} closing={asked} />
        </>
      )}
    </WorkScreen>
  );
}
