/**
 * 請求書への消込 under a saved payment (/payment/detail/{pay}): 入金額・消込済・未消込 (what is not allocated stays
 * with the customer as credit), the invoices the payment is allocated to with 「取消」 each, 「自動消込」 (the rest to
 * the oldest open invoices) and 「手動で消込」: an amount per open invoice of the billing customer, saved at once.
 * Logic in lib/client/sales/use-payment-allocation.ts; the amounts are read and checked as the server does
 * (lib/sales/allocation.ts `allocationAmount`).
 */
import clsx from 'clsx';
import { useState } from 'react';
import { formatDateTime, formatMoney, monthLabel } from '@/lib/format';
import { detailPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import { billingResource } from '@/lib/resources/billing';
import { allocationAmount } from '@/lib/sales/allocation';
import { usePaymentAllocation, type AllocationCandidate, type AllocationOutcome } from '@/lib/client/sales/use-payment-allocation';
import { useConfirm } from '@/components/ui';
import { cellClass, DataTable, numberCellClass } from '../data-table';
import { AppLink, useAlert, useAreas } from '../shell-bridge';
import { buttonClass, inputClass } from '../styles';
import type { DetailExtensionProps } from './types';

const monthOf = (ym: string): string => (/^\d{6}$/.test(ym) ? monthLabel(ym) : ym);

/** The amounts typed per invoice, the messages per invoice and for the whole. */
function AllocationEditor({ candidates, amount, busy, onSave, onClose }: {
  candidates: readonly AllocationCandidate[];
  /** The payment's amount: the most all lines together may take. */
  amount: number;
  busy: boolean;
  onSave: (lines: { bl_id: number; amount: string }[]) => Promise<AllocationOutcome>;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Record<number, string>>(() => Object.fromEntries(candidates.map((c) => [c.bl_id, c.mine ? String(c.mine) : ''])));
  const [messages, setMessages] = useState<Record<number, string>>({});
  const [problem, setProblem] = useState<string>();
  const typed = (id: number) => (draft[id] ?? '').trim();
  const live = (id: number): string | undefined => {
    if (typed(id) === '') return undefined;
    const checked = allocationAmount(typed(id));
    return checked.ok ? undefined : checked.message;
  };

  const submit = async () => {
    const sent = candidates.filter((c) => typed(c.bl_id) !== '');
    const invalid = sent.find((c) => live(c.bl_id));
    if (invalid) {
      document.getElementById(`allocation-amount-${invalid.bl_id}`)?.focus();
      return;
    }
    setProblem(undefined);
    setMessages({});
    const outcome = await onSave(sent.map((c) => ({ bl_id: c.bl_id, amount: typed(c.bl_id) })));
    if (outcome.ok) {
      onClose();
      return;
    }
    const byInvoice: Record<number, string> = {};
    for (const [key, message] of Object.entries(outcome.fields)) {
      const m = /^lines\.(\d+)\.\w+$/.exec(key);
      const line = m ? sent[Number(m[1])] : undefined;
      if (line) byInvoice[line.bl_id] = message;
    }
    setMessages(byInvoice);
    setProblem(outcome.message);
  };

  /** 「残額」: what this invoice still lacks, at most what the payment has left beside the other amounts typed. */
  const fill = (c: AllocationCandidate) => {
    const others = candidates.reduce((sum, o) => {
      if (o.bl_id === c.bl_id) return sum;
      const checked = allocationAmount(typed(o.bl_id));
      return sum + (checked.ok ? checked.amount : 0);
    }, 0);
    const left = amount - others;
    const take = Math.sign(left) === Math.sign(c.room) ? (Math.abs(left) < Math.abs(c.room) ? left : c.room) : 0;
    setDraft((d) => ({ ...d, [c.bl_id]: take ? String(take) : '' }));
  };

  return (
    <form
      noValidate
      aria-label="手動で消込"
      className="flex flex-col gap-[8px]"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {problem && <p role="alert" className="text-[1.4rem] text-danger">{problem}</p>}
      <DataTable caption="消込できる請求書" headers={[['請求番号'], ['締め年月'], ['今回請求額', true], ['残額', true], ['消込額', true]]} empty={candidates.length === 0 && '消込できる請求書はありません。'}>
        {candidates.map((c) => {
          const message = live(c.bl_id) ?? messages[c.bl_id];
          return (
            <tr key={c.bl_id} className="h-row align-top">
              <th scope="row" className={clsx(cellClass, 'text-left font-medium')}>{c.bl_number}</th>
              <td className={cellClass}>{monthOf(c.bl_sime_ym)}</td>
              <td className={numberCellClass}>{formatMoney(c.bl_total)}</td>
              <td className={numberCellClass}>{formatMoney(c.room)}</td>
              <td className={clsx(cellClass, 'text-right')}>
                <div className="flex items-center justify-end gap-[6px]">
                  <input
                    id={`allocation-amount-${c.bl_id}`}
                    inputMode="numeric"
                    aria-label={`${c.bl_number}の消込額`}
                    aria-invalid={message ? true : undefined}
                    aria-describedby={message ? `allocation-message-${c.bl_id}` : undefined}
                    className={clsx(inputClass, 'w-[120px] text-right tabular-nums')}
                    value={draft[c.bl_id] ?? ''}
                    onChange={(e) => {
                      const value = e.target.value;
                      setDraft((d) => ({ ...d, [c.bl_id]: value }));
                      setMessages((m) => ({ ...m, [c.bl_id]: '' }));
                    }}
                  />
                  <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => fill(c)} aria-label={`${c.bl_number}に残額を入れる`}>残額</button>
                </div>
                {message && <p id={`allocation-message-${c.bl_id}`} className="mt-[4px] text-[1.2rem] text-danger">{message}</p>}
              </td>
            </tr>
          );
        })}
      </DataTable>
      <div className="flex gap-[8px]">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>{busy ? '保存中…' : '消込を保存'}</button>
        <button type="button" className={buttonClass('secondary')} onClick={onClose} disabled={busy}>キャンセル</button>
      </div>
    </form>
  );
}

export function PaymentAllocations({ id, record }: DetailExtensionProps) {
  const areas = useAreas();
  const readable = can(areas, 'sales', 'read');
  const writable = can(areas, 'sales', 'write');
  const alloc = usePaymentAllocation(id, record, readable);
  const [editing, setEditing] = useState(false);
  const alert = useAlert();
  const confirm = useConfirm();
  if (!readable) return null;

  const announce = (outcome: AllocationOutcome, done: string) => {
    if (outcome.ok) alert(done, 'success');
    else alert(outcome.message, 'error');
  };
  const auto = async () => announce(await alloc.auto(), '古い請求書から消込しました。');
  const remove = async (allocationId: number, number: string, amount: number) => {
    if (!(await confirm(`請求書 ${number} への消込 ${formatMoney(amount)} を取り消します。`, { title: '消込の取り消し', confirmLabel: '取り消す', danger: true }))) return;
    announce(await alloc.remove(allocationId), '消込を取り消しました。');
  };

  return (
    <section aria-labelledby="payment-allocation-title" className="flex flex-col gap-[8px] rounded-[6px] border border-line bg-surface px-[16px] py-[10px]">
      <h2 id="payment-allocation-title" className="text-[1.6rem] font-bold text-ink">請求書への消込</h2>
      <dl aria-label="消込の状況" className="flex flex-wrap gap-x-[24px] gap-y-[4px] text-[1.4rem]">
        {([['入金額', alloc.amount], ['消込済', alloc.allocated], ['未消込', alloc.unallocated]] as const).map(([label, value]) => (
          <div key={label} className="flex gap-[6px]">
            <dt className="text-ink-soft">{label}</dt>
            <dd className="font-medium tabular-nums text-ink">{formatMoney(value)}</dd>
          </div>
        ))}
      </dl>
      {alloc.unallocated !== 0 && alloc.rows.length > 0 && (
        <p className="text-[1.3rem] text-ink-soft">未消込の金額は顧客の前受金として残り、次の請求書に消込できます。</p>
      )}
      {alloc.error && <p role="alert" className="text-[1.4rem] text-danger">{alloc.error}</p>}
      <DataTable
        caption="消込済みの請求書"
        headers={[['請求番号'], ['締め年月'], ['今回請求額', true], ['消込額', true], ['請求書の残額', true], ['消込日時'], ['担当者'], ...(writable ? [['操作'] as const] : [])]}
        empty={alloc.isLoading ? '読み込み中…' : alloc.rows.length === 0 && 'まだ請求書に消込していません。'}
      >
        {alloc.rows.map((r) => (
          <tr key={r.al_id} className="h-row">
            <th scope="row" className={clsx(cellClass, 'text-left font-medium')}>
              <AppLink to={detailPathOf(billingResource, r.al_bl_id)} className="text-brand underline-offset-2 hover:underline">{r.bl_number}</AppLink>
            </th>
            <td className={cellClass}>{monthOf(r.bl_sime_ym)}</td>
            <td className={numberCellClass}>{formatMoney(r.bl_total)}</td>
            <td className={numberCellClass}>{formatMoney(r.al_amount)}</td>
            <td className={numberCellClass}>{formatMoney(r.bl_open)}</td>
            <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(r.created)}</td>
            <td className={cellClass}>{r.user_name}</td>
            {writable && (
              <td className={cellClass}>
                <button type="button" className={buttonClass('secondary', 'sm')} disabled={alloc.busy} onClick={() => void remove(r.al_id, r.bl_number, r.al_amount)} aria-label={`${r.bl_number}への消込を取り消す`}>
                  取消
                </button>
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {writable && !editing && (
        <div className="flex flex-wrap gap-[8px]">
          <button type="button" className={buttonClass('primary')} disabled={alloc.busy || alloc.unallocated === 0} onClick={() => void auto()}>
            自動消込（古い請求書から）
          </button>
          <button type="button" className={buttonClass('secondary')} disabled={alloc.busy} onClick={() => setEditing(true)}>
            手動で消込
          </button>
        </div>
      )}
      {alloc.candidatesError && <p role="alert" className="text-[1.4rem] text-danger">{alloc.candidatesError}</p>}
      {writable && editing && (
        <AllocationEditor candidates={alloc.candidates} amount={alloc.amount} busy={alloc.busy} onSave={alloc.save} onClose={() => setEditing(false)} />
      )}
    </section>
  );
}
