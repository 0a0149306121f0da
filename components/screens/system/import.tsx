/**
 * The one import screen (issue 14), driven by the kind (lib/imports/registry.ts): /client/import (顧客取込) and
 * /system/import?kind=order | waybill | waybill_sagawa (送り状取込: a 運送会社 choice — ヤマト B2 / 佐川 e飛伝 — switches
 * between the two carriers' kinds, the address following so a reload or a bookmark keeps the carrier). 「ファイル参照」 or a file dropped on the box, the encoding (自動 / UTF-8 /
 * Shift_JIS), 「アップロードして確認」 with the upload's progress — the dry run (`import_preview`): its counts
 * (追加・更新・スキップ・エラー), the file's headers against the kind's columns (changeable, then 「この対応で再確認」),
 * every error by row and column a page at a time, 「エラー行をCSVでダウンロード」 (`import_errors_csv`), a warning when the
 * same file was imported before — then 「取込実行」 (`import_commit`, a job with its progress bar, also after a reload) and
 * the kind's recent imports (`import_lst`). A template of the headers per kind (`import_template`).
 */
import clsx from 'clsx';
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { download, upload } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { navigate, useRoute } from '@/lib/client/router';
import { formatDateTime, formatMoney } from '@/lib/format';
import { isWaybillKind, WAYBILL_CARRIERS, type WaybillKind } from '@/lib/imports/columns/waybill';
import { importSummary, type ImportError, type ImportKindInfo, type ImportNotices, type ImportPreview } from '@/lib/imports/kinds';
import { detailPathOf } from '@/lib/list/resource-paths';
import { clientResource } from '@/lib/resources/client';
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES, IMPORT_STATE_LABELS, encodingLabel, type ImportEncodingChoice } from '@/lib/imports/messages';
import { IMPORT_KIND_NAMES, IMPORT_PAGES } from '@/lib/imports/pages';
import { importKindInfo, isImportKind } from '@/lib/imports/registry';
import type { ImportCommitResult } from '@/lib/imports/runs';
import { can } from '@/lib/permissions';
import { Choice } from '@/components/resource/csv-export-button';
import { cellClass, DataTable, numberCellClass } from '@/components/resource/data-table';
import { JobProgress, useAnnouncedJob, useConfirmedAction } from '@/components/resource/job-progress';
import { PreviewPager } from '@/components/resource/pagination';
import { AppLink, useAlert, useAreas, useOpens } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useImports } from '@/lib/client/data/delivery';

const ERRORS_PER_PAGE = 50;
const count = (n: number): string => n.toLocaleString('ja-JP');

/** The commit's result in words (the server's, or — a job of an older server — the same words made here). */
const resultText = (r: ImportCommitResult): string => r.summary || importSummary({}, r, true);

/** The rows a kind names beside the counts (JACCS: every failed debit, its customer, amount and meaning), and where their customers are listed. */
function NoticeList({ title, answer }: { title: string; answer: ImportNotices }) {
  const notices = answer.notices ?? [];
  if (notices.length === 0) return null;
  const more = answer.notices_more ?? 0;
  return (
    <section aria-label={title} className="flex flex-col gap-[6px]">
      <DataTable caption={`${title}（${count(notices.length + more)}件）`} headers={[['行', true], ['顧客'], ['金額', true], ['内容']]} empty={false}>
        {notices.map((n) => (
          <tr key={n.row} className="h-row">
            <td className={numberCellClass}>{n.row}</td>
            <td className={cellClass}>{n.cl_id ? <AppLink to={detailPathOf(clientResource, n.cl_id)} className="text-brand underline-offset-2 hover:underline">{n.name || `ID ${n.cl_id}`}</AppLink> : n.name}</td>
            <td className={numberCellClass}>{n.amount === null ? '' : formatMoney(n.amount)}</td>
            <td className={cellClass}>{n.message}</td>
          </tr>
        ))}
      </DataTable>
      {more > 0 && <p className="text-[1.3rem] text-ink-soft">ほか {count(more)} 件</p>}
      {answer.notice_link && <AppLink to={answer.notice_link.path} className="text-[1.4rem] text-brand underline-offset-2 hover:underline">{answer.notice_link.label}</AppLink>}
    </section>
  );
}

