/**
 * What an order line's typed quantity and unit price may be: the same conversion (full-width digits
 * and commas to half-width) and the same messages on the order form, live, and in the server's save
 * (server/orders/pricing.ts `priceLines`). The two inputs are declared like any field, so the rules
 * are the generic field schema's (lib/resources/schema).
 */
import { checkForm, formSchema } from '../resources/schema';
import type { FieldDef } from '../resources/types';
import { cellText as text } from '../resources/checks';

export const LINE_QUANTITY = { name: 'quantity', label: '数量', type: 'number', tab: '', required: true, min: -99_999, max: 99_999 } as const satisfies FieldDef;
/** Empty = the customer's price of the item; up to two decimals (86.40円, lib/money/totals). */
export const LINE_PRICE = { name: 'price', label: '単価', type: 'decimal', scale: 2, tab: '', min: -9_999_999, max: 9_999_999 } as const satisfies FieldDef;

/** A line's quantity is never 0 (a return is negative): the rule of the order's child rows (lib/resources/order). */
export const lineCheck = (values: Record<string, unknown>): Record<string, string> | undefined =>
  values.quantity === 0 ? { quantity: '数量は0以外の整数で入力してください（返品は -1 のようにマイナスで入力します）。' } : undefined;

const lineSchema = formSchema([LINE_QUANTITY, LINE_PRICE], lineCheck);

export type CheckedLine =
  | { ok: true; quantity: number; /** null: the customer's price of the item. */ price: number | null }
  | { ok: false; fields: Partial<Record<'quantity' | 'price', string>> };

/**
 * A line's quantity and unit price as typed, converted and checked.
 * @example checkLine({ quantity: '２', price: '' }) // { ok: true, quantity: 2, price: null }
 * @example checkLine({ quantity: 'ab', price: '' }) // { ok: false, fields: { quantity: '数量は整数で入力してください。' } }
 */
export function checkLine(input: { quantity: unknown; price?: unknown }): CheckedLine {
  const checked = checkForm(lineSchema, { quantity: text(input.quantity), price: text(input.price) });
  if (!checked.ok) return { ok: false, fields: checked.fields };
  return { ok: true, quantity: Number(checked.values.quantity), price: checked.values.price === null || checked.values.price === undefined ? null : Number(checked.values.price) };
}
