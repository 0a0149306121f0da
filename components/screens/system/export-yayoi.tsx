/**
 * 会計連携（弥生）: the panel that exports the 弥生会計 journal (`export_yayoi`) — a period (at most a year), the link to the
 * editable 税区分・勘定科目 (/system/yayoi/setting), the download with its progress, and the journals exported before
 * (`accounting_export_lst`, newest first, 再出力 marked, with how many late entries each took — named after the download too). A period overlapping an earlier export is refused (409, naming it)
 * until 「再出力する」 is ticked. Rendered as the 会計連携（弥生） tab of /system/export (components/screens/system/export.tsx).
 */
import { useState } from 'react';
import { YAYOI_PERIOD } from '@/lib/accounting/yayoi';
import { useCsvDownload } from '@/lib/client/list/csv-export';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { formatDateTime, todayJst } from '@/lib/format';
import { PAST_PRESETS, periodProblem, presetPeriod, type Period } from '@/lib/period';
import { CsvProgress } from '@/components/resource/csv-export-button';
import { cellClass, DataTable, numberCellClass } from '@/components/resource/data-table';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { AppLink } from '@/components/resource/shell-bridge';
import { buttonClass } from '@/components/resource/styles';
import { useAccountingExports } from '@/lib/client/data/delivery';
import { useCanCall } from '@/lib/client/auth/use-can-call';

const number = (n: number) => n.toLocaleString('ja-JP');

export function ExportYayoiPanel() {
  const [period, setPeriod] = useState<Period>(() => presetPeriod('lastMonth', todayJst()));
  const [reexport, setReexport] = useState(false);
  const csv = useCsvDownload();
  const { data, error, mutate } = useAccountingExports();
  const canWrite = useCanCall('export_yayoi');
  const running = csv.state.phase === 'running';
  const problem = periodProblem(period, YAYOI_PERIOD);
  const refusedAsExported = csv.state.phase === 'failed' && csv.state.status === 409;
  /** The export just downloaded (the newest of the list read again after it). */
  const justMade = csv.state.phase === 'done' ? data?.[0] : undefined;

  const start = async () => {
    await csv.start('export_yayoi', { from: period.from, to: period.to, ...(reexport ? { reexport: 1 } : {}) }, 'cp932', { header: false });
    await mutate();
  };

  return (
    <section aria-labelledby="export-yayoi-title" className="flex flex-col gap-[12px] rounded border border-line p-[16px]">
      <div>
        <h2 id="export-yayoi-title" className="text-[1.6rem] font-bold text-ink">弥生会計の仕訳</h2>
        <p className="text-[1.3rem] text-ink-soft">
          期間の売上伝票（伝票・税率ごと）と入金伝票を、弥生会計の仕訳インポート形式（25 項目、Shift_JIS）で出力します。前回の出力後に計上された、期間より前の日付の伝票・入金（まだ出力していないもの）も含め、仕訳メモにそのことを記します。返品など負の金額は借方と貸方を入れ替えます。
          税区分と勘定科目は <AppLink to="/system/yayoi/setting" className="text-brand underline-offset-2 hover:underline">連携設定</AppLink> で変えられます。
        </p>
      </div>
      <form noValidate className="flex flex-wrap items-end gap-[12px]" onSubmit={(e) => { e.preventDefault(); if (!problem && canWrite && !running) void start(); }}>
        <DateRangePicker label="期間" fromLabel="開始日" toLabel="終了日" value={period} onChange={(next) => { setPeriod(next); setReexport(false); csv.reset(); }} presets={PAST_PRESETS} rules={YAYOI_PERIOD} />
        <label className="inline-flex items-center gap-[4px] text-[1.4rem]">
          <input type="checkbox" checked={reexport} onChange={(e) => setReexport(e.target.checked)} disabled={running} />
          再出力する（出力済みの期間を含む）
        </label>
        {running ? (
          <button type="button" className={buttonClass('secondary')} onClick={csv.cancel}>キャンセル</button>
        ) : (
          <button type="submit" className={buttonClass('primary')} disabled={!canWrite || Boolean(problem)}>仕訳を出力</button>
        )}
      </form>
      <CsvProgress state={csv.state} what="仕訳の出力" />
      {justMade && justMade.ae_late > 0 && (
        <p role="status" className="text-[1.4rem] text-warning">
          出力番号 {justMade.ae_id} には、前回の出力後に計上された期間より前の日付の伝票・入金が {number(justMade.ae_late)}件 含まれています（仕訳メモに記載）。
        </p>
      )}
      {refusedAsExported && !reexport && (
        <p className="text-[1.3rem] text-ink-soft">同じ仕訳を弥生会計に二重に取り込まないよう、取り込み済みかを確かめてから「再出力する」を選んでください。</p>
      )}
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      <DataTable
        caption="これまでの出力"
        headers={[['出力番号', true], ['期間'], ['仕訳の行数', true], ['売上伝票', true], ['入金伝票', true], ['うち期間前の日付', true], ['出力日時'], ['出力者'], ['区分']]}
        empty={!data ? '読み込み中…' : data.length === 0 && 'まだ出力していません。'}
      >
        {(data ?? []).map((row) => (
          <tr key={row.ae_id}>
            <td className={numberCellClass}>{row.ae_id}</td>
            <td className={cellClass}>{row.ae_from}〜{row.ae_to}</td>
            <td className={numberCellClass}>{number(row.ae_rows)}</td>
            <td className={numberCellClass}>{number(row.ae_slips)}</td>
            <td className={numberCellClass}>{number(row.ae_payments)}</td>
            <td className={numberCellClass} title="前回の出力後に計上された、出力期間より前の日付の伝票・入金（仕訳メモに記載）">{number(row.ae_late)}</td>
            <td className={cellClass}>{formatDateTime(row.created)}</td>
            <td className={cellClass}>{row.user_name}</td>
            <td className={cellClass}>{row.ae_reexport ? <span className="font-bold text-warning">再出力</span> : '初回'}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
