/** Customer detail extension: bottles held now and deposits taken, per returnable item (`bottle_balance`). */
import useSWR from 'swr';
import { formatMoney } from '@/lib/format';
import { callFetcher } from '@/lib/client/list/use-list-controller';
import type { BottleBalance } from '@/lib/resources/bottle';
import type { DetailExtensionProps } from './types';

export function BottleBalance({ id }: DetailExtensionProps) {
  const { data, isLoading, error } = useSWR<BottleBalance[], Error>(['bottle_balance', { cl_id: id }] as const, callFetcher<BottleBalance>, { revalidateOnFocus: false });
  const rows = data ?? [];
  return (
    <p className="text-[1.4rem] text-ink-soft" aria-label="預けボトル">
      {isLoading
        ? '預けボトルを確認しています…'
        : error
          ? '預けボトルを取得できませんでした。'
          : rows.length === 0
            ? '預けボトルはありません'
            : rows.map((b) => (
                <span key={b.bt_it_id} className="mr-[12px] inline-block">
                  預けボトル（{b.it_name}）: <strong className="tabular-nums text-ink">{b.bt_held}本</strong>
                  <span className="ml-[6px] text-muted">保証金 {formatMoney(b.deposit_total)}・最終 {b.last_date}</span>
                </span>
              ))}
    </p>
  );
}