/** The file's headers against the kind's columns: each column's header, or 取り込まない. */
function MappingTable({ info, preview, mapping, onChange }: {
  info: ImportKindInfo; preview: ImportPreview; mapping: Record<string, string>; onChange: (field: string, header: string) => void;
}) {
  if (preview.headers.length === 0) return <p className="text-[1.3rem] text-ink-soft">見出しの行がないファイルとして、列の位置で読みました。</p>;
  const used = new Set(Object.values(mapping));
  const unused = preview.headers.filter((h) => !used.has(h));
  return (
    <details className="rounded-[6px] border border-line bg-white p-[10px]" open={info.columns.some((c) => c.required && !mapping[c.field])}>
      <summary className="cursor-pointer text-[1.4rem] font-medium">列の対応（ファイルの見出し {count(preview.headers.length)}列 → 取込の項目）</summary>
      <div className="mt-[8px] grid gap-[6px] sm:grid-cols-2 lg:grid-cols-3">
        {info.columns.map((c) => (
          <label key={c.field} className="flex items-center gap-[8px] text-[1.3rem]">
            <span className="w-[12em] shrink-0">{c.label}{c.required && <span className="text-danger">（必須）</span>}</span>
            <select aria-label={`${c.label}の列`} className={inputClass} value={mapping[c.field] ?? ''} onChange={(e) => onChange(c.field, e.target.value)}>
              <option value="">取り込まない</option>
              {preview.headers.map((h, i) => <option key={`${h}-${i}`} value={h}>{h}</option>)}
            </select>
          </label>
        ))}
      </div>
      {unused.length > 0 && <p className="mt-[6px] text-[1.3rem] text-ink-soft">使われていない見出し: {unused.join('、')}</p>}
    </details>
  );
}

function ErrorTable({ preview }: { preview: ImportPreview }) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(preview.errors.length / ERRORS_PER_PAGE));
  const shown: ImportError[] = preview.errors.slice((page - 1) * ERRORS_PER_PAGE, page * ERRORS_PER_PAGE);
  return (
    <section aria-labelledby="import-errors-title" className="flex flex-col gap-[6px]">
      <h2 id="import-errors-title" className="text-[1.6rem] font-bold text-danger">エラー {count(preview.errors.length + preview.errors_more)}件</h2>
      <DataTable caption="取込のエラー" headers={[['行', true], ['列'], ['エラー内容']]} empty={false}>
        {shown.map((e, i) => (
          <tr key={`${e.row}-${e.column}-${i}`} className="h-row">
            <td className={numberCellClass}>{e.row}</td>
            <td className={cellClass}>{e.column || '（行全体）'}</td>
            <td className={cellClass}>{e.message}</td>
          </tr>
        ))}
      </DataTable>
      <PreviewPager page={page} pages={pages} total={preview.errors.length} onPage={setPage} />
      {preview.errors_more > 0 && <p className="text-[1.3rem] text-ink-soft">ほかに {count(preview.errors_more)}件のエラーがあります（エラー行のCSVにすべて載っています）。</p>}
    </section>
  );
}

