/**
 * Customer detail extension: the 売掛 summary (`sales_receivable`) — 売掛残高 (and the billing group's, when the
 * customer is a 請求先 with delivery sites or a site of one), the last payment and the oldest slip not yet paid —
 * for roles that read the 売上 area.
 */
import { formatMoney } from '@/lib/format';
import { useReceivable } from '@/lib/client/sales/use-receivable';
import { openItemPath, type ReceivableSummary } from '@/lib/resources/sales';
import { AppLink } from '../shell-bridge';
import type { DetailExtensionProps } from './types';
import { useCanCall } from '@/lib/client/auth/use-can-call';
import { cellText } from '../../../lib/resources/checks';

/** 「請求先「本社」の売掛残高（納品先 2件を含む）: 51,840円」, or nothing for a customer billed on its own. */
export function BillingBalance({ summary }: { summary: ReceivableSummary }) {
  const { billing } = summary;
  if (!billing) return null;
  const whose = billing.cl_id === summary.cl_id ? '請求先合計' : `請求先「${billing.name}」`;
  return (
    <span className="mr-[12px] inline-block">
      {whose}の売掛残高（納品先 {billing.sites}件を含む）: <strong className="tabular-nums text-ink">{formatMoney(billing.balance)}</strong>
    </span>
  );
}

export function Receivable({ id, record }: DetailExtensionProps) {
  const readable = useCanCall('sales_receivable');
  const { summary, isLoading, error } = useReceivable(id, readable, cellText(record.modified ?? ''));
  if (!readable) return null;
  return (
    <p className="text-[1.4rem] text-ink-soft" aria-label="売掛">
      {isLoading ? '売掛を確認しています…' : error || !summary ? '売掛を取得できませんでした。' : (
        <>
          <span className="mr-[12px] inline-block">売掛残高: <strong className="tabular-nums text-ink">{formatMoney(summary.balance)}</strong></span>
          <BillingBalance summary={summary} />
          <span className="mr-[12px] inline-block">
            最終入金: {summary.last_payment ? <span className="tabular-nums">{summary.last_payment.date} {formatMoney(summary.last_payment.amount)}</span> : 'なし'}
          </span>
          <span className="inline-block">
            最も古い未入金:{' '}
            {summary.oldest_unpaid ? (
              <AppLink to={openItemPath(summary.oldest_unpaid)} className="font-medium text-brand underline-offset-2 hover:underline">
                {summary.oldest_unpaid.number}（{summary.oldest_unpaid.date}、未入金 {formatMoney(summary.oldest_unpaid.unpaid)}）
              </AppLink>
            ) : 'なし'}
          </span>
        </>
      )}
    </p>
  );
}
