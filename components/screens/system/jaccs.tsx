/**
 * JACCS 取込 (/system/jaccs): direct debit (口座振替, 全銀 種別91) in two steps.
 * 1) 依頼データ作成: a closing (`closing_lst`) → `jaccs_preview`: the 口座振替 customers and their invoices' 残額, the 引落日, each
 *    customer's problems (the file is made only when there are none) → 「依頼データをダウンロード」 (`jaccs_request`; once made,
 *    only 「再発行としてダウンロード」) and the requests made from the closing.
 * 2) 結果取込: the result file through the one import screen's panel (components/screens/system/import.tsx `ImportPanel`, kind
 *    `jaccs_result`: `import_preview`, the counts and every error by line, `import_commit` as a job), then the customers not debited
 *    with the meaning of their code (`jaccs_failure_lst`, read again when the commit ends).
 */
import clsx from 'clsx';
import { useEffect, useMemo, useState } from 'react';
import { download } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { closingLabel } from '@/lib/closing/period';
import { formatDateJa, formatDateTime, formatMoney } from '@/lib/format';
import { jaccsResultImportKind } from '@/lib/imports/columns/jaccs_result';
import { DEBIT_ACCOUNT_TYPES } from '@/lib/zengin/format';
import { cellClass, DataTable, numberCellClass } from '@/components/resource/data-table';
import { AppLink, useAlert, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import { ImportPanel } from './import';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useClosings, useJaccsFailures, useJaccsPreview } from '@/lib/client/data/closing';
import { useCanCall } from '@/lib/client/auth/use-can-call';

const typeText = (value: string): string => DEBIT_ACCOUNT_TYPES.find((o) => o.value === value)?.text ?? value;
const clientPath = (id: number): string => `/client/detail/${id}`;

