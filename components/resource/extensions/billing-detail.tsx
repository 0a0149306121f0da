/**
 * The invoice detail's panels (/billing/detail/{bli}, the generic read-only detail): its rate rows (`billing_rate_lst`:
 * 税抜・消費税・合計 per rate, the qualified invoice's per-rate totals), the payments allocated to it (`allocation_lst`), and
 * the document: 「請求書PDF」 and 「再発行」 (`billing_pdf`, a download; a reissue is marked 再発行 on the PDF), 「メール送信」
 * (`billing_mail`, the PDF attached, after a confirm) with the invoice's mail log (`billing_send_lst`). The slips and
 * payments it billed are its related lists (lib/resources/billing.ts `related`).
 */
import clsx from 'clsx';
import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { call, download } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { useMailProblem } from '@/lib/client/mail/use-mail-status';
import { formatDateTime, formatMoney } from '@/lib/format';
import { detailPathOf, filteredListPathOf } from '@/lib/list/resource-paths';
import { ARCHIVE_DELIVERIES, archiveResource } from '@/lib/resources/archive';
import { PAYMENT_KIND, paymentResource } from '@/lib/resources/payment';
import { rateKeyLabel, type BillingRateRow } from '@/lib/closing/answers';
import { optionText } from '../cells';
import { cellClass, DataTable, numberCellClass } from '../data-table';
import { MailProblem } from '../mail-problem';
import { AppLink, useAlert, useConfirm } from '../shell-bridge';
import { buttonClass } from '../styles';
import type { DetailExtensionProps, RowDetailProps } from './types';
import { useArchiveDeliveries, useBillingAllocations, useBillingRates, useBillingSends } from '@/lib/client/data/closing';
import { useCanCall } from '@/lib/client/auth/use-can-call';
import { cellText } from '../../../lib/resources/checks';

const panelClass = 'flex flex-col gap-[8px] rounded-[6px] border border-line bg-surface px-[16px] py-[10px]';
const titleClass = 'text-[1.6rem] font-bold text-ink';
const emptyOf = (isLoading: boolean, error: unknown, none: boolean, text: string): string | false =>
  isLoading ? '読み込み中…' : error ? (messageOf(error) ?? '') : none && text;

