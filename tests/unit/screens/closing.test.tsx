/**
 * 締め処理 (/closing) and 締め戻し (/restore) against mock answers of the closing calls' contract (msw): 仮締め sends the
 * group and the month without its hyphen and draws per customer 前回請求額 … 今回請求額 with 消費税 per rate and a totals
 * row; a row unfolds to its slips and payments, each a link; 締切 asks first, runs as a job with its bar, then offers the
 * invoice list of that month and group and the batch PDF / ZIP. /restore offers 締め戻し only on each group's latest
 * closing, shows why one cannot be undone, asks first and shows the server's refusal as given.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { getDefaultStore } from 'jotai';
import { permissionsAtom } from '@/lib/client/state/atoms';
import { ALL_WRITE } from '@/lib/permissions';
import ClosingScreen from '@/components/screens/closing/closing';
import ClosingRestoreScreen from '@/components/screens/closing/closing-restore';
import type { JobInfo } from '@/lib/jobs';
import { matchRoute } from '@/lib/routes';
import type { ClosingListRow, ClosingPreview } from '@/lib/closing/answers';
import { mockCalls, shell, unknownCall } from '../support/mock-calls';

let closings: ClosingListRow[] = [];
const NO_SMTP = 'メールサーバー（SMTP）が設定されていません。管理者に SMTP_HOST などの設定を依頼してください。';

const preview: ClosingPreview = {
  sime_gp: '20', sime_ym: '202605', closing_date: '2026-05-20',
  totals: { invoices: 2, prev_total: 15000, paid: 12000, carry: 3000, sales_net: 20800, tax_total: 1680, total: 25480 },
  rows: [
    { cl_id: 12, name: '株式会社アクア', period_from: '2026-04-21', period_to: '2026-05-20', prev_total: 10000, paid: 10000, carry: 0, sales_net: 12800, tax_total: 1040, total: 13840,
      rates: [{ key: '10', tax_class: 'standard', rate: 10, net: 4000, tax: 400 }, { key: '8', tax_class: 'reduced', rate: 8, net: 8000, tax: 640 }, { key: 'outside', tax_class: 'outside', rate: 0, net: 800, tax: 0 }] },
    { cl_id: 15, name: '山田商店', period_from: '2026-04-21', period_to: '2026-05-20', prev_total: 5000, paid: 2000, carry: 3000, sales_net: 8000, tax_total: 640, total: 11640,
      rates: [{ key: '8', tax_class: 'reduced', rate: 8, net: 8000, tax: 640 }] },
  ],
};

const job = (id: number, kind: JobInfo['kind'], result: unknown): JobInfo => ({
  job_id: id, kind, scope: '20:202605', params: { sime_gp: '20', sime_ym: '202605' }, state: 'done', done: 2, total: 2, result, error: '', cancelling: false,
  started: '2026-05-21T01:00:00.000Z', finished: '2026-05-21T01:00:03.000Z', user_id: 1, user_name: '経理 三郎',
});

const { called } = mockCalls((name, body) => {
  switch (name) {
    case 'job_lst': return HttpResponse.json([]);
    case 'closing_preview':
      if (body.sime_ym === '202604') return HttpResponse.json([{ error: '2026年4月 20日締めは締め処理済みです。' }], { status: 409 });
      return HttpResponse.json([body.sime_ym === '209912' ? { ...preview, sime_ym: '209912', closing_date: '2099-12-20' } : preview]);
    case 'closing_warnings': return HttpResponse.json(body.sime_ym === '209912' ? [
      { kind: 'future', count: 1, message: '12月20日締めの締め日はまだ来ていません（今日は11月27日）。', link: null },
      { kind: 'unprocessed_orders', count: 2, message: '処理済になっていない受注が 2件あります。', link: '/orders/list/search?filter=%7B%7D' },
    ] : []);
    case 'closing_preview_items': return HttpResponse.json([{
      slips: [{ sl_id: 301, number: 'SL20260510-000301', date: '2026-05-10', cl_id: 12, client_name: '株式会社アクア', net: 12000, tax: 1184, total: 13184 }],
      payments: [{ py_id: 77, date: '2026-04-27', cl_id: 12, kind: 'debit', amount: 10000 }],
    }]);
    case 'closing_run': return HttpResponse.json([{ job_id: 5 }]);
    case 'billing_pdf_batch': return HttpResponse.json([{ job_id: 6 }]);
    case 'billing_mail_batch_preview': return HttpResponse.json([{
      sime_gp: '20', sime_ym: '202605', with_address: 1, without_address: 1, problem: NO_SMTP,
      rows: [
        { bl_id: 31, bl_number: 'BL202605-000031', cl_id: 12, name: '株式会社アクア', to: 'keiri@aqua.example.jp', total: 13840 },
        { bl_id: 32, bl_number: 'BL202605-000032', cl_id: 15, name: '山田商店', to: '', total: 11640 },
      ],
    }]);
    case 'job_dtl': return HttpResponse.json([body.id === '5' ? job(5, 'closing_run', { cls_id: 3, invoices: 2, total: 25480 }) : job(6, 'billing_pdf_batch', { invoices: 2 })]);
    case 'billing_pdf_batch_file': return new HttpResponse('%PDF-1.7', { headers: { 'content-type': body.format === 'zip' ? 'application/zip' : 'application/pdf', 'content-disposition': 'attachment; filename="invoices.pdf"' } });
    case 'closing_lst': return HttpResponse.json(body.sime_gp ? closings.filter((c) => c.sime_gp === body.sime_gp) : closings);
    case 'closing_restore': return HttpResponse.json([{ error: '2026年5月・末日締めの請求書 B202605-000012 に入金が消込されているため締め戻しできません。' }], { status: 400 });
    default: return unknownCall();
  }
});


describe('ClosingScreen', () => {
  it('previews a group and month (YYYYMM): per customer the amounts, 消費税 per rate and the totals row; a row unfolds to its slips and payments', async () => {
    shell(<ClosingScreen match={matchRoute('/closing')!} />);
    fireEvent.change(screen.getByLabelText('締日'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('締め年月'), { target: { value: '2026-05' } });
    fireEvent.click(screen.getByRole('button', { name: '仮締め' }));
    const table = await screen.findByRole('table', { name: '仮締めの請求内容' });
    expect(called('closing_preview').at(-1)?.body).toMatchObject({ sime_gp: '20', sime_ym: '202605' });
    const heads = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(heads).toEqual(['顧客', '対象期間', '前回請求額', '入金額', '繰越額', '今回売上額（税抜）', '消費税 10%', '消費税 8%', '今回請求額', '明細']);
    const aqua = within(table).getByRole('row', { name: /株式会社アクア/ });
    expect(within(aqua).getAllByRole('cell').map((c) => c.textContent).slice(0, 8)).toEqual(['2026-04-21〜2026-05-20', '10,000円', '10,000円', '0円', '12,800円', '400円', '640円', '13,840円']);
    expect(within(aqua).getByRole('link', { name: '株式会社アクア' })).toHaveAttribute('href', '#/client/detail/12');
    const totals = within(table).getByRole('row', { name: /合計（2件）/ });
    expect(within(totals).getAllByRole('cell').map((c) => c.textContent).slice(0, 7)).toEqual(['15,000円', '12,000円', '3,000円', '20,800円', '400円', '1,280円', '25,480円']);

    fireEvent.click(within(aqua).getByRole('button', { name: '株式会社アクアの明細' }));
    const slip = await screen.findByRole('link', { name: 'SL20260510-000301' });
    expect(slip).toHaveAttribute('href', '#/sales/detail/301');
    expect(screen.getByRole('link', { name: '2026-04-27' })).toHaveAttribute('href', '#/payment/detail/77');
    expect(called('closing_preview_items').at(-1)?.body).toMatchObject({ sime_gp: '20', sime_ym: '202605', cl_id: '12' });
    expect(within(aqua).getByRole('button', { name: '株式会社アクアの明細' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes after a confirm as a job with its bar, then links the month\'s invoices and downloads their PDFs', async () => {
    shell(<ClosingScreen match={matchRoute('/closing')!} />);
    fireEvent.change(screen.getByLabelText('締日'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('締め年月'), { target: { value: '2026-05' } });
    fireEvent.click(screen.getByRole('button', { name: '仮締め' }));
    await screen.findByRole('table', { name: '仮締めの請求内容' });
    fireEvent.click(screen.getByRole('button', { name: '締切' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('2026年5月 20日締め（締め日 2026年5月20日');
    expect(dialog).toHaveTextContent('請求書 2件（今回請求額の合計 25,480円）');
    expect(called('closing_run')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: '締切を実行' }));
    await waitFor(() => expect(called('closing_run')).toHaveLength(1));
    expect(called('closing_run')[0].body).toMatchObject({ sime_gp: '20', sime_ym: '202605' });
    expect(called('closing_run')[0].body).not.toHaveProperty('early');
    expect(await screen.findByRole('progressbar', { name: '締め処理の進み具合' })).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('status', { name: '締め処理' })).toHaveTextContent('請求書を2件発行しました（今回請求額の合計 25,480円）');

    const list = await screen.findByRole('link', { name: '請求一覧を開く' });
    expect(screen.queryByRole('table', { name: '仮締めの請求内容' })).toBeNull();
    const href = decodeURIComponent(list.getAttribute('href') ?? '');
    expect(href).toBe('#/billing/list?filter={"sime_ym":"202605","sime_gp":["20"]}');
    fireEvent.click(screen.getByRole('button', { name: '請求書PDFを一括作成' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '作成' }));
    await waitFor(() => expect(called('billing_pdf_batch')).toHaveLength(1));
    expect(called('billing_pdf_batch')[0].body).toMatchObject({ sime_gp: '20', sime_ym: '202605' });
    fireEvent.click(await screen.findByRole('button', { name: 'ZIP（顧客ごと）をダウンロード' }));
    await waitFor(() => expect(called('billing_pdf_batch_file')).toHaveLength(1));
    expect(called('billing_pdf_batch_file')[0].body).toMatchObject({ job_id: '6', format: 'zip' });
    // The buttons wait while the ZIP downloads.
    await waitFor(() => expect(screen.getByRole('button', { name: 'PDF（1ファイル）をダウンロード' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'PDF（1ファイル）をダウンロード' }));
    await waitFor(() => expect(called('billing_pdf_batch_file').at(-1)?.body).toMatchObject({ job_id: '6', format: 'pdf' }));

    // The mail at once: the recipients first (a customer without an address named), the button off with the reason.
    const recipients = await screen.findByRole('table', { name: 'メールの送信先' });
    expect(called('billing_mail_batch_preview')[0].body).toMatchObject({ sime_gp: '20', sime_ym: '202605' });
    expect(within(recipients).getByRole('row', { name: /株式会社アクア/ })).toHaveTextContent('keiri@aqua.example.jp');
    expect(within(recipients).getByRole('row', { name: /山田商店/ })).toHaveTextContent('メールアドレスなし');
    const mailAll = screen.getByRole('button', { name: '請求書をメールで一括送信' });
    expect(mailAll).toBeDisabled();
    expect(mailAll).toHaveAccessibleDescription(NO_SMTP);
  });

  it('shows the warnings above 締切, each linking to its list, and before the closing date asks naming it and sends early=1', async () => {
    shell(<ClosingScreen match={matchRoute('/closing')!} />);
    fireEvent.change(screen.getByLabelText('締日'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('締め年月'), { target: { value: '2099-12' } });
    fireEvent.click(screen.getByRole('button', { name: '仮締め' }));
    const warnings = await screen.findByRole('region', { name: '締切の前に確認してください（2件）' });
    expect(called('closing_warnings').at(-1)?.body).toMatchObject({ sime_gp: '20', sime_ym: '209912' });
    expect(warnings).toHaveTextContent('12月20日締めの締め日はまだ来ていません');
    expect(within(warnings).getByRole('link', { name: '一覧を開く（2件）' })).toHaveAttribute('href', '#/orders/list/search?filter=%7B%7D');
    await screen.findByRole('table', { name: '仮締めの請求内容' });
    fireEvent.click(screen.getByRole('button', { name: '締切' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('締め日（2099年12月20日（日））はまだ来ていません。締め日前ですが、2099年12月 20日締め');
    fireEvent.click(within(dialog).getByRole('button', { name: '締切を実行' }));
    await waitFor(() => expect(called('closing_run')).toHaveLength(1));
    expect(called('closing_run')[0].body).toMatchObject({ sime_gp: '20', sime_ym: '209912', early: '1' });
  });

  it('a month closed before, asked again, offers its invoices: the list, the PDF batch and the mail, not the preview\'s refusal', async () => {
    closings = [{ cls_id: 2, sime_gp: '20', sime_ym: '202604', closing_date: '2026-04-20', invoices: 2, total: 25480, created: '2026-04-21T01:00:00.000Z', user_name: '経理 三郎', restorable: true, refusal: '', blockers: [] }];
    shell(<ClosingScreen match={matchRoute('/closing')!} />);
    fireEvent.change(screen.getByLabelText('締日'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('締め年月'), { target: { value: '2026-04' } });
    fireEvent.click(screen.getByRole('button', { name: '仮締め' }));
    expect(await screen.findByRole('heading', { name: '2026年4月 20日締めの請求書' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '請求書PDFを一括作成' })).toBeInTheDocument();
    await waitFor(() => expect(called('billing_mail_batch_preview').at(-1)?.body).toMatchObject({ sime_gp: '20', sime_ym: '202604' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: '締切' })).toBeDisabled();
    closings = [];
  });

  it('offers no 締切 to a role that only reads sales', async () => {
    getDefaultStore().set(permissionsAtom, { authKey: 'k', areas: { ...ALL_WRITE, sales: 'read' } });
    shell(<ClosingScreen match={matchRoute('/closing')!} />);
    fireEvent.click(screen.getByRole('button', { name: '仮締め' }));
    await waitFor(() => expect(called('closing_preview')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: '締切' })).toBeNull();
  });
});

describe('ClosingRestoreScreen', () => {
  const entry = (cls_id: number, sime_gp: string, sime_ym: string, extra: Partial<ClosingListRow> = {}): ClosingListRow => ({
    cls_id, sime_gp, sime_ym, closing_date: `${sime_ym.slice(0, 4)}-${sime_ym.slice(4)}-20`, invoices: 3, total: 48600, created: '2026-06-01T01:00:00.000Z', user_name: '経理 三郎', restorable: true, refusal: '', blockers: [], ...extra,
  });

  it('offers 締め戻し on each group\'s latest closing only, says why one cannot be undone, and shows the server\'s refusal', async () => {
    closings = [
      entry(4, '31', '202605', {
        restorable: false, refusal: '2026年5月・末日締めの請求書 B202605-000012 に入金が消込されています。',
        blockers: [{ kind: 'invoice', label: '請求書 B202605-000012', link: '/billing/detail/12' }, { kind: 'payment', label: '入金 2026-06-03 1,000円', link: '/payment/detail/7' }],
      }),
      entry(3, '20', '202605'),
      entry(2, '31', '202604', { restorable: false, refusal: '後の締め（2026年5月）があります。' }),
      entry(1, '20', '202604', { restorable: false, refusal: '後の締め（2026年5月）があります。' }),
    ];
    shell(<ClosingRestoreScreen match={matchRoute('/restore')!} />);
    const table = await screen.findByRole('table', { name: '締め処理の一覧' });
    await within(table).findByRole('row', { name: /2026年5月 末日締め/ });
    const buttons = within(table).getAllByRole('button', { name: /を締め戻す$/ });
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['2026年5月 末日締めを締め戻す', '2026年5月 20日締めを締め戻す']);
    expect(buttons[0]).toBeDisabled();
    expect(buttons[0]).toHaveAccessibleDescription('2026年5月・末日締めの請求書 B202605-000012 に入金が消込されています。');
    expect(within(table).queryByText('後の締め（2026年5月）があります。')).toBeNull();
    // What blocks it, each a link to the record.
    const blocking = within(table).getByRole('list', { name: '2026年5月 末日締めの締め戻しを止めているもの' });
    expect(within(blocking).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['請求書 B202605-000012', '#/billing/detail/12'], ['入金 2026-06-03 1,000円', '#/payment/detail/7'],
    ]);
    expect(within(table).getAllByRole('link', { name: '3件' })[0]).toHaveAttribute('href', expect.stringContaining('#/billing/list?filter='));

    fireEvent.click(buttons[1]);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('2026年5月 20日締めの締め処理（請求書 3件、今回請求額の合計 48,600円）を取り消します。');
    fireEvent.click(within(dialog).getByRole('button', { name: '締め戻す' }));
    await waitFor(() => expect(called('closing_restore')).toHaveLength(1));
    expect(called('closing_restore')[0].body).toMatchObject({ sime_gp: '20', sime_ym: '202605' });
    expect(await screen.findByText('2026年5月・末日締めの請求書 B202605-000012 に入金が消込されているため締め戻しできません。')).toBeInTheDocument();
  });

  it('narrows the closings to one group', async () => {
    closings = [entry(3, '20', '202605'), entry(4, '31', '202605')];
    shell(<ClosingRestoreScreen match={matchRoute('/restore')!} />);
    await screen.findByRole('row', { name: /末日締め/ });
    fireEvent.change(screen.getByLabelText('締日'), { target: { value: '20' } });
    await waitFor(() => expect(called('closing_lst').at(-1)?.body).toMatchObject({ sime_gp: '20' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /末日締め/ })).toBeNull());
  });
});
