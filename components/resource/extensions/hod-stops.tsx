/**
 * 配送実績: what the round's stops add to the one lines editor — shorter column names (ボトル, 回収本数), stops
 * counted 「n件目」, and the totals row (stops, bottles delivered and collected, cash). The stops are saved with
 * the round (`hodreport_save` with `stops`), which books the bottles on the customers.
 */
import { isFilled } from '@/lib/client/list/child-rows';
import { formatMoney } from '@/lib/format';
import { toHalfWidth } from '@/lib/text';
import { LinesEditor } from '../lines-editor';
import type { LinesSectionProps } from './types';

const count = (text: string | undefined): number => Number(toHalfWidth(text ?? '').replaceAll(',', '')) || 0;

export function HodStops({ state, disabled, readOnly }: LinesSectionProps) {
  const filled = state.rows.filter((row) => isFilled(state.child, row));
  const sum = (name: string) => filled.reduce((total, row) => total + count(row.values[name]), 0);
  return (
    <LinesEditor state={state} disabled={disabled} readOnly={readOnly} counter="件目" labels={{ it_id: 'ボトル', collected: '回収本数' }} footer={
      <tr className="h-[40px] border-t border-line font-semibold">
        <td colSpan={3} className="px-[8px]">合計（{filled.length}件）</td>
        <td className="px-[8px] text-right tabular-nums">{sum('delivered')}本</td>
        <td className="px-[8px] text-right tabular-nums">{sum('collected')}本</td>
        <td className="px-[8px] text-right tabular-nums">{formatMoney(sum('cash'))}</td>
        <td colSpan={3} />
      </tr>
    } />
  );
}
