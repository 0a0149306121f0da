/**
 * 消込 (allocation, issue 12 "payment slips with 消込"): parts of a payment allocated to invoices (`allocation`,
 * `al_*`). What the calls answer and how a typed allocation amount is read — the same conversion and messages on the
 * payment screen, live, and in `payment_allocate` (server/sales/allocation.ts).
 */
import { PAYMENT_MAX } from '../resources/payment';
import { checkForm, formSchema } from '../resources/schema';
import type { FieldDef } from '../resources/types';

/** An allocation's amount: whole yen with the payment's sign (a refund allocates negative amounts). */
export const ALLOCATION_AMOUNT: FieldDef = { name: 'amount', label: '消込額', type: 'money', tab: '', required: true, min: -PAYMENT_MAX, max: PAYMENT_MAX };

/** The most invoices one payment is allocated to in one call. */
export const ALLOCATION_LINES_MAX = 200;

const amountSchema = formSchema([ALLOCATION_AMOUNT], (values) =>
  values.amount === 0 ? { amount: '消込額に0円は指定できません。消込をやめるときは行を削除してください。' } : undefined);

/**
 * A typed allocation amount, converted (full-width digits, commas, 円) and checked.
 * @example allocationAmount('１,２００') // { ok: true, amount: 1200 }
 * @example allocationAmount('1.5') // { ok: false, message: '消込額は整数で入力してください。' }
 */
export function allocationAmount(value: unknown): { ok: true; amount: number } | { ok: false; message: string } {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const checked = checkForm(amountSchema, { amount: text });
  return checked.ok ? { ok: true, amount: Number(checked.values.amount) } : { ok: false, message: checked.fields.amount ?? checked.message };
}

/** One allocation as `allocation_lst` answers it: the invoice and the payment it joins, and who made it. */
export interface AllocationRow {
  al_id: number;
  al_bl_id: number;
  al_py_id: number;
  al_amount: number;
  created: string;
  user_name: string;
  bl_number: string;
  bl_sime_ym: string;
  bl_closing_date: string;
  bl_total: number;
  bl_open: number;
  py_date: string;
  py_kind: string;
  py_amount: number;
}

/** A payment's allocations after `payment_allocate` / `allocation_del`: 消込済 and 未消込 (amount − allocated). */
export interface PaymentAllocation {
  py_id: number;
  amount: number;
  allocated: number;
  unallocated: number;
  /** The payment's new `modified` (an allocation changes it: the next allocation names it). */
  modified: string;
  allocations: AllocationRow[];
}

/**
 * 消込済 and 未消込 of a payment from its allocations.
 * @example allocationTotals(5000, [{ al_amount: 3000 }]) // { allocated: 3000, unallocated: 2000 }
 */
export function allocationTotals(amount: number, rows: readonly Pick<AllocationRow, 'al_amount'>[]): { allocated: number; unallocated: number } {
  const allocated = rows.reduce((sum, r) => sum + r.al_amount, 0);
  return { allocated, unallocated: amount - allocated };
}
