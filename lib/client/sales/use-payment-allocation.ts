/**
 * 消込 of one saved payment (the payment detail's panel): its allocations (`allocation_lst`), 消込済 and 未消込, the
 * invoices it may still go to — the open invoices of its billing customer with the payment's sign (`billing_lst`),
 * and those it is allocated to — and the three changes: `auto` (the rest to the oldest open invoices), `save` (the
 * amounts per invoice, replacing the allocations) and `remove` (one allocation). Each sends the payment's `modified`
 * as the screen read it where the call asks it, and afterwards refreshes the payment (its version moved), the
 * invoices and the customer's 売掛.
 */
import { useCallback, useMemo, useState } from 'react';
import { useSWRConfig } from 'swr';
import { call } from '@/lib/client/api/fetcher';
import { messageOf, type Row } from '@/lib/client/list/use-list-controller';
import { refusalOf, type Refusal } from '@/lib/client/list/save-refusal';
import { useReceivable } from '@/lib/client/sales/use-receivable';
import { allocationTotals, type PaymentAllocation } from '@/lib/sales/allocation';
import { useCall } from '@/lib/client/data/use-call';
import { cellText } from '../../resources/checks';

/** An invoice the payment may be allocated to: what it still lacks beside this payment (`room`) and this payment's part. */
export interface AllocationCandidate {
  bl_id: number;
  bl_number: string;
  bl_sime_ym: string;
  bl_total: number;
  /** 残額 + this payment's allocation: the most this payment may take of it. */
  room: number;
  /** This payment's allocation to it (0 when none). */
  mine: number;
}

export type AllocationOutcome = { ok: true; answer: PaymentAllocation } | ({ ok: false } & Refusal);

/** The open invoices asked at once (oldest first); more are rare and reached through the invoice list. */
export const CANDIDATES_MAX = 100;

export function usePaymentAllocation(paymentId: string, record: Row, readable: boolean) {
  const { mutate } = useSWRConfig();
  const amount = Number(record.py_amount ?? 0);
  const sign = Math.sign(amount);
  const allocations = useCall('allocation_lst', readable ? { py_id: paymentId } : null, { revalidateOnFocus: false });
  const rows = useMemo(() => allocations.data ?? [], [allocations.data]);
  const { summary } = useReceivable(cellText(record.py_cl_id ?? ''), readable, cellText(record.modified ?? ''));
  const billingId = summary ? (summary.billing?.cl_id ?? summary.cl_id) : undefined;
  const openQuery = readable && billingId !== undefined && sign !== 0
    ? { n: CANDIDATES_MAX, p: 1, col: 'bl_sime_ym', odr: 'asc', postData: JSON.stringify({ cl_id: String(billingId), open: sign > 0 ? ['1', ''] : ['', '-1'] }) }
    : null;
  const open = useCall('billing_lst', openQuery, { revalidateOnFocus: false });
  const [busy, setBusy] = useState(false);

  const candidates = useMemo((): AllocationCandidate[] => {
    const byId = new Map<number, AllocationCandidate>();
    for (const r of rows) {
      byId.set(r.al_bl_id, { bl_id: r.al_bl_id, bl_number: r.bl_number, bl_sime_ym: r.bl_sime_ym, bl_total: r.bl_total, room: r.bl_open + r.al_amount, mine: r.al_amount });
    }
    for (const r of open.data ?? []) {
      const id = r.bl_id;
      if (!byId.has(id)) byId.set(id, { bl_id: id, bl_number: cellText(r.bl_number ?? ''), bl_sime_ym: cellText(r.bl_sime_ym ?? ''), bl_total: r.bl_total ?? 0, room: r.bl_open ?? 0, mine: 0 });
    }
    return [...byId.values()].sort((a, b) => a.bl_sime_ym.localeCompare(b.bl_sime_ym) || a.bl_id - b.bl_id);
  }, [rows, open.data]);

  /** After a change: this payment (its `modified` moved), its and the invoices' allocations, the invoices, 売掛. */
  const refresh = useCallback(
    () => mutate((k) => {
      if (!Array.isArray(k) || typeof k[0] !== 'string') return false;
      const name = k[0];
      if (name === 'payment_dtl') return String((k[1] as { id?: unknown } | undefined)?.id) === paymentId;
      return name === 'allocation_lst' || name === 'sales_receivable' || name.startsWith('billing_') || name.startsWith('payment_');
    }),
    [mutate, paymentId],
  );

  const run = useCallback(async (work: () => Promise<PaymentAllocation[]>): Promise<AllocationOutcome> => {
    setBusy(true);
    try {
      const [answer] = await work();
      await refresh();
      return { ok: true, answer };
    } catch (error) {
      return { ok: false, ...refusalOf(error) };
    } finally {
      setBusy(false);
    }
  }, [refresh]);

  const modified = cellText(record.modified ?? '');
  const auto = useCallback(() => run(() => call('payment_allocate', { py_id: paymentId, modified, auto: 1 })), [run, paymentId, modified]);
  const save = useCallback(
    (lines: readonly { bl_id: number; amount: string }[]) =>
      run(() => call('payment_allocate', { py_id: paymentId, modified, postData: JSON.stringify({ lines }) })),
    [run, paymentId, modified],
  );
  const remove = useCallback((allocationId: number) => run(() => call('allocation_del', { al_id: allocationId })), [run]);

  return {
    rows,
    isLoading: allocations.isLoading,
    error: allocations.error ? messageOf(allocations.error) : undefined,
    amount,
    ...allocationTotals(amount, rows),
    candidates,
    candidatesError: open.error ? messageOf(open.error) : undefined,
    busy,
    auto,
    save,
    remove,
  };
}
