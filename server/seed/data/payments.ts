/**
 * Demo 入金伝票: each customer pays what its processed orders of a month came to, in the next month
 * (口座振替 on the 27th, 振込 around the end of the month, 現金 on a delivery day). Some transfers arrive less
 * the bank fee, booked as a 手数料 slip of its own; now and then a refund (a negative 振込). Pure, no I/O.
 */
import { addDays } from '../../../lib/format';
import { createRng } from './rng';

/** What a customer's processed orders of one month came to. */
export interface MonthlySales {
  cl_id: number;
  /** YYYY-MM */
  month: string;
  total: number;
}

export interface SeedPayment {
  date: string;
  cl_id: number;
  amount: number;
  kind: string;
  bank: string;
  biko: string;
}

const BANKS = ['0001', '0005', '0009', '0010', '0036', '0125'] as const;
const TRANSFER_FEE = 440;

/** The first day of the month after `month` (YYYY-MM). */
const nextMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};

/**
 * @example generatePayments([{ cl_id: 5, month: '2026-04', total: 5720 }], '2026-06-10') // [{ date: '2026-05-27', kind: 'debit', amount: 5720, … }]
 */
export function generatePayments(sales: readonly MonthlySales[], today: string, seed = 12): SeedPayment[] {
  const rng = createRng(seed);
  const out: SeedPayment[] = [];
  for (const { cl_id, month, total } of sales) {
    if (total <= 0) continue;
    const first = nextMonth(month);
    const roll = rng.next();
    const kind = roll < 0.5 ? 'debit' : roll < 0.9 ? 'transfer' : 'cash';
    const date = kind === 'debit' ? addDays(first, 26) : kind === 'transfer' ? addDays(first, rng.int(20, 29)) : addDays(first, rng.int(2, 12));
    if (date > today) continue;
    const bank = kind === 'cash' ? '' : rng.pick(BANKS);
    const feeDeducted = kind === 'transfer' && total > TRANSFER_FEE * 5 && rng.chance(0.3);
    out.push({ date, cl_id, amount: feeDeducted ? total - TRANSFER_FEE : total, kind, bank, biko: kind === 'debit' ? `${month.replace('-', '年')}月分 口座振替` : `${month.replace('-', '年')}月分` });
    if (feeDeducted) out.push({ date, cl_id, amount: TRANSFER_FEE, kind: 'fee', bank, biko: '振込手数料（お客様負担分を差し引いての入金）' });
    if (rng.chance(0.01)) out.push({ date: addDays(date, 3), cl_id, amount: -Math.min(total, 1300), kind: 'transfer', bank, biko: '返品分の返金' });
  }
  return out;
}
