/**
 * 売上伝票: the slip's lines priced live as the order form prices its own (lib/client/slips/use-priced-lines: the one
 * line computation, the customer's terms and the rate at the 売上日 the form holds) — an item chosen shows its name, the
 * customer's unit price and its class where the line leaves them empty (the save fills them so), each line's 金額 and
 * 税率, and the slip's totals per rate (`SlipTotals`) before 保存.
 */
import { useWatch } from 'react-hook-form';
import { usePricedLines } from '@/lib/client/slips/use-priced-lines';
import { LinesEditor } from '../lines-editor';
import { SlipTotals } from '../slip-totals';
import type { LinesSectionProps } from './types';

export function SalesLines({ state, disabled, readOnly, control }: LinesSectionProps) {
  const [clientId, date] = useWatch({ control, name: ['cl_id', 'date'] });
  const priced = usePricedLines(state.child, state.rows, clientId ?? '', date ?? '', '売上日');
  return (
    <>
      <LinesEditor state={priced.withItemReset(state)} disabled={disabled} readOnly={readOnly} derived={priced.derived} placeholder={priced.placeholder} />
      <SlipTotals totals={priced.totals} countable={priced.countable}
        invalidMessage={priced.invalid ? '明細に誤りがあるため、合計を計算できません。赤く表示された項目を直してください。' : undefined} />
    </>
  );
}
