/**
 * An order's delivery fee (送料), one rule for the server's save and the order form's live totals:
 * the fee of the shipping prefecture (/system/deliveryfee) when the order names none. The fee is
 * tax-exclusive (税抜) and taxed at the standard rate of the order date like any standard-rate line
 * (lib/orders/totals `orderTotalsWithFee`: a line of the standard rate, tax-inclusive for a 内税 customer).
 */
import { PREFECTURES, prefectureOfAddress } from '../prefectures';
import { SHIP_PARTS } from '../resources/order';
import { cellText } from '../resources/checks';

export interface DeliveryFee {
  /** JIS X 0401 code, e.g. `13`. */
  prefCode: string;
  prefName: string;
  /** 送料 (yen, tax-exclusive). */
  fee: number;
  /** 離島・遠隔地加算 (yen, tax-exclusive), charged on top of the fee for remote areas. */
  remoteFee: number;
  note: string;
}

/**
 * The prefecture a code (`13`, `1`, 13) or a name or address (`東京都`, `東京都千代田区…`) names.
 * @example prefectureOf('1') // { code: '01', name: '北海道' }
 */
export function prefectureOf(codeOrName: string | number): { code: string; name: string } | undefined {
  const text = String(codeOrName).normalize('NFKC').trim();
  if (/^\d{1,2}$/.test(text)) return PREFECTURES.find((p) => p.code === text.padStart(2, '0'));
  const name = prefectureOfAddress(text);
  return name ? PREFECTURES.find((p) => p.name === name) : undefined;
}

/** The fees by prefecture code from `delivery_fee` rows (`df_*` columns, as stored and as `deliveryfee_lst` answers). */
export function deliveryFeesOf(rows: readonly Record<string, unknown>[]): Map<string, DeliveryFee> {
  return new Map(rows.map((row) => [String(row.df_pref_code), {
    prefCode: String(row.df_pref_code),
    prefName: String(row.df_pref_name),
    fee: Number(row.df_fee ?? 0),
    remoteFee: Number(row.df_remote_fee ?? 0),
    note: cellText(row.df_note),
  }]));
}

/**
 * The fee of a prefecture (by JIS code, name or an address starting with it) among `fees`, or undefined
 * when the text names no prefecture or it has no fee.
 * @example feeIn(fees, '沖縄県') // { prefCode: '47', prefName: '沖縄県', fee: 1320, remoteFee: 1650, note: '…' }
 */
export function feeIn(fees: ReadonlyMap<string, DeliveryFee>, prefCodeOrName: unknown): DeliveryFee | undefined {
  const pref = prefCodeOrName === null || prefCodeOrName === undefined || prefCodeOrName === '' ? undefined : prefectureOf(cellText(prefCodeOrName));
  return pref && fees.get(pref.code);
}

/**
 * The customer's address (shipping_* when entered, else the main address) as an order's ship_* columns:
 * where a new order without a shipping address goes.
 * @example shippingOf({ cl_pref: '東京都', cl_shipping_pref: '' }).od_ship_pref // '東京都'
 */
export function shippingOf(client: Readonly<Record<string, unknown>>): Record<string, string> {
  const hasShipping = Boolean(client.cl_shipping_address || client.cl_shipping_pref || client.cl_shipping_city);
  const mainColumn = (part: string) => (part === 'tel' ? 'cl_tel_1' : `cl_${part}`);
  return Object.fromEntries(SHIP_PARTS.map((part) => [`od_ship_${part}`, cellText(client[hasShipping ? `cl_shipping_${part}` : mainColumn(part)])]));
}
