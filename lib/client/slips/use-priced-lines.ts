/**
 * A slip's lines priced live on a form, before the save (the order form, the sales slip form): each filled row as the
 * save will price it — the one line computation (lib/money/lines `priceLineOf`, the server's `priceLine`) with the
 * chosen customer's terms (`client_dtl` → `moneyTermsOf`) and the tax periods (`tax_lst`) at the slip's date — and
 * the slip's totals per rate (`slipTotals`). What the lines editor shows of it: each line's 金額, 税区分 and 税率
 * (`derived`), the item's name, the customer's unit price and the item's class where the line leaves them empty
 * (`placeholder`: the save fills them so), and a changed item clearing what the previous one filled (`withItemReset`).
 */
import { useEffect, useMemo, useState } from 'react';
import { formatMoney, todayJst } from '../../format';
import { isLineProblem, priceLineOf, type ItemPricing, type PricedLine } from '../../money/lines';
import { moneyTermsOf, slipTotals, type MoneyTerms, type MoneyTotals, type TaxedAmount } from '../../money/totals';
import { TAX_CLASS } from '../../resources/options';
import { checkForm, childSchema } from '../../resources/schema';
import type { ChildDef, FieldDef } from '../../resources/types';
import { formatRate, isTaxClass, rateOn, taxClassOf, taxPeriodOf, type TaxClass, type TaxPeriod } from '../../tax';
import { call } from '../api/fetcher';
import { isFilled, type ChildRow } from '../list/child-rows';
import { type Row } from '../list/use-list-controller';
import type { ChildRowsState } from '../list/use-child-rows';
import { useTaxRates } from '../data/masters';
import { useCall } from '../data/use-call';
import { cellText } from '../../resources/checks';

const SWR_ONCE = { revalidateOnFocus: false } as const;

/** The text of a tax class (標準税率, 軽減税率, 非課税, 不課税). */
export const taxClassText = (taxClass: TaxClass): string => TAX_CLASS.find((o) => o.value === taxClass)?.text ?? taxClass;

/** A line's 税率 as the lines show it: the percent, or the class for 非課税・不課税. */
const rateText = (taxClass: TaxClass, rate: number | undefined): string => (taxClass === 'exempt' || taxClass === 'outside' ? taxClassText(taxClass) : formatRate(rate));

export interface PricedLines {
  /** The chosen customer's money terms (the defaults before one is chosen). */
  terms: MoneyTerms;
  /** The customer row (`client_dtl`), once read. */
  client: Row | undefined;
  /** The tax periods read (`tax_lst`). */
  periods: readonly TaxPeriod[];
  /** The slip's date (the one typed, else today). */
  date: string;
  /** A filled row priced as the save will price it; undefined while its item is read, or when its inputs are wrong. */
  pricedOf: (row: ChildRow) => PricedLine | undefined;
  /** The priced lines' amounts, classes and rates (what `slipTotals` sums). */
  amounts: TaxedAmount[];
  /** A filled row's own check refuses it (the save would stop there): the totals cannot be computed. */
  invalid: boolean;
  /** Every filled row is priced (no wrong input, no item or tax rate still being read): the totals are the slip's. */
  countable: boolean;
  /** The lines' totals per rate in the customer's terms (`slipTotals`). */
  totals: MoneyTotals;
  /** What the derived columns show for a row: 金額, 税区分, 税率. */
  derived: (row: ChildRow) => Record<string, string>;
  /** The item's name, the customer's unit price of it and its class where the row leaves them empty. */
  placeholder: (row: ChildRow, field: FieldDef) => string | undefined;
  /** The rows' state with a changed item clearing the name, price and class the previous item gave. */
  withItemReset: (state: ChildRowsState) => ChildRowsState;
}


/**
 * @example const priced = usePricedLines(salesResource.children!, rows.rows, clientId, date, '売上日');
 */
