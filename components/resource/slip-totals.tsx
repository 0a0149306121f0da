/**
 * A slip's totals per rate, live on a form before the save (the order form, the sales slip form): each bucket's 税抜
 * and tax, 小計, 消費税 and 合計 as `slipTotals` computes them (lib/client/slips/use-priced-lines). What a form adds
 * (the order's delivery fee) comes in as `children`, drawn before 小計; `notes` go under the table.
 */
import type { ReactNode } from 'react';
import { formatMoney } from '@/lib/format';
import type { MoneyTotals } from '@/lib/money/totals';

export interface SlipTotalsProps {
  totals: MoneyTotals;
  /** The totals are the slip's (every line priced); otherwise the amounts show 「—」. */
  countable: boolean;
  /** Why they cannot be computed, shown when a line (or the fee) is wrong. */
  invalidMessage?: string;
  children?: ReactNode;
  notes?: ReactNode;
}

export function SlipTotals({ totals, countable, invalidMessage, children, notes }: SlipTotalsProps) {
  return (
    <section aria-label="合計" className="ml-auto w-full max-w-[420px] rounded-[6px] border border-line bg-white p-[12px] text-[14px]">
      <dl className="grid grid-cols-[1fr_auto] gap-x-[16px] gap-y-[4px]">
        {countable && totals.rates.map((r) => (
          <div key={r.key} className="contents" data-testid={`rate-${r.key}`}>
            <dt>{r.label}</dt>
            <dd className="text-right tabular-nums">{formatMoney(r.net)}（税 {formatMoney(r.tax)}）</dd>
          </div>
        ))}
        {children}
        <dt>小計（税抜）</dt>
        <dd className="text-right tabular-nums" data-testid="net-total">{countable ? formatMoney(totals.net) : '—'}</dd>
        <dt>消費税</dt>
        <dd className="text-right tabular-nums" data-testid="tax-total">{countable ? formatMoney(totals.tax) : '—'}</dd>
        <dt className="font-bold">合計（税込）</dt>
        <dd className="text-right font-bold tabular-nums" data-testid="grand-total">{countable ? formatMoney(totals.total) : '—'}</dd>
      </dl>
      {invalidMessage && <p className="mt-[6px] text-[12px] text-danger">{invalidMessage}</p>}
      {notes}
    </section>
  );
}
