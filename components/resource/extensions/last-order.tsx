/**
 * Customer detail extension: the customer's latest order by its number (`order_lst` with cl_id, n=1,
 * p=1, newest order date first — the same order 「前回の受注」 of a new order names).
 */
import { AppLink } from '../shell-bridge';
import type { DetailExtensionProps } from './types';
import { useCall } from '@/lib/client/data/use-call';

export function LastOrder({ id }: DetailExtensionProps) {
  const { data, isLoading, error } = useCall(
    'order_lst',
    { cl_id: id, n: 1, p: 1, col: 'od_date', odr: 'desc', kw: '', postData: {} },
    { revalidateOnFocus: false },
  );
  const latest = data?.[0] as { od_id?: number | string; od_number?: string; od_date?: string } | undefined;
  return (
    <p className="text-[1.4rem] text-ink-soft">
      {isLoading ? (
        '最新の受注を確認しています…'
      ) : error ? (
        '最新の受注を取得できませんでした。'
      ) : latest?.od_id !== undefined && latest.od_id !== null ? (
        <>
          <AppLink to={`/orders/detail/${latest.od_id}`} className="font-medium text-brand underline-offset-2 hover:underline">
            最新の受注: {latest.od_number || '（番号なし）'}
          </AppLink>
          {latest.od_date && <span className="ml-[6px] tabular-nums">（{latest.od_date}）</span>}
        </>
      ) : (
        '受注はまだありません'
      )}
    </p>
  );
}
