/**
 * 入金伝票: every write re-computes the customer's 売掛残高 (server/sales/ledger.ts) in the same transaction —
 * the new customer's and, when the slip moved to another customer, the old one's.
 */
import { recomputeReceivables } from '../../sales/ledger';
import type { ResourcePolicy } from '../policy';

export const paymentPolicy: ResourcePolicy = {
  async afterSave({ trx, saved, current }) {
    await recomputeReceivables(trx, [saved.py_cl_id, current?.py_cl_id]);
  },
  async afterDelete({ trx, current }) {
    await recomputeReceivables(trx, [current.py_cl_id]);
  },
};
