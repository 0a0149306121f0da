/**
 * 売上レポート (/salesreport): two tabs. 「売上集計」 — a period (at most a year), a grouping (月・顧客・商品・担当者・チーム・税率)
 * and optional customer, staff and item filters; `salesreport`'s table (税抜・消費税・税込・数量, the year before's 税抜,
 * the difference and the ratio) whose rows link to the sales list showing exactly their slips, the chart of the months
 * (stacked by tax bucket or by the group; Chart.js loaded on this screen only) and the CSV. 「売掛金年齢表」 — `aging_lst`
 * as of a day: per billing customer (linked to the customer) the unbilled slips and the open invoices by days past due,
 * sortable by any column. The logic is lib/client/sales/use-sales-report.ts.
 */
import clsx from 'clsx';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { useAgingList, useSalesReport } from '@/lib/client/sales/use-sales-report';
import { readStored, writeStored } from '@/lib/client/state/storage';
import { formatDateJa, formatMoney } from '@/lib/format';
import { detailPathOf } from '@/lib/list/resource-paths';
import { PAST_PRESETS } from '@/lib/period';
import type { CsvEncoding } from '@/lib/protocol';
import { clientResource } from '@/lib/resources/client';
import type { FieldDef } from '@/lib/resources/types';
import { AGING_COLUMNS, groupHeading, REPORT_GROUPS, SALES_REPORT_PERIOD, yoyChange, type AgingSort, type ReportGroup, type SalesReportRow } from '@/lib/sales/report';
import { listKey } from '@/lib/storage-keys';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { DayInput } from '@/components/resource/day-input';
import { PreviewPager } from '@/components/resource/pagination';
import { RefPicker } from '@/components/resource/ref-picker';
import { AppLink, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import { Tabs } from '@/components/ui/tabs';
import { QueryForm, WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';

const SalesReportChart = lazy(() => import('./sales-report-chart').then((m) => ({ default: m.SalesReportChart })));

const TAB_KEY = listKey('salesreport', 'tabIndex');
const CLIENT_FIELD: FieldDef = { name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab: '' };
const ITEM_FIELD: FieldDef = { name: 'it_id', label: '商品', type: 'ref', ref: 'item', tab: '' };

const cellClass = 'px-[8px] text-right tabular-nums';
const count = (n: number) => n.toLocaleString('ja-JP');
const signed = (n: number) => (n > 0 ? `+${formatMoney(n)}` : formatMoney(n));

/** One labelled control of the conditions form. */
function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-[4px]">
      <label htmlFor={id} className={labelClass}>{label}</label>
      {children(id)}
    </div>
  );
}

function ReportCells({ row }: { row: SalesReportRow }) {
  const change = yoyChange(row.net, row.prev.net);
  return (
    <>
      <td className={cellClass}>{formatMoney(row.net)}</td>
      <td className={cellClass}>{formatMoney(row.tax)}</td>
      <td className={cellClass}>{formatMoney(row.total)}</td>
      <td className={cellClass}>{count(row.quantity)}</td>
      <td className={cellClass}>{formatMoney(row.prev.net)}</td>
      <td className={clsx(cellClass, change.diff < 0 && 'text-danger')}>{signed(change.diff)}</td>
      <td className={cellClass}>{change.percent === null ? '—' : `${change.percent.toFixed(1)}%`}</td>
    </>
  );
}

