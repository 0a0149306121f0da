/** Item detail extension: the consumption-tax rate its tax class has today, by lib/tax `rateOn`. */
import useSWR from 'swr';
import { todayJst } from '@/lib/format';
import { callFetcher, type Row } from '@/lib/client/list/use-list-controller';
import { TAX_CLASS } from '@/lib/resources/options';
import { formatRate, isTaxClass, rateOn, taxPeriodOf } from '@/lib/tax';
import { optionText } from '../cells';
import type { DetailExtensionProps } from './types';

export function ItemTaxRate({ record }: DetailExtensionProps) {
  const { data, error } = useSWR<Row[], Error>(['tax_lst', { n: 1000, p: 1, col: 'tx_valid_from', odr: 'asc', kw: '', postData: {} }] as const, callFetcher<Row>, {
    revalidateOnFocus: false,
  });
  const taxClass = record.it_tax_class;
  if (!isTaxClass(taxClass) || error) return null;
  const rate = data ? rateOn(data.flatMap((row) => taxPeriodOf(row) ?? []), taxClass, todayJst()) : undefined;
  return (
    <p className="text-[1.4rem] text-ink-soft">
      本日の税率（{optionText(TAX_CLASS, taxClass)}）: <strong className="tabular-nums text-ink">{data ? formatRate(rate) : '…'}</strong>
    </p>
  );
}