export function usePricedLines(child: ChildDef, rows: readonly ChildRow[], clientId: string, typedDate: string, dateLabel: string): PricedLines {
  const p = child.prefix;
  const hasClass = child.fields.some((f) => f.name === 'tax_class');
  const client = useCall('client_dtl', clientId ? { id: clientId } : null, SWR_ONCE).data?.[0];
  const taxRows = useTaxRates().data;
  const periods = useMemo(() => (taxRows ?? []).flatMap((row) => taxPeriodOf(row) ?? []), [taxRows]);
  const terms = moneyTermsOf(client);
  const date = typedDate || todayJst();

  /** A stored row of the same item whose price (and class) are filled needs nothing more of its item than it stored. */
  const storedFacts = (row: ChildRow): ItemPricing | undefined => {
    const stored = row.stored;
    if (!stored || cellText(stored[`${p}it_id`]) !== row.values.it_id) return undefined;
    if (row.values.price?.trim() === '' || (hasClass && !row.values.tax_class)) return undefined;
    return { name: cellText(stored[`${p}name`]), price: Number(stored[`${p}price`] ?? 0), taxClass: taxClassOf(stored[`${p}tax_class`]) };
  };
  const [items, setItems] = useState<Record<string, ItemPricing>>({});
  const wantedKey = [...new Set(rows.filter((r) => r.values.it_id && !storedFacts(r)).map((r) => r.values.it_id))].filter((id) => !items[id]).join(',');
  useEffect(() => {
    if (!wantedKey) return;
    let live = true;
    void Promise.all(wantedKey.split(',').map(async (id) => [id, (await call('item_dtl', { id }))[0]] as const)).then((found) => {
      if (!live) return;
      setItems((now) => ({ ...now, ...Object.fromEntries(found.flatMap(([id, item]) => (item ? [[id, { price: item.it_price ?? 0, taxClass: taxClassOf(item.it_tax_class), name: cellText(item.it_name) }]] : []))) }));
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [wantedKey]);
  const factsOf = (row: ChildRow): ItemPricing | undefined => (row.values.it_id ? storedFacts(row) ?? items[row.values.it_id] : undefined);

  /** The row's class as typed (a sales line's 税区分), else null: the item's. */
  const typedClass = (row: ChildRow): TaxClass | null => (hasClass && isTaxClass(row.values.tax_class) ? row.values.tax_class : null);
  /** A row's typed values as the save converts them; undefined when its own check refuses them. */
  const checkedOf = (row: ChildRow) => {
    const checked = checkForm(childSchema(child), row.values);
    return checked.ok ? checked.values : undefined;
  };
  const pricedOf = (row: ChildRow): PricedLine | undefined => {
    const values = isFilled(child, row) && periods.length > 0 ? checkedOf(row) : undefined;
    const facts = factsOf(row);
    if (!values || (row.values.it_id && !facts)) return undefined;
    const priced = priceLineOf(facts, periods, terms, {
      itemId: row.values.it_id ? Number(row.values.it_id) : null,
      name: cellText(values.name),
      quantity: Number(values.quantity),
      price: values.price === null || values.price === undefined || values.price === '' ? null : Number(values.price),
      taxClass: typedClass(row),
    }, date, dateLabel);
    return isLineProblem(priced) ? undefined : priced;
  };
  const filled = rows.filter((row) => isFilled(child, row));
  const priced = filled.map(pricedOf);
  const amounts = priced.flatMap((line) => (line ? [{ amount: line.amount, taxClass: line.taxClass, taxRate: line.rate }] : []));
  const invalid = filled.some((row) => !checkedOf(row));

  const derived = (row: ChildRow): Record<string, string> => {
    if (!isFilled(child, row)) return { amount: '', tax_class: '', tax_rate: '' };
    const line = pricedOf(row);
    if (line) return { amount: formatMoney(line.amount), tax_class: taxClassText(line.taxClass), tax_rate: rateText(line.taxClass, line.rate) };
    const taxClass = typedClass(row) ?? factsOf(row)?.taxClass;
    return { amount: '—', tax_class: taxClass ? taxClassText(taxClass) : '', tax_rate: taxClass ? rateText(taxClass, rateOn(periods, taxClass, date)) : '' };
  };
  const placeholder = (row: ChildRow, field: FieldDef): string | undefined => {
    const facts = factsOf(row);
    if (!facts) return undefined;
    if (field.name === 'name') return facts.name;
    if (field.name === 'tax_class') return `${taxClassText(facts.taxClass)}（商品の税区分）`;
    if (field.name !== 'price') return undefined;
    const line = priceLineOf(facts, periods, terms, { itemId: Number(row.values.it_id), name: '', quantity: 1, price: null, taxClass: typedClass(row) }, date, dateLabel);
    return isLineProblem(line) ? undefined : String(line.price);
  };
  const withItemReset = (state: ChildRowsState): ChildRowsState => ({
    ...state,
    setRows: (next) => state.setRows(next.map((row) => {
      const before = state.rows.find((r) => r.key === row.key);
      return before && before.values.it_id !== row.values.it_id ? { ...row, values: { ...row.values, name: '', price: '', ...(hasClass ? { tax_class: '' } : {}) } } : row;
    })),
  });

  return { terms, client, periods, date, pricedOf, amounts, invalid, countable: !invalid && priced.every(Boolean), totals: slipTotals(amounts, terms), derived, placeholder, withItemReset };
}
