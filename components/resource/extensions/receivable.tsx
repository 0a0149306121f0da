/**
 * Customer detail extension: the 売掛 summary (`sales_receivable`) — 売掛残高, the last payment and the oldest
 * slip not yet paid — for roles that read the 売上 area.
 */
import useSWR from 'swr';
import { formatMoney } from '@/lib/format';
import { callFetcher } from '@/lib/client/list/use-list-controller';
import { can } from '@/lib/permissions';
import type { ReceivableSummary } from '@/lib/resources/sales';
import { AppLink, useAreas } from '../shell-bridge';
import type { DetailExtensionProps } from './types';

export function Receivable({ id }: DetailExtensionProps) {
  const areas = useAreas();
  const readable = can(areas, 'sales', 'read');
  const { data, isLoading, error } = useSWR<ReceivableSummary[], Error>(readable ? (['sales_receivable', { cl_id: id }] as const) : null, callFetcher<ReceivableSummary>, { revalidateOnFocus: false });
  if (!readable) return null;
  const summary = data?.[0];
  return (
    <p className="text-[1.4rem] text-ink-soft" aria-label="売掛">
      {isLoading ? '売掛を確認しています…' : error || !summary ? '売掛を取得できませんでした。' : (
        <>
          <span className="mr-[12px] inline-block">売掛残高: <strong className="tabular-nums text-ink">{formatMoney(summary.balance)}</strong></span>
          <span className="mr-[12px] inline-block">
            最終入金: {summary.last_payment ? <span className="tabular-nums">{summary.last_payment.date} {formatMoney(summary.last_payment.amount)}</span> : 'なし'}
          </span>
          <span className="inline-block">
            最も古い未入金:{' '}
            {summary.oldest_unpaid ? (
              <AppLink to={`/sales/detail/${summary.oldest_unpaid.sl_id}`} className="font-medium text-brand underline-offset-2 hover:underline">
                {summary.oldest_unpaid.number}（{summary.oldest_unpaid.date}、未入金 {formatMoney(summary.oldest_unpaid.unpaid)}）
              </AppLink>
            ) : 'なし'}
          </span>
        </>
      )}
    </p>
  );
}