function RequestSection({ canWrite }: { canWrite: boolean }) {
  const closings = useClosings({});
  const [chosen, setChosen] = useState('');
  const rows = useMemo(() => closings.data ?? [], [closings.data]);
  useEffect(() => {
    if (!chosen && rows[0]) setChosen(`${rows[0].sime_gp}:${rows[0].sime_ym}`);
  }, [chosen, rows]);
  const [gp, ym] = chosen.split(':');
  const preview = useJaccsPreview(chosen ? { sime_gp: gp, sime_ym: ym } : null);
  const view = preview.data?.[0];
  const alert = useAlert();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  useLoadingWhile(closings.isLoading || preview.isLoading || busy);
  const made = (view?.requests.length ?? 0) > 0;
  const blocked = !view || view.count === 0 || view.problem_rows > 0 || view.company_problems.length > 0 || view.requests.some((r) => r.result_at !== '');

  const makeFile = async () => {
    setBusy(true);
    setProblem('');
    try {
      const file = await download('jaccs_request', { sime_gp: gp, sime_ym: ym, ...(made ? { reissue: '1' } : {}) });
      if (file) alert(`口座振替依頼データ「${file.fileName}」を作成しました（${view?.count ?? 0}件 ${formatMoney(view?.total ?? 0)}）。`, 'success');
    } catch (failure) {
      setProblem(messageOf(failure) ?? '');
    } finally {
      setBusy(false);
      await preview.mutate();
    }
  };

  return (
    <section aria-labelledby="jaccs-request-title" className="flex flex-col gap-[10px]">
      <h2 id="jaccs-request-title" className="text-[1.7rem] font-bold text-ink">1. 依頼データ作成</h2>
      {closings.error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(closings.error)}</p>}
      <label className="flex w-fit flex-col gap-[4px] text-[1.3rem]">
        締め処理
        <select value={chosen} onChange={(e) => setChosen(e.target.value)} className={inputClass} aria-label="締め処理">
          {rows.length === 0 && <option value="">締め処理がありません</option>}
          {rows.map((c) => <option key={c.cls_id} value={`${c.sime_gp}:${c.sime_ym}`}>{closingLabel(c.sime_gp, c.sime_ym)}（請求書 {c.invoices}件）</option>)}
        </select>
      </label>
      {preview.error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(preview.error)}</p>}
      {view && (
        <>
          <p className="text-[1.4rem]" aria-live="polite">
            引落日 <strong>{formatDateJa(view.debit_date)}</strong>・口座振替 <strong>{view.count.toLocaleString('ja-JP')}件</strong>・合計 <strong>{formatMoney(view.total)}</strong>
            {view.problem_rows > 0 && <span className="ml-[8px] text-danger">（問題のある顧客 {view.problem_rows}件）</span>}
          </p>
          {view.company_problems.map((p) => <p key={p} role="alert" className="text-[1.3rem] text-danger">{p}</p>)}
          <DataTable
            caption="口座振替で引き落とす顧客"
            headers={[['顧客'], ['顧客番号'], ['銀行・支店'], ['預金種目'], ['口座番号'], ['口座名義カナ'], ['引落金額', true], ['問題']]}
            empty={view.rows.length === 0 && 'この締めに口座振替で引き落とす請求（残額のある口座振替の顧客）はありません。'}
          >
            {view.rows.map((r) => (
              <tr key={r.bl_id} className={clsx('h-row', r.problems.length > 0 && 'bg-danger/5')}>
                <th scope="row" className={clsx(cellClass, 'text-left font-medium')}><AppLink to={clientPath(r.cl_id)} className="text-brand hover:underline">{r.name}</AppLink></th>
                <td className={clsx(cellClass, 'tabular-nums')}>{r.debit_code}</td>
                <td className={clsx(cellClass, 'tabular-nums')}>{r.bank_code}{r.branch_code && `-${r.branch_code}`}</td>
                <td className={cellClass}>{typeText(r.account_type)}</td>
                <td className={clsx(cellClass, 'tabular-nums')}>{r.account_no}</td>
                <td className={cellClass}>{r.account_kana}</td>
                <td className={numberCellClass}>{formatMoney(r.amount)}</td>
                <td className={clsx(cellClass, 'text-danger')}>{r.problems.join('、')}</td>
              </tr>
            ))}
          </DataTable>
          {canWrite && (
            <button type="button" className={clsx(buttonClass('primary'), 'w-fit')} disabled={busy || blocked} onClick={() => void makeFile()}>
              {made ? '再発行としてダウンロード' : '依頼データをダウンロード'}
            </button>
          )}
          {problem && <p role="alert" className="whitespace-pre-line text-[1.3rem] text-danger">{problem}</p>}
          <DataTable caption="依頼データの作成履歴" headers={[['作成日時'], ['ファイル名'], ['引落日'], ['件数', true], ['合計', true], ['作成者'], ['振替結果']]} empty={view.requests.length === 0 && 'まだ依頼データを作成していません。'}>
            {view.requests.map((q) => (
              <tr key={q.jr_id} className="h-row">
                <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(q.created)}{q.reissue && <span className="ml-[6px] rounded-[4px] bg-warning/20 px-[4px] text-[1.2rem]">再発行</span>}</td>
                <td className={cellClass}>{q.file_name}</td>
                <td className={cellClass}>{formatDateJa(q.debit_date)}</td>
                <td className={numberCellClass}>{q.count.toLocaleString('ja-JP')}件</td>
                <td className={numberCellClass}>{formatMoney(q.total)}</td>
                <td className={cellClass}>{q.user_name}</td>
                <td className={cellClass}>{q.result_at ? `取込済（${formatDateTime(q.result_at)}）` : '未取込'}</td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </section>
  );
}

function ResultSection() {
  const failures = useJaccsFailures();
  const failed = failures.data ?? [];
  return (
    <section aria-labelledby="jaccs-result-title" className="flex flex-col gap-[10px]">
      <h2 id="jaccs-result-title" className="text-[1.7rem] font-bold text-ink">2. 結果取込</h2>
      <p className="text-[1.3rem] text-ink-soft">振替結果ファイル（全銀フォーマット 120 バイト）を選んで確認します。エラーがなければ「取込実行」で、振替済は口座振替の入金として請求書に消込し（追加）、振替不能は顧客に記録します（スキップ）。</p>
      <ImportPanel kind="jaccs_result" info={jaccsResultImportKind} onEnd={() => failures.mutate()} />
      <h3 className="text-[1.5rem] font-bold text-ink">振替不能（最後に取り込んだ結果）</h3>
      <DataTable caption="振替不能の顧客" headers={[['顧客'], ['顧客番号'], ['引落日'], ['金額', true], ['結果']]} empty={failed.length === 0 && '振替不能の顧客はありません。'}>
        {failed.map((f) => (
          <tr key={`${f.cl_id}-${f.debit_code}`} className="h-row">
            <th scope="row" className={clsx(cellClass, 'text-left font-medium')}><AppLink to={clientPath(f.cl_id)} className="text-brand hover:underline">{f.name}</AppLink></th>
            <td className={clsx(cellClass, 'tabular-nums')}>{f.debit_code}</td>
            <td className={cellClass}>{formatDateJa(f.debit_date)}</td>
            <td className={numberCellClass}>{formatMoney(f.amount)}</td>
            <td className={clsx(cellClass, 'text-danger')}>{f.code} {f.meaning}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

export default function JaccsScreen({ match }: ScreenProps) {
  const canWrite = useCanCall('jaccs_request');
  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);
  return (
    <section aria-labelledby="jaccs-title" className="flex flex-col gap-[20px] p-[16px]">
      <div>
        <h1 id="jaccs-title" className="text-[2rem] font-bold text-ink">{match.route.title}</h1>
        <p className="text-[1.3rem] text-ink-soft">締め処理の請求から口座振替の依頼データ（全銀フォーマット）を作り、銀行から戻った振替結果を取り込んで入金・消込します。依頼データを作った締めは締め戻しできません。</p>
      </div>
      <RequestSection canWrite={canWrite} />
      <ResultSection />
    </section>
  );
}
