/**
 * 売上伝票: what the slip's lines add to the one lines editor — the stored 金額 as money and 税率 with its sign
 * (as the server fixed them at the slip date; a new or changed line shows them after 保存).
 */
import { formatMoney } from '@/lib/format';
import type { ChildRowsState } from '@/lib/client/list/use-child-rows';
import type { LinesExtras } from './types';

export const salesLines: LinesExtras = (_state: ChildRowsState) => ({
  derived: (row) => {
    const amount = row.stored?.sld_amount;
    const rate = row.stored?.sld_tax_rate;
    return {
      amount: amount === null || amount === undefined ? '' : formatMoney(Number(amount)),
      tax_rate: rate === null || rate === undefined ? '' : `${String(rate)}%`,
    };
  },
});
