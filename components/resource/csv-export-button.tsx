/**
 * 「CSV出力」 of every list: a dialog choosing the columns (一覧の列のみ／全項目) and the encoding (cp932 for
 * Excel, UTF-8), then the export's progress with 「キャンセル」. The logic is `useCsvExport`.
 */
import { useId, useState } from 'react';
import { useCsvExport, type CsvExportState } from '@/lib/client/list/csv-export';
import type { Params } from '@/lib/client/api/fetcher';
import type { CsvCols, CsvEncoding } from '@/lib/protocol';
import type { ResourceDef } from '@/lib/resources/types';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { buttonClass, labelClass } from './styles';

const COLS: readonly { value: CsvCols; text: string }[] = [
  { value: 'list', text: '一覧の列のみ' },
  { value: 'all', text: '全項目' },
];
export const CSV_ENCODING_CHOICES: readonly { value: CsvEncoding; text: string }[] = [
  { value: 'cp932', text: 'Shift_JIS（Excel 向け）' },
  { value: 'utf8', text: 'UTF-8（BOM 付き）' },
];

export function Choice<T extends string>({ legend, name, options, value, onChange, disabled }: { legend: string; name: string; options: readonly { value: T; text: string }[]; value: T; onChange: (value: T) => void; disabled: boolean }) {
  return (
    <fieldset className="flex flex-col gap-[4px]" disabled={disabled}>
      <legend className={labelClass}>{legend}</legend>
      <div className="flex flex-wrap gap-[12px] text-[1.4rem]">
        {options.map((o) => (
          <label key={o.value} className="inline-flex items-center gap-[4px]">
            <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
            {o.text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const number = (n: number) => n.toLocaleString('ja-JP');

/** A CSV download's progress and outcome (`useCsvDownload`'s state). */
export function CsvProgress({ state, what = 'CSV出力' }: { state: CsvExportState; what?: string }) {
  const { phase, rows, total, bytes, replaced, fileName, error } = state;
  if (phase === 'idle') return null;
  return (
    <div className="mt-[12px] flex flex-col gap-[6px] text-[1.4rem]">
      {phase === 'running' && (
        <>
          <progress className="w-full" aria-label={`${what}の進み具合`} max={total || undefined} value={total ? Math.min(rows, total) : undefined} />
          <p aria-live="polite">
            {number(rows)}{total !== undefined && ` / ${number(total)}`} 行（{number(Math.round(bytes / 1024))} KB）を受信中…
          </p>
        </>
      )}
      {phase === 'done' && <p role="status">{number(rows)} 行を「{fileName}」に出力しました。</p>}
      {phase === 'done' && replaced > 0 && (
        <p role="alert" className="text-warning">Shift_JIS で表せない文字 {number(replaced)} 個を「〓」に置き換えました。元の文字が必要なときは UTF-8 で出力してください。</p>
      )}
      {phase === 'cancelled' && <p role="status">{what}を取り消しました。</p>}
      {phase === 'failed' && <p role="alert" className="text-danger">{error}</p>}
    </div>
  );
}

/** The 「CSV出力」 button of a list and its dialog; `query` is the list's current query (`ListController.exportQuery`). */
export function CsvExportButton({ def, query }: { def: ResourceDef; query: Params | undefined }) {
  const [open, setOpen] = useState(false);
  const [cols, setCols] = useState<CsvCols>('list');
  const [enc, setEnc] = useState<CsvEncoding>('cp932');
  const name = useId();
  const csv = useCsvExport(def, query);
  const running = csv.state.phase === 'running';
  const close = () => {
    csv.cancel();
    csv.reset();
    setOpen(false);
  };
  return (
    <>
      <button type="button" className={buttonClass('secondary')} disabled={!query} onClick={() => setOpen(true)}>
        CSV出力
      </button>
      {open && (
        <ModalDialog title="CSV出力" onClose={close} width={420}>
          <div className="flex flex-col gap-[12px]">
            <p className="text-[1.3rem] text-ink-soft">いまの検索条件・絞り込み・並び順のまま、全ページを出力します。</p>
            <Choice legend="出力する列" name={`${name}-cols`} options={COLS} value={cols} onChange={setCols} disabled={running} />
            <Choice legend="文字コード" name={`${name}-enc`} options={CSV_ENCODING_CHOICES} value={enc} onChange={setEnc} disabled={running} />
          </div>
          <CsvProgress state={csv.state} />
          <div className="mt-[16px] flex justify-end gap-[8px]">
            {running ? (
              <button type="button" className={buttonClass('secondary')} onClick={csv.cancel}>
                キャンセル
              </button>
            ) : (
              <>
                <button type="button" className={buttonClass('secondary')} onClick={close}>
                  閉じる
                </button>
                <button type="button" className={buttonClass('primary')} onClick={() => void csv.start(cols, enc)}>
                  出力する
                </button>
              </>
            )}
          </div>
        </ModalDialog>
      )}
    </>
  );
}