function SalesSummary() {
  const report = useSalesReport();
  const { draft, setDraft, answer } = report;
  const staff = useMasterOptions('mt_user');
  const [stack, setStack] = useState<'rates' | 'groups'>('rates');
  const [encoding, setEncoding] = useState<CsvEncoding>('cp932');
  useLoadingWhile(report.isLoading);
  const heading = answer ? groupHeading(answer.group) : '';
  const series = answer && (stack === 'groups' && answer.chart.groups.length > 0 ? answer.chart.groups : answer.chart.rates);

  return (
    <div className="flex flex-col gap-[12px]">
      <QueryForm onSubmit={() => { report.apply(); }}>
        <DateRangePicker label="期間" fromLabel="開始日" toLabel="終了日" value={draft} onChange={(period) => setDraft({ ...draft, ...period })} presets={PAST_PRESETS} rules={SALES_REPORT_PERIOD} />
        <Field label="集計単位">
          {(id) => (
            <select id={id} className={inputClass} value={draft.group} onChange={(e) => setDraft({ ...draft, group: e.target.value as ReportGroup })}>
              {REPORT_GROUPS.map((g) => <option key={g.value} value={g.value}>{g.text}</option>)}
            </select>
          )}
        </Field>
        <Field label="顧客">
          {(id) => <div className="w-[240px]"><RefPicker field={CLIENT_FIELD} inputId={id} value={draft.cl_id} onChange={(cl_id) => setDraft({ ...draft, cl_id })} /></div>}
        </Field>
        <Field label="担当者">
          {(id) => (
            <select id={id} className={clsx(inputClass, 'w-[160px]')} value={draft.usr_id} onChange={(e) => setDraft({ ...draft, usr_id: e.target.value })}>
              <option value="">（すべて）</option>
              {staff.options.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
            </select>
          )}
        </Field>
        <Field label="商品">
          {(id) => <div className="w-[220px]"><RefPicker field={ITEM_FIELD} inputId={id} value={draft.it_id} onChange={(it_id) => setDraft({ ...draft, it_id })} /></div>}
        </Field>
        <button type="submit" className={buttonClass('primary')} disabled={Boolean(report.problem)}>集計</button>
      </QueryForm>
      {report.error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(report.error)}</p>}
      {answer && (
        <>
          <div className="flex flex-wrap items-center justify-between gap-[12px]">
            <fieldset className="flex items-center gap-[12px] text-[1.4rem]" disabled={answer.chart.groups.length === 0}>
              <legend className="visually-hidden">グラフの積み上げ</legend>
              <span className={labelClass}>グラフの積み上げ</span>
              <label className="inline-flex items-center gap-[4px]"><input type="radio" name="stack" checked={stack === 'rates' || answer.chart.groups.length === 0} onChange={() => setStack('rates')} />税率別</label>
              <label className="inline-flex items-center gap-[4px]"><input type="radio" name="stack" checked={stack === 'groups' && answer.chart.groups.length > 0} onChange={() => setStack('groups')} />{heading}別</label>
            </fieldset>
            <div className="flex items-center gap-[8px]">
              <label className="flex items-center gap-[6px] text-[1.3rem]">
                文字コード
                <select className={inputClass} value={encoding} onChange={(e) => setEncoding(e.target.value as CsvEncoding)}>
                  <option value="cp932">Shift_JIS（Excel 向け）</option>
                  <option value="utf8">UTF-8（BOM 付き）</option>
                </select>
              </label>
              <button type="button" className={buttonClass('secondary')} disabled={report.csv.running} onClick={() => void report.exportCsv(encoding)}>
                {report.csv.running ? 'CSV出力中…' : 'CSV出力'}
              </button>
            </div>
          </div>
          {report.csv.message && <p role={report.csv.failed ? 'alert' : 'status'} className={clsx('text-[1.3rem]', report.csv.failed ? 'text-danger' : 'text-ink-soft')}>{report.csv.message}</p>}
          {series && (
            <Suspense fallback={<p className="h-[300px] text-[1.3rem] text-muted">グラフを読み込み中…</p>}>
              <SalesReportChart months={answer.chart.months} series={series} caption={`月別の売上（税抜）、${stack === 'groups' && answer.chart.groups.length > 0 ? `${heading}別` : '税率別'}の積み上げ`} />
            </Suspense>
          )}
          <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
            <table className="w-full border-collapse text-[1.4rem]" aria-busy={report.isLoading || undefined}>
              <caption className="px-[8px] py-[6px] text-left text-ink-soft">
                売上 {formatDateJa(answer.from)}〜{formatDateJa(answer.to)}（前年 {formatDateJa(answer.prev_from)}〜{formatDateJa(answer.prev_to)}）・行をクリックするとその売上伝票の一覧を開きます
              </caption>
              <thead>
                <tr className="h-[36px] bg-surface text-left">
                  <th scope="col" className="px-[8px]">{heading}</th>
                  {['税抜金額', '消費税', '税込金額', '数量', '前年（税抜）', '前年差', '前年比'].map((label) => <th key={label} scope="col" className="px-[8px] text-right">{label}</th>)}
                </tr>
              </thead>
              <tbody>
                {answer.rows.length === 0 && <tr><td colSpan={8} className="h-[60px] text-center text-muted">期間内の売上はありません</td></tr>}
                {answer.rows.map((row) => {
                  const path = report.drillPath(row.key);
                  return (
                    <tr key={row.key} className="h-row border-t border-line">
                      <th scope="row" className="px-[8px] text-left font-normal">{path ? <AppLink to={path} className="text-brand underline">{row.label}</AppLink> : row.label}</th>
                      <ReportCells row={row} />
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr className="h-row border-t-2 border-line font-semibold">
                  <th scope="row" className="px-[8px] text-left">{report.drillPath('total') ? <AppLink to={report.drillPath('total')!} className="text-brand underline">合計</AppLink> : '合計'}</th>
                  <ReportCells row={answer.total} />
                </tr>
              </tfoot>
            </table>
          </div>
          <PreviewPager page={report.page} pages={report.pages} total={answer.row_count} onPage={report.setPage} />
        </>
      )}
    </div>
  );
}

function AgingTable() {
  const aging = useAgingList();
  const { answer, sort } = aging;
  useLoadingWhile(aging.isLoading);
  const header = (col: AgingSort, label: string, align: string) => (
    <th scope="col" className={clsx('px-[8px]', align)} aria-sort={sort.col === col ? (sort.odr === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="inline-flex items-center gap-[4px] font-semibold" onClick={() => aging.sortBy(col)}>
        {label}
        <span aria-hidden="true" className="text-muted">{sort.col === col ? (sort.odr === 'asc' ? '▲' : '▼') : ''}</span>
      </button>
    </th>
  );
  return (
    <div className="flex flex-col gap-[12px]">
      <div className="flex flex-wrap items-end gap-[12px]">
        <div className="flex flex-col gap-[4px]">
          <span className={labelClass}>基準日</span>
          <DayInput label="基準日" value={aging.asOf} onChange={(day) => day && aging.setAsOf(day)} />
        </div>
        <p className="text-[1.3rem] text-ink-soft">請求書の残額を入金予定日からの経過日数で分け、まだ請求していない売上伝票を「未請求」に、納品先の分は請求先にまとめています。</p>
      </div>
      {aging.error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(aging.error)}</p>}
      {answer && (
        <>
          <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
            <table className="w-full border-collapse text-[1.4rem]" aria-busy={aging.isLoading || undefined}>
              <caption className="px-[8px] py-[6px] text-left text-ink-soft">売掛金年齢表 {formatDateJa(answer.as_of)} 現在</caption>
              <thead>
                <tr className="h-[36px] bg-surface">
                  {header('name', '顧客', 'text-left')}
                  {AGING_COLUMNS.map((c) => header(c.key, c.label, 'text-right'))}
                </tr>
              </thead>
              <tbody>
                {answer.rows.length === 0 && <tr><td colSpan={AGING_COLUMNS.length + 1} className="h-[60px] text-center text-muted">売掛金はありません</td></tr>}
                {answer.rows.map((row) => (
                  <tr key={row.cl_id} className="h-row border-t border-line">
                    <th scope="row" className="px-[8px] text-left font-normal"><AppLink to={detailPathOf(clientResource, row.cl_id)} className="text-brand underline">{row.name}</AppLink></th>
                    {AGING_COLUMNS.map((c) => <td key={c.key} className={clsx(cellClass, c.key === 'over90' && row.over90 > 0 && 'text-danger')}>{formatMoney(row[c.key])}</td>)}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="h-row border-t-2 border-line font-semibold">
                  <th scope="row" className="px-[8px] text-left">合計（{count(answer.row_count)}件）</th>
                  {AGING_COLUMNS.map((c) => <td key={c.key} className={cellClass}>{formatMoney(answer.total[c.key])}</td>)}
                </tr>
              </tfoot>
            </table>
          </div>
          <PreviewPager page={aging.page} pages={aging.pages} total={answer.row_count} onPage={aging.setPage} />
        </>
      )}
    </div>
  );
}

export default function SalesReportScreen({ match }: ScreenProps) {
  const [tab, setTab] = useState(() => (readStored<unknown>(TAB_KEY, 0) === 1 ? 1 : 0));
  return (
    <WorkScreen id="sales-report-title" title={match.route.title} intro="売上伝票（削除したものを除く）の集計です。消費税は伝票ごと・税率ごとに計算した額で、商品別は各明細の取り分（内税は税抜に換算）を合計しています。">
      <Tabs
        label="売上レポート"
        index={tab}
        onIndexChange={(index) => { setTab(index); writeStored(TAB_KEY, index); }}
        keepMounted={false}
        tabs={[
          { key: 'summary', label: '売上集計', content: <SalesSummary /> },
          { key: 'aging', label: '売掛金年齢表', content: <AgingTable /> },
        ]}
      />
    </WorkScreen>
  );
}
