/**
 * Payment screen panel (/payment/new, /payment/detail/{pay}): once a customer is chosen, its 売掛残高 (the billing
 * group's when it bills delivery sites) and what is still open, oldest first — once billed, the latest invoice (which
 * carries the earlier ones), then the slips not billed yet, less the payments since (`sales_receivable` open_items). A
 * site of a 請求先 is named: payments belong on the 請求先.
 */
import { useWatch } from 'react-hook-form';
import { formatMoney } from '@/lib/format';
import { useReceivable } from '@/lib/client/sales/use-receivable';
import { OPEN_ITEMS_MAX, openItemPath } from '@/lib/resources/sales';
import { AppLink } from '../shell-bridge';
import { BillingBalance } from './receivable';
import type { FormPanelProps } from './types';
import { useCanCall } from '@/lib/client/auth/use-can-call';
import { cellText } from '../../../lib/resources/checks';

export function OpenItems({ control, record }: FormPanelProps) {
  const clientId = String(useWatch({ control, name: 'cl_id' }) ?? '');
  const readable = useCanCall('sales_receivable');
  const { summary, isLoading, error } = useReceivable(clientId, readable, cellText(record?.modified ?? ''));
  if (!readable) return null;
  const grouped = Boolean(summary?.billing);
  return (
    <section aria-labelledby="open-items-title" className="flex flex-col gap-[8px] rounded-[6px] border border-line bg-surface px-[16px] py-[10px]">
      <h2 id="open-items-title" className="text-[1.6rem] font-bold text-ink">売掛残高と未入金の請求・伝票</h2>
      {!clientId ? (
        <p className="text-[1.4rem] text-ink-soft">顧客を選ぶと、売掛残高と未入金の請求・伝票を表示します。</p>
      ) : isLoading ? (
        <p className="text-[1.4rem] text-ink-soft">売掛を確認しています…</p>
      ) : error || !summary ? (
        <p className="text-[1.4rem] text-danger">売掛を取得できませんでした。</p>
      ) : (
        <>
          <p className="text-[1.4rem] text-ink-soft" aria-label="売掛残高">
            <span className="mr-[12px] inline-block">売掛残高: <strong className="tabular-nums text-ink">{formatMoney(summary.billing?.balance ?? summary.balance)}</strong></span>
            <BillingBalance summary={summary} />
            {summary.last_payment && <span className="inline-block">最終入金: <span className="tabular-nums">{summary.last_payment.date} {formatMoney(summary.last_payment.amount)}</span></span>}
          </p>
          {summary.billing && summary.billing.cl_id !== summary.cl_id && (
            <p className="text-[1.3rem] text-warning">この顧客は「{summary.billing.name}」に請求される納品先です。入金は請求先の顧客に登録してください。</p>
          )}
          {summary.open_items.length === 0 ? (
            <p className="text-[1.4rem] text-ink-soft">未入金の請求・伝票はありません。</p>
          ) : (
            <table className="w-full text-[1.3rem]" aria-label="未入金の請求・伝票">
              <thead>
                <tr className="border-b border-line text-left text-ink-soft">
                  <th scope="col" className="py-[4px]">請求・伝票番号</th>
                  <th scope="col">日付（請求は締め日）</th>
                  {grouped && <th scope="col">顧客</th>}
                  <th scope="col" className="text-right">合計金額</th>
                  <th scope="col" className="text-right">未入金</th>
                </tr>
              </thead>
              <tbody>
                {summary.open_items.map((item) => (
                  <tr key={openItemPath(item)} className="border-b border-line">
                    <td className="py-[4px]">
                      {item.kind === 'invoice' && <span className="mr-[4px] text-ink-soft">請求</span>}
                      <AppLink to={openItemPath(item)} className="text-brand underline-offset-2 hover:underline">{item.number}</AppLink>
                    </td>
                    <td className="tabular-nums">{item.date}</td>
                    {grouped && <td>{item.client_name}</td>}
                    <td className="text-right tabular-nums">{formatMoney(item.total)}</td>
                    <td className="text-right tabular-nums">{formatMoney(item.unpaid)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {summary.open_items.length >= OPEN_ITEMS_MAX && <p className="text-[1.2rem] text-muted">古い順に {OPEN_ITEMS_MAX}件まで表示しています。</p>}
        </>
      )}
    </section>
  );
}
