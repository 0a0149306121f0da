/** Item detail extension: the consumption-tax rate its tax class has today, by lib/tax `rateOn`. */
import { todayJst } from '@/lib/format';
import { TAX_CLASS } from '@/lib/resources/options';
import { formatRate, isTaxClass, rateOn, taxPeriodOf } from '@/lib/tax';
import { optionText } from '../cells';
import type { DetailExtensionProps } from './types';
import { useTaxRates } from '@/lib/client/data/masters';

export function ItemTaxRate({ record }: DetailExtensionProps) {
  const { data, error } = useTaxRates();
  const taxClass = record.it_tax_class;
  if (!isTaxClass(taxClass) || error) return null;
  const rate = data ? rateOn(data.flatMap((row) => taxPeriodOf(row) ?? []), taxClass, todayJst()) : undefined;
  return (
    <p className="text-[1.4rem] text-ink-soft">
      本日の税率（{optionText(TAX_CLASS, taxClass)}）: <strong className="tabular-nums text-ink">{data ? formatRate(rate) : '…'}</strong>
    </p>
  );
}
