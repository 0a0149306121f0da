/** Customer detail extension: bottles held now and deposits taken, per returnable item (`bottle_balance`). */
import { formatMoney } from '@/lib/format';
import type { BottleBalance } from '@/lib/resources/bottle';
import type { DetailExtensionProps } from './types';
import { useBottleBalance } from '@/lib/client/data/delivery';

export function BottleBalance({ id }: DetailExtensionProps) {
  const { data, isLoading, error } = useBottleBalance(id);
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
