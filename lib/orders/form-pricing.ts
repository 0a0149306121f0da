/**
 * The order form's live money, before the save: the delivery fee the save will charge (the one typed, else the
 * shipping prefecture's — lib/orders/delivery-fee, as the server), its fee line (lib/orders/totals `feeLine`, as the
 * server derives it) and the order's totals with it (`orderTotalsWithFee`). The lines themselves are priced by the
 * one line computation (lib/money/lines `priceLineOf`, through the slips' `usePricedLines`); this only adds the fee.
 */
import type { MoneyTerms, MoneyTotals, TaxedAmount } from '../money/totals';
import { integerIn } from '../resources/checks';
import { SHIP_PARTS } from '../resources/order';
import { rateOn, type TaxPeriod } from '../tax';
import { feeIn, shippingOf, type DeliveryFee } from './delivery-fee';
import { feeLine, orderTotalsWithFee, type FeeLine } from './totals';
import { cellText } from '../resources/checks';

export interface OrderPricingInput {
  /** The priced lines' amounts (`usePricedLines().amounts`). */
  amounts: readonly TaxedAmount[];
  /** Every filled line is priced (`usePricedLines().countable`). */
  linesCountable: boolean;
  /** 送料 as typed ('' : the shipping prefecture's). */
  feeText: unknown;
  /** The ship_* inputs as typed, by part (SHIP_PARTS). */
  ship: Readonly<Record<string, unknown>>;
  /** The chosen customer's row (a new order without a shipping address ships to the customer's). */
  client: Readonly<Record<string, unknown>> | undefined;
  /** The order is not stored yet. */
  isNew: boolean;
  /** The fees by prefecture (`deliveryFeesOf`). */
  fees: ReadonlyMap<string, DeliveryFee>;
  periods: readonly TaxPeriod[];
  /** The order date (the one typed, else today). */
  date: string;
  terms: MoneyTerms;
}

export interface OrderPricing {
  /** The fee typed, trimmed ('' when the shipping prefecture's applies). */
  feeText: string;
  /** The prefecture the order ships to when no fee is typed ('' when none is known). */
  shipPref: string;
  /** The prefecture's fee, when no fee is typed and the prefecture has one. */
  prefFee: DeliveryFee | undefined;
  /** The fee the save charges (yen, tax-exclusive); undefined when the typed one is wrong. */
  fee: number | undefined;
  standardRate: number | undefined;
  /** The fee as the line the save stores after the typed lines (none for no fee). */
  feeLine: FeeLine | undefined;
  /** The order's totals with the fee line. */
  totals: MoneyTotals;
  /** The totals are the order's: every line is priced and the fee is right. */
  countable: boolean;
}

/**
 * @example orderPricing({ amounts: [{ amount: 2600, taxClass: 'reduced', taxRate: 8 }], linesCountable: true, feeText: '550', ship: {}, client: undefined, isNew: true, fees, periods, date: '2026-10-01', terms }).totals.total // 3413
 */
export function orderPricing(input: OrderPricingInput): OrderPricing {
  const feeText = cellText(input.feeText ?? '').trim();
  const shipEntered = SHIP_PARTS.some((part) => cellText(input.ship[part] ?? '').trim() !== '');
  const shipPref = shipEntered ? cellText(input.ship.pref ?? '') : input.isNew && input.client ? (shippingOf(input.client).od_ship_pref ?? '') : '';
  const prefFee = feeText === '' ? feeIn(input.fees, shipPref) : undefined;
  const fee = feeText === '' ? (prefFee?.fee ?? 0) : integerIn(feeText, 0, 9_999_999);
  const standardRate = rateOn(input.periods, 'standard', input.date);
  return {
    feeText,
    shipPref,
    prefFee,
    fee,
    standardRate,
    feeLine: fee ? feeLine(fee, standardRate ?? 0, input.terms) : undefined,
    totals: orderTotalsWithFee(input.amounts, fee ?? 0, standardRate ?? 0, input.terms),
    countable: input.linesCountable && fee !== undefined,
  };
}
