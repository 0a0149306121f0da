/** Customer detail extension: the customer's latest order (`order_lst` with cl_id, n=1, p=1). */
import useSWR from 'swr';
import { callFetcher } from '@/lib/list/use-list-controller';
import { AppLink } from '../shell-bridge';
import type { DetailExtensionProps } from './types';

export function LastOrder({ id }: DetailExtensionProps) {
  const { data, isLoading, error } = useSWR(
    ['order_lst', { cl_id: id, n: 1, p: 1, col: 'od_id', odr: 'desc', kw: '', postData: {} }] as const,
    callFetcher<{ od_id?: number | string }>,
    { revalidateOnFocus: false },
  );
  const odId = data?.[0]?.od_id;
  return (
    <p className="text-[1.4rem] text-ink-soft">
      {isLoading ? (
        '最新の受注を確認しています…'
      ) : error ? (
        '最新の受注を取得できませんでした。'
      ) : odId !== undefined && odId !== null ? (
        <AppLink to={`/orders/detail/${odId}`} className="font-medium text-brand underline-offset-2 hover:underline">
          最新の受注: #{String(odId)}
        </AppLink>
      ) : (
        '受注はまだありません'
      )}
    </p>
  );
}