/** 税率ごとの内訳: one row per rate, with the totals. */
export function BillingRates({ id }: DetailExtensionProps) {
  const { data, error, isLoading } = useBillingRates(id);
  const rows = data ?? [];
  const sum = (pick: (r: BillingRateRow) => number) => rows.reduce((total, r) => total + pick(r), 0);
  return (
    <section aria-labelledby="billing-rates-title" className={panelClass}>
      <h2 id="billing-rates-title" className={titleClass}>税率ごとの内訳</h2>
      <DataTable
        caption="税率ごとの内訳"
        headers={[['税率'], ['税抜金額', true], ['消費税', true], ['税込金額', true]]}
        empty={emptyOf(isLoading, error, rows.length === 0, '今回の売上はありません。')}
        foot={(
          <tr className="h-row bg-subtle font-semibold">
            <th scope="row" className={clsx(cellClass, 'text-left')}>合計</th>
            <td className={numberCellClass}>{formatMoney(sum((r) => r.blr_net))}</td>
            <td className={numberCellClass}>{formatMoney(sum((r) => r.blr_tax))}</td>
            <td className={numberCellClass}>{formatMoney(sum((r) => r.blr_total))}</td>
          </tr>
        )}
      >
        {rows.map((r) => (
          <tr key={r.blr_key} className="h-row">
            <th scope="row" className={clsx(cellClass, 'text-left font-medium')}>
              {rateKeyLabel(r.blr_key)}{r.blr_tax_class === 'reduced' ? '（軽減税率）' : ''}
            </th>
            <td className={numberCellClass}>{formatMoney(r.blr_net)}</td>
            <td className={numberCellClass}>{formatMoney(r.blr_tax)}</td>
            <td className={numberCellClass}>{formatMoney(r.blr_total)}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/** 消込: the payments allocated to the invoice. */
export function BillingAllocations({ id, record }: DetailExtensionProps) {
  const { data, error, isLoading } = useBillingAllocations(id);
  const rows = data ?? [];
  return (
    <section aria-labelledby="billing-allocations-title" className={panelClass}>
      <h2 id="billing-allocations-title" className={titleClass}>入金の消込</h2>
      <p className="text-[1.4rem] text-ink-soft">
        消込済 <strong className="tabular-nums text-ink">{formatMoney(Number(record.bl_allocated ?? 0))}</strong>　残額 <strong className="tabular-nums text-ink">{formatMoney(Number(record.bl_open ?? 0))}</strong>
      </p>
      <DataTable
        caption="消込された入金"
        headers={[['入金日'], ['入金区分'], ['入金額', true], ['消込額', true], ['消込日時'], ['担当者']]}
        empty={emptyOf(isLoading, error, rows.length === 0, 'まだ入金は消込されていません。入金伝票の画面から消込できます。')}
      >
        {rows.map((r) => (
          <tr key={r.al_id} className="h-row">
            <th scope="row" className={clsx(cellClass, 'text-left font-medium tabular-nums')}>
              <AppLink to={detailPathOf(paymentResource, r.al_py_id)} className="text-brand underline-offset-2 hover:underline">{r.py_date}</AppLink>
            </th>
            <td className={cellClass}>{optionText(PAYMENT_KIND, r.py_kind)}</td>
            <td className={numberCellClass}>{formatMoney(r.py_amount)}</td>
            <td className={numberCellClass}>{formatMoney(r.al_amount)}</td>
            <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(r.created)}</td>
            <td className={cellClass}>{r.user_name}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/**
 * 請求書: the PDF and the e-mail with its log. The first delivery stores the invoice in the archive (電子帳簿保存法); every
 * later print or mail hands out the same stored bytes, and the archive lists each delivery.
 */
/** An invoice list's row unfolded (the billing list, the customer's 請求 tab): its PDF and mail, as on its detail. */
export function BillingRowDocuments({ def, row }: RowDetailProps) {
  return <BillingDocuments def={def} id={String(row.bl_id)} record={row} />;
}

export function BillingDocuments({ id, record }: DetailExtensionProps) {
  const canWrite = useCanCall('billing_pdf');
  const alert = useAlert();
  const confirm = useConfirm();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState<'pdf' | 'pint' | 'mail' | 'link' | null>(null);
  const [link, setLink] = useState<{ url: string; expires: string } | null>(null);
  const clientId = cellText(record.bl_cl_id ?? '');
  const log = useBillingSends(id);
  const rows = log.data ?? [];
  const number = cellText(record.bl_number ?? '');
  const mailProblem = useMailProblem();

  /** After a PDF or a mail: the invoice (発行回数) and its log. */
  const refresh = () => mutate((k) => Array.isArray(k) && typeof k[0] === 'string' && k[0].startsWith('billing_'));
  const work = async (kind: 'pdf' | 'pint' | 'mail' | 'link', action: () => Promise<unknown>) => {
    setBusy(kind);
    try {
      await action();
      await refresh();
    } catch (failure) {
      alert(messageOf(failure) ?? '', 'error');
    } finally {
      setBusy(null);
    }
  };
  const pdf = () => work('pdf', () => download('billing_pdf', { id }));
  const pint = () => work('pint', () => download('billing_pint', { id }));
  const archived = filteredListPathOf(archiveResource, { bl_id: id });
  // The customer's download page (請求書ダウンロードページ): a new link to send again, or every link ended.
  const makeLink = () => work('link', async () => {
    const [made] = await call('billing_link', { cl_id: clientId });
    setLink(made ?? null);
  });
  const revokeLinks = async () => {
    if (!(await confirm('この顧客のダウンロードページのリンクをすべて無効にします。送信済みのメールのリンクも開けなくなります。', { title: 'リンクの無効化', confirmLabel: '無効にする', danger: true }))) return;
    await work('link', async () => {
      const [done] = await call('billing_link_revoke', { cl_id: clientId });
      setLink(null);
      alert(`ダウンロードページのリンクを無効にしました（${(done?.revoked ?? 0).toLocaleString('ja-JP')}件）。`, 'success');
    });
  };
  const mail = async () => {
    if (!(await confirm(`請求書 ${number} をPDFを添付してメールで送信します。`, { title: '請求書のメール送信', confirmLabel: '送信', danger: false }))) return;
    await work('mail', async () => {
      const [sent] = await call('billing_mail', { id });
      alert(`請求書 ${number} をメールで送信しました${sent?.to ? `（${sent.to}）` : ''}。`, 'success');
    });
  };

  return (
    <section aria-labelledby={`billing-documents-title-${id}`} className={panelClass}>
      <h2 id={`billing-documents-title-${id}`} className={titleClass}>請求書の発行と送信</h2>
      {canWrite ? (
        <div className="flex flex-wrap gap-[8px]">
          <button type="button" className={buttonClass('primary')} disabled={busy !== null} onClick={() => void pdf()} title="初回に保存した請求書を、2回目以降も同じ内容で出力します">
            {busy === 'pdf' ? '作成中…' : '請求書PDF'}
          </button>
          <button type="button" className={buttonClass('secondary')} disabled={busy !== null} onClick={() => void pint()} title="JP PINT（Peppol）形式の XML を出力します。顧客の Peppol ID が必要です">
            {busy === 'pint' ? '作成中…' : 'デジタルインボイス（XML）'}
          </button>
          <button type="button" className={buttonClass('secondary')} disabled={busy !== null || mailProblem !== ''} aria-describedby={mailProblem ? 'billing-mail-problem' : undefined} onClick={() => void mail()}>
            {busy === 'mail' ? '送信中…' : 'メール送信'}
          </button>
          <MailProblem id="billing-mail-problem" problem={mailProblem} />
          <button type="button" className={buttonClass('secondary')} disabled={busy !== null || clientId === ''} onClick={() => void makeLink()}>
            {busy === 'link' ? '作成中…' : 'ダウンロードページのリンク'}
          </button>
          <button type="button" className={buttonClass('secondary')} disabled={busy !== null || clientId === ''} onClick={() => void revokeLinks()}>
            リンクを無効にする
          </button>
        </div>
      ) : (
        <p className="text-[1.3rem] text-ink-soft">請求書の発行（印刷・メール送信）は発行回数を記録するため、売上の編集権限が必要です。</p>
      )}
      {link && (
        <p className="text-[1.3rem]" aria-live="polite">
          ダウンロードページ（{link.expires}まで有効）: <input aria-label="ダウンロードページのURL" readOnly value={link.url} className="w-full font-mono text-[1.2rem]" onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
      {archived && (
        <p className="text-[1.3rem] text-ink-soft">
          発行した請求書は電子帳簿保存法に沿って保存され、印刷・メールのたびに同じ内容を出力します。{' '}
          <AppLink to={archived} className="text-brand underline-offset-2 hover:underline">保存された請求書と発行の記録</AppLink>
        </p>
      )}
      <DataTable
        caption="メール送信の記録"
        headers={[['送信日時'], ['宛先'], ['結果'], ['送信者']]}
        empty={emptyOf(log.isLoading, log.error, rows.length === 0, 'まだメールで送信していません。')}
      >
        {rows.map((r) => (
          <tr key={r.bs_id} className="h-row">
            <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(r.created)}</td>
            <td className={cellClass}>{r.bs_to}</td>
            <td className={cellClass}>{r.bs_state === 'sent' ? '送信済み' : <span className="text-danger">送信できませんでした{r.bs_error ? `：${r.bs_error}` : ''}</span>}</td>
            <td className={cellClass}>{r.user_name ?? ''}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/**
 * 保存請求書 (the invoice archive, lib/resources/archive.ts): a version's stored bytes, downloaded as they left
 * (`archive_file`), and every time it left — printed, in a batch, mailed — with to whom and by whom
 * (`archive_delivery_lst`). Below a version's detail and under its row of the archive list.
 */
const HOW = new Map<string, string>(ARCHIVE_DELIVERIES.map((o) => [o.value, o.text]));

/** A version of the archive list unfolded: its file and deliveries, as on its detail. */
export function ArchiveRowFile({ def, row }: RowDetailProps) {
  return <ArchiveFile def={def} id={String(row.ar_id)} record={row} />;
}

export function ArchiveFile({ id, record }: DetailExtensionProps) {
  const alert = useAlert();
  const [busy, setBusy] = useState(false);
  const deliveries = useArchiveDeliveries(id);
  const rows = deliveries.data ?? [];
  const open = async () => {
    setBusy(true);
    try {
      await download('archive_file', { id });
    } catch (failure) {
      alert(messageOf(failure) ?? '', 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={`archive-file-title-${id}`} className={panelClass}>
      <h2 id={`archive-file-title-${id}`} className={titleClass}>保存されたファイルと発行の記録</h2>
      <div className="flex flex-wrap items-center gap-[12px]">
        <button type="button" className={buttonClass('primary')} disabled={busy} onClick={() => void open()}>
          {busy ? 'ダウンロード中…' : '保存された請求書PDF'}
        </button>
        <span className="break-all text-[1.2rem] text-ink-soft">SHA-256 {cellText(record.ar_sha256)}</span>
      </div>
      <DataTable caption="発行の記録" headers={[['日時'], ['方法'], ['宛先'], ['担当者']]} empty={emptyOf(deliveries.isLoading, deliveries.error, rows.length === 0, 'まだ発行の記録はありません。')}>
        {rows.map((r) => (
          <tr key={r.ad_id} className="h-row">
            <td className={clsx(cellClass, 'whitespace-nowrap tabular-nums')}>{formatDateTime(r.created)}</td>
            <td className={cellClass}>{HOW.get(r.ad_how) ?? r.ad_how}</td>
            <td className={cellClass}>{r.ad_to}</td>
            <td className={cellClass}>{r.user_name}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
