/**
 * /system/download データダウンロード (管理 only): a table (lib/download.ts), a period on its natural date (受注日, 売上日 …), the
 * encoding, and the file (`download_table`) with its progress — one CSV with Japanese headers, an order's or a slip's lines one
 * row each. The server audits who downloaded which table and period.
 */
import clsx from 'clsx';
import { useEffect, useId, useState } from 'react';
import { DOWNLOAD_TABLES, downloadTable } from '@/lib/download';
import { useCsvDownload } from '@/lib/client/list/csv-export';
import { todayJst } from '@/lib/format';
import { PAST_PRESETS, periodProblem, presetPeriod, type Period } from '@/lib/period';
import type { CsvEncoding } from '@/lib/protocol';
import { Choice, CSV_ENCODING_CHOICES, CsvProgress } from '@/components/resource/csv-export-button';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';

const RULES = { required: true };

export default function DataDownloadScreen({ match }: ScreenProps) {
  const [table, setTable] = useState(DOWNLOAD_TABLES[0].value);
  const [period, setPeriod] = useState<Period>(() => presetPeriod('thisMonth', todayJst()));
  const [enc, setEnc] = useState<CsvEncoding>('cp932');
  const csv = useCsvDownload();
  const id = useId();
  const running = csv.state.phase === 'running';
  const chosen = downloadTable(table) ?? DOWNLOAD_TABLES[0];
  const problem = periodProblem(period, RULES);

  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);

  return (
    <section aria-labelledby="data-download-title" className="flex flex-col gap-[12px] p-[16px]">
      <div>
        <h1 id="data-download-title" className="text-[2rem] font-bold text-ink">{match.route.title}</h1>
        <p className="text-[1.3rem] text-ink-soft">選んだデータの期間内のすべての行を、Excel で開ける CSV（全項目・日本語の見出し）でダウンロードします。ダウンロードは操作ログに記録されます。</p>
      </div>
      <form noValidate className="flex flex-col gap-[12px]" onSubmit={(e) => { e.preventDefault(); if (!problem && !running) void csv.start('download_table', { table, from: period.from, to: period.to }, enc); }}>
        <label htmlFor={`${id}-table`} className={labelClass}>データ</label>
        <select id={`${id}-table`} className={clsx(inputClass, 'w-fit')} value={table} disabled={running} onChange={(e) => { setTable(e.target.value); csv.reset(); }}>
          {DOWNLOAD_TABLES.map((t) => <option key={t.value} value={t.value}>{t.text}</option>)}
        </select>
        <DateRangePicker label={chosen.dateLabel} value={period} onChange={setPeriod} presets={PAST_PRESETS} rules={RULES} />
        <Choice legend="文字コード" name={`${id}-enc`} options={CSV_ENCODING_CHOICES} value={enc} onChange={setEnc} disabled={running} />
        <div className="flex gap-[8px]">
          {running ? (
            <button type="button" className={buttonClass('secondary')} onClick={csv.cancel}>キャンセル</button>
          ) : (
            <button type="submit" className={buttonClass('primary')} disabled={Boolean(problem)}>ダウンロード</button>
          )}
        </div>
      </form>
      <CsvProgress state={csv.state} what="ダウンロード" />
    </section>
  );
}
