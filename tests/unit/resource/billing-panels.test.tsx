/**
 * The panels of the payment and invoice details against mock answers (msw): a payment's 消込 (入金額・消込済・未消込, its
 * allocations with 取消 after a confirm, 自動消込 and 手動で消込 sending the payment's `modified`, amounts checked as typed
 * and a refusal placed at its invoice); an invoice's rate rows with totals, its PDF and 再発行 downloads, the e-mail after
 * a confirm with its log, and the payments allocated to it.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDefaultStore } from 'jotai';
import { permissionsAtom } from '@/lib/client/state/atoms';
import { ALL_WRITE } from '@/lib/permissions';
import { BillingAllocations, BillingDocuments, BillingRates } from '@/components/resource/extensions/billing-detail';
import { PaymentAllocations } from '@/components/resource/extensions/payment-allocation';
import { billingResource } from '@/lib/resources/billing';
import { paymentResource } from '@/lib/resources/payment';
import type { AllocationRow } from '@/lib/sales/allocation';
import { mockCalls, shell, unknownCall } from '../support/mock-calls';

let allocations: AllocationRow[] = [];
let refuseNext: { error: string; fields?: Record<string, string> } | null = null;
let mailProblem = '';

const allocation = (al_id: number, al_bl_id: number, bl_number: string, al_amount: number, bl_open: number): AllocationRow => ({
  al_id, al_bl_id, al_py_id: 40, al_amount, created: '2026-06-10T02:00:00.000Z', user_name: '経理 三郎', bl_number, bl_sime_ym: '202605',
  bl_closing_date: '2026-05-31', bl_total: 5000, bl_open, py_date: '2026-06-10', py_kind: 'transfer', py_amount: 6000,
});

const { called } = mockCalls((name, body) => {
  if (refuseNext && (name === 'payment_allocate' || name === 'billing_mail')) {
    const answer = refuseNext;
    refuseNext = null;
    return HttpResponse.json([answer], { status: 400 });
  }
  switch (name) {
    case 'allocation_lst': return HttpResponse.json(body.bl_id ? [{ ...allocation(1, 7, 'B202605-000007', 5000, 0), py_date: '2026-06-10' }] : allocations);
    case 'sales_receivable': return HttpResponse.json([{ cl_id: 12, balance: 3000, billing: null, last_payment: null, oldest_unpaid: null, open_items: [] }]);
    case 'billing_lst': return HttpResponse.json([
      { bl_id: 8, bl_number: 'B202606-000008', bl_sime_ym: '202606', bl_total: 2000, bl_open: 2000 },
      { bl_id: 9, bl_number: 'B202607-000009', bl_sime_ym: '202607', bl_total: 3000, bl_open: 3000 },
    ]);
    case 'payment_allocate': return HttpResponse.json([{ py_id: 40, amount: 6000, allocated: 6000, unallocated: 0, modified: '2026-06-10T03:00:00.000Z', allocations }]);
    case 'allocation_del': return HttpResponse.json([{ py_id: 40, amount: 6000, allocated: 0, unallocated: 6000, modified: '2026-06-10T03:00:00.000Z', allocations: [] }]);
    case 'payment_dtl': return HttpResponse.json([{ py_id: 40, py_amount: 6000, py_cl_id: 12, modified: '2026-06-10T03:00:00.000Z' }]);
    case 'billing_rate_lst': return HttpResponse.json([
      { blr_key: '10', blr_tax_class: 'standard', blr_rate: 10, blr_net: 4000, blr_tax: 400, blr_total: 4400 },
      { blr_key: '8', blr_tax_class: 'reduced', blr_rate: 8, blr_net: 8000, blr_tax: 640, blr_total: 8640 },
      { blr_key: 'outside', blr_tax_class: 'outside', blr_rate: 0, blr_net: 800, blr_tax: 0, blr_total: 800 },
    ]);
    case 'billing_send_lst': return HttpResponse.json([
      { bs_id: 2, bs_to: 'keiri@aqua.example.jp', bs_state: 'failed', bs_error: 'メールサーバーに接続できませんでした。', created: '2026-06-01T01:00:00.000Z', user_name: '経理 三郎' },
      { bs_id: 3, bs_to: 'keiri@aqua.example.jp', bs_state: 'sent', bs_error: '', created: '2026-06-01T02:00:00.000Z', user_name: '経理 三郎' },
    ]);
    case 'billing_mail': return HttpResponse.json([{ sent: true, to: 'keiri@aqua.example.jp' }]);
    case 'mail_status': return HttpResponse.json([{ ready: mailProblem === '', problem: mailProblem }]);
    case 'billing_pdf': return new HttpResponse('%PDF-1.7', { headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="invoice.pdf"' } });
    default: return unknownCall();
  }
});

beforeEach(() => {
  refuseNext = null;
  mailProblem = '';
});

const payment = { py_id: 40, py_amount: 6000, py_cl_id: 12, modified: '2026-06-10T01:00:00.000Z' };

describe('PaymentAllocations', () => {
  it('shows 入金額・消込済・未消込 and the invoices it pays, and un-allocates one after a confirm', async () => {
    allocations = [allocation(1, 7, 'B202605-000007', 5000, 0)];
    shell(<PaymentAllocations def={paymentResource} id="40" record={payment} />);
    const table = await screen.findByRole('table', { name: '消込済みの請求書' });
    await within(table).findByRole('link', { name: 'B202605-000007' });
    expect(within(table).getByRole('link', { name: 'B202605-000007' })).toHaveAttribute('href', '#/billing/detail/7');
    const facts = screen.getByLabelText('消込の状況').textContent;
    expect(facts).toContain('入金額6,000円');
    expect(facts).toContain('消込済5,000円');
    expect(facts).toContain('未消込1,000円');
    expect(screen.getByText(/未消込の金額は顧客の前受金として残り/)).toBeInTheDocument();

    fireEvent.click(within(table).getByRole('button', { name: 'B202605-000007への消込を取り消す' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('請求書 B202605-000007 への消込 5,000円 を取り消します。');
    fireEvent.click(within(dialog).getByRole('button', { name: '取り消す' }));
    await waitFor(() => expect(called('allocation_del')).toHaveLength(1));
    expect(called('allocation_del')[0].body).toMatchObject({ al_id: '1' });
    // Its allocations are asked again (and the payment's detail, whose version moved, where it is shown).
    await waitFor(() => expect(called('allocation_lst').length).toBeGreaterThan(1));
  });

  it('allocates automatically with the payment\'s modified', async () => {
    allocations = [];
    shell(<PaymentAllocations def={paymentResource} id="40" record={payment} />);
    await screen.findByText('まだ請求書に消込していません。');
    fireEvent.click(screen.getByRole('button', { name: '自動消込（古い請求書から）' }));
    await waitFor(() => expect(called('payment_allocate')).toHaveLength(1));
    expect(called('payment_allocate')[0].body).toMatchObject({ py_id: '40', modified: payment.modified, auto: '1' });
    expect(await screen.findByText('古い請求書から消込しました。')).toBeInTheDocument();
  });

  it('allocates by hand: the open invoices of the billing customer, amounts checked as typed, a refusal at its invoice', async () => {
    allocations = [allocation(1, 7, 'B202605-000007', 1000, 4000)];
    shell(<PaymentAllocations def={paymentResource} id="40" record={payment} />);
    await screen.findByRole('link', { name: 'B202605-000007' });
    fireEvent.click(screen.getByRole('button', { name: '手動で消込' }));
    const form = await screen.findByRole('form', { name: '手動で消込' });
    await within(form).findByText('B202607-000009');
    expect(called('billing_lst').at(-1)?.body.postData).toBe(JSON.stringify({ cl_id: '12', open: ['1', ''] }));
    const rows = within(form).getAllByRole('row').slice(1).map((r) => within(r).getByRole('rowheader').textContent);
    expect(rows).toEqual(['B202605-000007', 'B202606-000008', 'B202607-000009']);
    const first = within(form).getByLabelText('B202605-000007の消込額');
    expect(first).toHaveValue('1000');
    expect(within(form).getAllByRole('row')[1]).toHaveTextContent('5,000円');

    const june = within(form).getByLabelText('B202606-000008の消込額');
    fireEvent.change(june, { target: { value: '12.5' } });
    expect(await within(form).findByText('消込額は整数で入力してください。')).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: '消込を保存' }));
    expect(called('payment_allocate')).toHaveLength(0);
    fireEvent.click(within(form).getByRole('button', { name: 'B202606-000008に残額を入れる' }));
    expect(june).toHaveValue('2000');
    fireEvent.change(within(form).getByLabelText('B202607-000009の消込額'), { target: { value: '３,５００' } });

    refuseNext = { error: '3行目：請求書 B202607-000009 の残額 3,000円 を超えて消込できません。', fields: { 'lines.2.amount': '3行目：請求書 B202607-000009 の残額 3,000円 を超えて消込できません。' } };
    fireEvent.click(within(form).getByRole('button', { name: '消込を保存' }));
    await waitFor(() => expect(called('payment_allocate')).toHaveLength(1));
    expect(JSON.parse(called('payment_allocate')[0].body.postData)).toEqual({ lines: [{ bl_id: 7, amount: '1000' }, { bl_id: 8, amount: '2000' }, { bl_id: 9, amount: '３,５００' }] });
    expect(called('payment_allocate')[0].body.modified).toBe(payment.modified);
    const july = within(form).getByLabelText('B202607-000009の消込額');
    await waitFor(() => expect(july).toHaveAttribute('aria-invalid', 'true'));
    expect(july).toHaveAccessibleDescription('3行目：請求書 B202607-000009 の残額 3,000円 を超えて消込できません。');
    expect(within(form).getByRole('alert')).toHaveTextContent('残額 3,000円 を超えて');

    fireEvent.change(july, { target: { value: '1000' } });
    fireEvent.click(within(form).getByRole('button', { name: '消込を保存' }));
    await waitFor(() => expect(called('payment_allocate')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('form', { name: '手動で消込' })).toBeNull());
  });

  it('only shows the allocations to a role that reads sales', async () => {
    getDefaultStore().set(permissionsAtom, { authKey: 'k', areas: { ...ALL_WRITE, sales: 'read' } });
    allocations = [allocation(1, 7, 'B202605-000007', 5000, 0)];
    shell(<PaymentAllocations def={paymentResource} id="40" record={payment} />);
    await screen.findByRole('link', { name: 'B202605-000007' });
    expect(screen.queryByRole('button', { name: /消込/ })).toBeNull();
  });
});

describe('invoice detail panels', () => {
  const invoice = { bl_id: 7, bl_number: 'B202605-000007', bl_allocated: 5000, bl_open: 0, modified: '2026-06-01T00:00:00.000Z' };

  it('lists the rates with their totals and the payments allocated', async () => {
    shell(<><BillingRates def={billingResource} id="7" record={invoice} /><BillingAllocations def={billingResource} id="7" record={invoice} /></>);
    const rates = await screen.findByRole('table', { name: '税率ごとの内訳' });
    await within(rates).findByText('8%（軽減税率）');
    expect(within(rates).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['10%', '8%（軽減税率）', '不課税', '合計']);
    expect(within(within(rates).getByRole('row', { name: /合計/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['12,800円', '1,040円', '13,840円']);
    const paid = await screen.findByRole('link', { name: '2026-06-10' });
    expect(paid).toHaveAttribute('href', '#/payment/detail/40');
    expect(called('allocation_lst')[0].body).toMatchObject({ bl_id: '7' });
  });

  it('downloads the PDF (the archived version: no separate reissue), links the archive, and mails it after a confirm, with the log', async () => {
    shell(<BillingDocuments def={billingResource} id="7" record={invoice} />);
    const log = await screen.findByRole('table', { name: 'メール送信の記録' });
    await within(log).findByText('送信済み');
    expect(within(log).getByText('送信できませんでした：メールサーバーに接続できませんでした。')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '請求書PDF' }));
    await waitFor(() => expect(called('billing_pdf')).toHaveLength(1));
    expect(called('billing_pdf')[0].body).toEqual(expect.objectContaining({ id: '7' }));
    expect(called('billing_pdf')[0].body.reissue).toBeUndefined();
    expect(screen.queryByRole('button', { name: '再発行' })).toBeNull();
    expect(screen.getByRole('link', { name: '保存された請求書と発行の記録' })).toHaveAttribute('href', `#/billing/archive?${new URLSearchParams({ filter: JSON.stringify({ bl_id: '7' }) }).toString()}`);

    await waitFor(() => expect(screen.getByRole('button', { name: 'メール送信' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'メール送信' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('請求書 B202605-000007 をPDFを添付してメールで送信します。');
    fireEvent.click(within(dialog).getByRole('button', { name: '送信' }));
    await waitFor(() => expect(called('billing_mail')).toHaveLength(1));
    expect(await screen.findByText('請求書 B202605-000007 をメールで送信しました（keiri@aqua.example.jp）。')).toBeInTheDocument();
    await waitFor(() => expect(called('billing_send_lst').length).toBeGreaterThan(1));
  });

  it('disables メール送信 with the reason when mail is not set up', async () => {
    mailProblem = 'メールサーバー（SMTP）が設定されていません。管理者に SMTP_HOST などの設定を依頼してください。';
    shell(<BillingDocuments def={billingResource} id="7" record={invoice} />);
    const button = screen.getByRole('button', { name: 'メール送信' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAccessibleDescription(mailProblem);
    expect(screen.getByRole('button', { name: '請求書PDF' })).toBeEnabled();
  });
});
