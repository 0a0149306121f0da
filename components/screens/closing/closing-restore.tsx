/**
 * 締め戻し (/restore): the closings (`closing_lst`, newest first, narrowed to one group if chosen) and 「締め戻し」 on the
 * latest closing of each group — only the last one of a group can be undone. A closing the server will not restore
 * says why (`refusal`: a later closing, payments allocated to its invoices, a direct-debit request or an accounting
 * export made from it) and links each invoice, payment or file that blocks it (`blockers`); `closing_restore` refuses
 * the same way, and its reason is shown as given.
 */
import clsx from 'clsx';
import { useMemo, useState } from 'react';
import { call } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { formatDateJa, formatDateTime, formatMoney, monthLabel } from '@/lib/format';
import { filteredListPathOf } from '@/lib/list/resource-paths';
import { billingResource } from '@/lib/resources/billing';
import { CLOSING_DAY } from '@/lib/resources/options';
import { latestOfGroups, type ClosingListRow } from '@/lib/closing/answers';
import { closingGroupLabel, closingLabel } from '@/lib/closing/period';
import { cellClass, DataTable, numberCellClass } from '@/components/resource/data-table';
import { useConfirmedAction } from '@/components/resource/job-progress';
import { AppLink, useAlert, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import { WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useClosings } from '@/lib/client/data/closing';
import { useCanCall } from '@/lib/client/auth/use-can-call';

const label = (c: Pick<ClosingListRow, 'sime_gp' | 'sime_ym'>): string => closingLabel(c.sime_gp, c.sime_ym);

export default function ClosingRestoreScreen({ match }: ScreenProps) {
  const [gp, setGp] = useState('');
  const { data, error, isLoading, mutate } = useClosings(gp ? { sime_gp: gp } : {});
  const rows = useMemo(() => data ?? [], [data]);
  const latest = useMemo(() => latestOfGroups(rows), [rows]);
  const canWrite = useCanCall('closing_restore');
  const confirmed = useConfirmedAction();
  const alert = useAlert();
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  useLoadingWhile(isLoading || busy);

  const restore = (row: ClosingListRow) => confirmed(
    `${label(row)}の締め処理（請求書 ${row.invoices.toLocaleString('ja-JP')}件、今回請求額の合計 ${formatMoney(row.total)}）を取り消します。請求書は削除され、売上伝票と入金伝票は再び変更できるようになります。発行済みの請求書は「取消」として保存に残り、締め直すと「修正」の請求書になります。`,
    { title: '締め戻し', confirmLabel: '締め戻す', danger: true },
    async () => {
      setBusy(true);
      try {
        const [done] = await call('closing_restore', { sime_gp: row.sime_gp, sime_ym: row.sime_ym, reason });
        const cancelled = done && done.cancelled > 0 ? `、発行済み ${done.cancelled.toLocaleString('ja-JP')}件は取消として保存` : '';
        alert(`${label(row)}の締め処理を取り消しました（請求書 ${row.invoices.toLocaleString('ja-JP')}件を削除${cancelled}）。`, 'success');
        setReason('');
      } finally {
        setBusy(false);
        await mutate();
      }
    },
  );

  return (
    <WorkScreen id="closing-restore-title" title={match.route.title} intro="締日ごとに最後に行った締め処理だけを取り消せます。後の月が締められている、請求書に入金が消込されている、口座振替の依頼や会計データの出力をしたときは取り消せません。">
      <label className="flex w-fit flex-col gap-[4px] text-[1.3rem]">
        締日
        <select value={gp} onChange={(e) => setGp(e.target.value)} className={inputClass}>
          <option value="">すべて</option>
          {CLOSING_DAY.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
        </select>
      </label>
      {canWrite && (
        <label className="flex max-w-[640px] flex-col gap-[4px] text-[1.3rem]">
          締め戻しの理由
          <input value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} className={inputClass} placeholder="例: 単価の入力誤りを訂正するため" />
          <span className="text-[1.2rem] text-ink-soft">発行済みの請求書を取り消す理由として保存されます（電子帳簿保存法）。空欄のときは「○年○月 ○日締めの締め戻し」と記録します。</span>
        </label>
      )}
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      <DataTable
        caption="締め処理の一覧"
        headers={[['締め年月'], ['締日'], ['締め日'], ['請求書', true], ['今回請求額の合計', true], ['実行日時'], ['実行者'], ['締め戻し']]}
        empty={isLoading ? '読み込み中…' : rows.length === 0 && 'まだ締め処理はありません。'}
      >
        {rows.map((row) => {
          const path = filteredListPathOf(billingResource, { sime_ym: row.sime_ym, sime_gp: [row.sime_gp] });
          return (
            <tr key={row.cls_id} className="h-row">
              <th scope="row" className={clsx(cellClass, 'text-left font-medium')}>{monthLabel(row.sime_ym)}</th>
              <td className={cellClass}>{closingGroupLabel(row.sime_gp)}</td>
              <td className={clsx(cellClass, 'whitespace-nowrap')}>{formatDateJa(row.closing_date)}</td>
              <td className={numberCellClass}>
                {path ? <AppLink to={path} className="text-brand underline-offset-2 hover:underline">{row.invoices.toLocaleString('ja-JP')}件</AppLink> : `${row.invoices.toLocaleString('ja-JP')}件`}
              </td>
              <td className={numberCellClass}>{formatMoney(row.total)}</td>
              <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(row.created)}</td>
              <td className={cellClass}>{row.user_name}</td>
              <td className={cellClass}>
                {latest.has(row.cls_id) && (
                  <div className="flex flex-col gap-[4px]">
                    {canWrite && (
                      <button type="button" className={clsx(buttonClass('danger', 'sm'), 'w-fit')} disabled={busy || !row.restorable} aria-label={`${label(row)}を締め戻す`}
                        aria-describedby={!row.restorable && row.refusal ? `restore-refusal-${row.cls_id}` : undefined} onClick={() => void restore(row)}>
                        締め戻し
                      </button>
                    )}
                    {!row.restorable && row.refusal && <p id={`restore-refusal-${row.cls_id}`} className="text-[1.2rem] text-danger">{row.refusal}</p>}
                    {!row.restorable && row.blockers.length > 0 && (
                      <ul aria-label={`${label(row)}の締め戻しを止めているもの`} className="flex flex-wrap gap-x-[10px] gap-y-[2px] text-[1.2rem]">
                        {row.blockers.map((b, i) => (
                          <li key={`${b.kind}-${b.link}-${i}`}><AppLink to={b.link} className="text-brand underline-offset-2 hover:underline">{b.label}</AppLink></li>
                        ))}
                      </ul>
                    )}
                  </div>
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>
    </WorkScreen>
  );
}