function RecentImports({ kind, refresh }: { kind: string; refresh: number }) {
  const { data, mutate } = useImports({ kind, n: 10 });
  useEffect(() => {
    if (refresh > 0) void mutate();
  }, [refresh, mutate]);
  const rows = data ?? [];
  return (
    <section aria-labelledby="import-recent-title" className="flex flex-col gap-[6px]">
      <h2 id="import-recent-title" className="text-[1.6rem] font-bold text-ink">最近の取込</h2>
      <DataTable caption="最近の取込" empty={rows.length === 0 && 'まだ取込はありません。'}
        headers={[['日時'], ['ファイル'], ['状態'], ['行数', true], ['追加', true], ['更新', true], ['スキップ', true], ['エラー', true], ['担当者'], ['ジョブ']]}>
        {rows.map((r) => (
          <tr key={r.import_id} className="h-row">
            <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(r.committed || r.created)}</td>
            <td className={cellClass}>{r.file_name}</td>
            <td className={cellClass} title={r.error || undefined}>{IMPORT_STATE_LABELS[r.state] ?? r.state}</td>
            {[r.rows, r.inserts, r.updates, r.skips, r.errors].map((n, i) => <td key={i} className={numberCellClass}>{count(n)}</td>)}
            <td className={cellClass}>{r.user_name}</td>
            <td className={clsx(cellClass, 'tabular-nums')}>{r.job_id ?? ''}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/**
 * The panel of one kind (also embedded by other screens: /system/jaccs's 結果取込); `onEnd` runs after its commit job ends.
 * A `fixed` kind (JACCS 120-byte records) has no template, encoding choice or column mapping.
 */
export function ImportPanel({ kind, info, onEnd }: { kind: string; info: ImportKindInfo; onEnd?: () => unknown }) {
  const areas = useAreas();
  const canWrite = can(areas, info.area, 'write');
  const alert = useAlert();
  const confirmed = useConfirmedAction();
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<ImportEncodingChoice>('auto');
  const [sent, setSent] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [refresh, setRefresh] = useState(0);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const job = useAnnouncedJob<ImportCommitResult>('import_commit', resultText, () => {
    setRefresh((n) => n + 1);
    return onEnd?.();
  }, kind);
  const csv = info.format === 'csv';

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    setPreview(null);
    setProblem(chosen.size > IMPORT_MAX_BYTES ? `ファイルが大きすぎます（上限 ${IMPORT_MAX_BYTES / 1024 / 1024} MB）。` : '');
  };
  const check = async (withMapping?: Record<string, string>) => {
    if (!file) return;
    setBusy(true);
    setProblem('');
    setSent(0);
    try {
      const params: { kind: string; encoding: string; mapping?: string } = { kind, encoding };
      if (withMapping) params.mapping = JSON.stringify(Object.fromEntries(info.columns.map((c) => [c.field, withMapping[c.field] ?? ''])));
      const answer = await upload('import_preview', params, file, { onProgress: (done, total) => setSent(total > 0 ? done / total : 0) });
      const next = answer?.[0];
      if (next) {
        setPreview(next);
        setMapping(next.mapping);
        setRefresh((n) => n + 1);
      }
    } catch (failure) {
      setPreview(null);
      setProblem(messageOf(failure) ?? '');
    } finally {
      setBusy(false);
      setSent(null);
    }
  };
  const commit = async () => {
    if (!preview) return;
    const again = preview.imported_before;
    const question = again
      ? `このファイルは ${formatDateTime(again.committed)} に ${again.user_name || '他のユーザー'} さんが取り込んでいます。もう一度取り込みますか？（同じ${info.label.replace('取込', '')}は二重に登録されません）`
      : preview.summary;
    await confirmed(question, { title: info.label, confirmLabel: '取込実行', danger: Boolean(again) }, async () => {
      await job.start('import_commit', { import_id: String(preview.import_id), ...(again ? { confirm_duplicate: '1' } : {}) });
      setPreview(null);
    });
  };
  const errorsCsv = async () => {
    if (!preview) return;
    try {
      await download('import_errors_csv', { import_id: preview.import_id });
    } catch (failure) {
      alert(messageOf(failure) ?? '', 'error');
    }
  };
  const template = async () => {
    try {
      await download('import_template', { kind });
    } catch (failure) {
      alert(messageOf(failure) ?? '', 'error');
    }
  };
  const drop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    choose(e.dataTransfer.files[0]);
  };
  const errorCount = preview ? preview.errors.length + preview.errors_more : 0;
  const mappingChanged = preview !== null && JSON.stringify(mapping) !== JSON.stringify(preview.mapping);

  return (
    <div className="flex flex-col gap-[12px]">
      {csv && (
        <div className="flex flex-wrap items-center gap-[12px]">
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void template()}>テンプレート（見出しのCSV）をダウンロード</button>
          <span className="text-[1.3rem] text-ink-soft">必須の列: {info.columns.filter((c) => c.required).map((c) => c.label).join('、')}</span>
        </div>
      )}
      {canWrite && (
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
          className={clsx('flex flex-wrap items-end gap-[12px] rounded-[6px] border-2 border-dashed p-[16px]', over ? 'border-brand bg-subtle' : 'border-line bg-white')}
        >
          <div className="flex flex-col gap-[4px]">
            <span className={labelClass}>ファイル（{csv ? 'CSV' : '全銀フォーマット'}、ここにドロップもできます）</span>
            <div className="flex items-center gap-[8px]">
              <button type="button" className={buttonClass('secondary')} onClick={() => input.current?.click()}>ファイル参照</button>
              <input ref={input} type="file" accept={csv ? '.csv,.txt,text/csv' : '.txt,.dat,text/plain'} aria-label="取り込むファイル" className="visually-hidden"
                onChange={(e) => choose(e.target.files?.[0])} />
              <span className="text-[1.4rem]">{file ? `${file.name}（${count(file.size)} バイト）` : '選ばれていません'}</span>
            </div>
          </div>
          {csv && <label className="flex flex-col gap-[4px] text-[1.3rem]">
            文字コード
            <select className={inputClass} value={encoding} onChange={(e) => setEncoding(e.target.value as ImportEncodingChoice)}>
              <option value="auto">自動</option>
              <option value="utf8">UTF-8</option>
              <option value="cp932">Shift_JIS</option>
            </select>
          </label>}
          <button type="button" className={buttonClass('primary')} disabled={!file || busy || job.running} onClick={() => void check()}>アップロードして確認</button>
        </div>
      )}
      {sent !== null && (
        <div role="progressbar" aria-label="アップロードの進み具合" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(sent * 100)}
          className="h-[10px] overflow-hidden rounded-full bg-subtle">
          <div className="h-full bg-brand" style={{ width: `${Math.round(sent * 100)}%` }} />
        </div>
      )}
      {busy && sent === null && <p className="text-[1.4rem] text-ink-soft">確認しています…</p>}
      {problem && <p role="alert" className="text-[1.4rem] text-danger">{problem}</p>}
      {job.job && <JobProgress job={job.job} result={job.job.result ? resultText(job.job.result) : undefined} onCancel={canWrite ? () => void job.cancel() : undefined} />}
      {job.job?.result && <NoticeList title={info.notices ?? '確認が必要な行'} answer={job.job.result} />}
      {preview && (
        <section aria-labelledby="import-preview-title" className="flex flex-col gap-[10px]">
          <h2 id="import-preview-title" className="text-[1.6rem] font-bold text-ink">確認結果（{preview.file_name}・{encodingLabel(preview.encoding)}）</h2>
          <dl aria-label="確認結果の件数" className="flex flex-wrap gap-x-[24px] gap-y-[4px] text-[1.4rem]">
            {([['行数', preview.rows], ['追加', preview.inserts], ['更新', preview.updates], ['スキップ', preview.skips], ['エラー', errorCount]] as const).map(([label, n]) => (
              <div key={label} className="flex gap-[6px]">
                <dt className="text-ink-soft">{label}</dt>
                <dd className={clsx('font-medium tabular-nums', label === 'エラー' && n > 0 ? 'text-danger' : 'text-ink')}>{count(n)}件</dd>
              </div>
            ))}
          </dl>
          {preview.groups && <p className="text-[1.4rem]">{preview.summary}</p>}
          <NoticeList title={info.notices ?? '確認が必要な行'} answer={preview} />
          {preview.imported_before && (
            <p role="alert" className="rounded-[6px] border border-warning bg-subtle p-[8px] text-[1.4rem]">
              同じファイルが {formatDateTime(preview.imported_before.committed)} に {preview.imported_before.user_name || '他のユーザー'} さんによって取り込まれています。
            </p>
          )}
          {csv && <MappingTable info={info} preview={preview} mapping={mapping} onChange={(field, header) => setMapping((m) => {
            const next = { ...m };
            if (header) next[field] = header;
            else delete next[field];
            return next;
          })} />}
          {mappingChanged && (
            <div>
              <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={() => void check(mapping)}>この対応で再確認</button>
            </div>
          )}
          {errorCount > 0 && (
            <>
              <ErrorTable key={preview.import_id} preview={preview} />
              <div><button type="button" className={buttonClass('secondary')} onClick={() => void errorsCsv()}>エラー行をCSVでダウンロード</button></div>
              <p className="text-[1.3rem] text-ink-soft">エラーを直したファイルをもう一度アップロードしてください。エラーがある間は取り込めません。</p>
            </>
          )}
          {canWrite && (
            <div>
              <button type="button" className={buttonClass('primary')} disabled={errorCount > 0 || job.running || mappingChanged} onClick={() => void commit()}>取込実行</button>
            </div>
          )}
        </section>
      )}
      <RecentImports kind={kind} refresh={refresh} />
    </div>
  );
}

