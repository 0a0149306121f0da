/**
 * 入金伝票: every write re-computes the customer's 売掛残高 (server/sales/ledger.ts) in the same transaction —
 * the new customer's and, when the slip moved to another customer, the old one's (once per batch, `afterBatch`). A payment an invoice took
 * (`py_bli_id`, set by closing) is neither changed nor deleted (`paymentBilledRefusal`); one dated in a period closed
 * already is accepted and billed by the next closing (server/closing/closed.ts, the same rule as the sales slips). A payment
 * allocated to invoices (消込, server/sales/allocation.ts) keeps its amount and customer and is not deleted: the
 * refusal names the invoices.
 */
import type { Transaction } from 'kysely';
import { formatMoney } from '../../lib/format';
import { shareClosingLock } from '../closing';
import { locking } from '../db/concurrency';
import type { Database } from '../db/schema';
import { badRequest } from '../http/api-error';
import { allocatedRefusal } from './allocation';
import { recomputeReceivables } from './ledger';
import type { ResourcePolicy } from '../resources';

const empty = (value: unknown): boolean => value === null || value === undefined || value === '';

/** Refuses when the payment is allocated; the payment row is locked first, so an allocation running now is seen. */
async function refuseAllocated(trx: Transaction<Database>, paymentId: number, what: string, fields: readonly string[]): Promise<void> {
  await locking(trx, trx.selectFrom('payment').select('py_id').where('py_id', '=', paymentId), 'update').execute();
  const message = await allocatedRefusal(trx, paymentId, what);
  if (message) throw badRequest(message, { fields: Object.fromEntries(fields.map((f) => [f, message])) });
}

/**
 * Why a payment may not change: closing took it into an invoice (`py_bli_id`). Its save and delete ask it.
 * @example await paymentBilledRefusal(trx, 12) // ApiError 400 「入金伝票（2025-05-10 10,000円）は請求済みのため…（請求書 BL202505-000031）…」
 */
export async function paymentBilledRefusal(trx: Transaction<Database>, paymentId: number): Promise<Error | undefined> {
  const row = await trx.selectFrom('payment').leftJoin('billing', 'billing.bl_id', 'payment.py_bli_id')
    .select(['py_date', 'py_amount', 'py_bli_id', 'bl_number']).where('py_id', '=', paymentId).executeTakeFirst();
  if (!row || empty(row.py_bli_id)) return undefined;
  const invoice = empty(row.bl_number) ? `ID ${String(row.py_bli_id)}` : String(row.bl_number);
  return badRequest(`入金伝票（${row.py_date} ${formatMoney(Number(row.py_amount))}）は請求済みのため変更・削除できません（請求書 ${invoice}）。訂正は新しい入金伝票で登録してください（返金はマイナスの金額）。`);
}

export const paymentPolicy: ResourcePolicy = {
  async prepareBatch({ trx }) {
    await shareClosingLock(trx);
  },
  async beforeSave({ trx, id, current, columns }) {
    if (current) {
      const billed = await paymentBilledRefusal(trx, Number(current.py_id));
      if (billed) throw billed;
    }
    if (id === undefined || !current) return;
    const changed = (['py_amount', 'py_cl_id'] as const).filter((c) => columns[c] !== undefined && Number(columns[c]) !== Number(current[c]));
    if (changed.length > 0) await refuseAllocated(trx, id, '金額・顧客を変更', changed.map((c) => c.slice('py_'.length)));
  },
  /** The customers' 売掛残高 for the whole batch in a few statements (a JACCS result's 20,000 slips as one slip). */
  async afterBatch({ trx, current, written }) {
    await recomputeReceivables(trx, [...written.map((w) => w.row.py_cl_id), ...current.map((row) => row?.py_cl_id)]);
  },
  async beforeDelete({ trx, id }) {
    await shareClosingLock(trx);
    const billed = await paymentBilledRefusal(trx, id);
    if (billed) throw billed;
    await refuseAllocated(trx, id, '削除', []);
  },
  async afterDelete({ trx, current }) {
    await recomputeReceivables(trx, [current.py_cl_id]);
  },
};