/** /system/import without a kind: every import the user may open, with what it does, linking to its screen. */
function ImportChooser() {
  const opens = useOpens();
  const kinds = IMPORT_KIND_NAMES.filter((kind) => opens(IMPORT_PAGES[kind].route));
  return (
    <nav aria-labelledby="import-kinds-title" className="flex flex-col gap-[8px]">
      <h2 id="import-kinds-title" className="text-[1.6rem] font-bold text-ink">取込の種類を選んでください</h2>
      {kinds.length === 0 ? <p className="text-[1.4rem] text-ink-soft">この権限で使える取込はありません。</p> : (
        <ul className="flex flex-col gap-[6px]">
          {kinds.map((kind) => (
            <li key={kind} className="rounded-[6px] border border-line bg-white px-[12px] py-[8px]">
              <AppLink to={IMPORT_PAGES[kind].route} className="text-[1.5rem] font-medium text-brand underline-offset-2 hover:underline">{IMPORT_PAGES[kind].label}</AppLink>
              <p className="text-[1.3rem] text-ink-soft">{IMPORT_PAGES[kind].description}</p>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

export default function ImportScreen({ match }: ScreenProps) {
  const { query } = useRoute();
  const kind = match.route.path === '/client/import' ? 'client' : (query.get('kind') ?? '');
  const info = useMemo(() => importKindInfo(kind), [kind]);
  const offered = info !== undefined && (match.route.path === '/client/import' || kind !== 'client');
  const title = offered ? info.label : match.route.title;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <section aria-labelledby="import-title" className="flex flex-col gap-[12px] p-[16px]">
      <div>
        <h1 id="import-title" className="text-[2rem] font-bold text-ink">{title}</h1>
        {offered && <p className="text-[1.3rem] text-ink-soft">
          CSVファイルを選んで「アップロードして確認」を押すと、登録はせずに全行を確認します（追加・更新・スキップ・エラー）。エラーがなければ「取込実行」ですべての行を一度に取り込みます（途中で失敗したときは何も登録されません）。
        </p>}
      </div>
      {offered && isWaybillKind(kind) && (
        <Choice<WaybillKind> legend="運送会社" name="waybill-carrier" value={kind} disabled={false}
          options={WAYBILL_CARRIERS.map((c) => ({ value: c.kind, text: c.text }))}
          onChange={(next) => void navigate(`/system/import?kind=${next}`, { replace: true })} />
      )}
      {offered ? (
        <ImportPanel key={kind} kind={kind} info={info} />
      ) : (
        <>
          {kind && (
            <p role="alert" className="text-[1.4rem] text-danger">
              {isImportKind(kind) && kind !== 'client' ? IMPORT_MESSAGES.notYet(kind) : IMPORT_MESSAGES.unknownKind(kind)}
            </p>
          )}
          <ImportChooser />
        </>
      )}
    </section>
  );
}
