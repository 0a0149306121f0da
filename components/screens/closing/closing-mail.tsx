/**
 * A closing's invoices mailed at once (on /closing, once closed): the recipients first (`billing_mail_batch_preview`:
 * the address each invoice goes to — 請求先メールアドレス, else メールアドレス — and the customers without one), the
 * button disabled with the reason when mail cannot go (SMTP not set up, nobody to mail), then after a confirm the job
 * (`billing_mail_batch`, its progress) and its result per invoice: sent, failed with the reason, or not sent.
 */
import clsx from 'clsx';
import type { ReactNode } from 'react';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { MAIL_BATCH_STATE_TEXT, mailBatchResultText, type MailBatchOutcome, type MailBatchRecipient, type MailBatchResult } from '@/lib/billing/mail-batch';
import { closingLabel } from '@/lib/closing/period';
import { formatMoney } from '@/lib/format';
import { detailPathOf } from '@/lib/list/resource-paths';
import { billingResource } from '@/lib/resources/billing';
import { cellClass, DataTable, numberCellClass } from '@/components/resource/data-table';
import { JobProgress, useAnnouncedJob, useConfirmedAction } from '@/components/resource/job-progress';
import { MailProblem } from '@/components/resource/mail-problem';
import { AppLink } from '@/components/resource/shell-bridge';
import { buttonClass } from '@/components/resource/styles';
import { useMailBatchPreview } from '@/lib/client/data/closing';

const linkClass = 'text-brand underline-offset-2 hover:underline';
const count = (n: number): string => `${n.toLocaleString('ja-JP')}件`;

/** Where an invoice's mail goes, or why it is not mailed (郵送, デジタルインボイス, no address). */
function recipientText(row: MailBatchRecipient): ReactNode {
  if (row.delivery === '1' || row.delivery === '4') return <span className="text-ink-soft">{row.delivery === '1' ? '郵送' : 'デジタルインボイス'}（メールしません）</span>;
  return row.to || <span className="text-danger">メールアドレスなし</span>;
}

/** The invoice's number (a link to it) and customer: the first cells of both tables. */
function InvoiceCells({ row }: { row: MailBatchRecipient }) {
  return (
    <>
      <td className={clsx(cellClass, 'whitespace-nowrap')}><AppLink to={detailPathOf(billingResource, row.bl_id)} className={linkClass}>{row.bl_number}</AppLink></td>
      <td className={cellClass}>{row.name}</td>
      <td className={cellClass}>{recipientText(row)}</td>
    </>
  );
}

function ResultCell({ row }: { row: MailBatchOutcome }) {
  const text = MAIL_BATCH_STATE_TEXT[row.state];
  return <td className={clsx(cellClass, row.state === 'sent' ? '' : 'text-danger')}>{row.error ? `${text}：${row.error}` : text}</td>;
}

export function ClosingMail({ gp, ym, canWrite }: { gp: string; ym: string; canWrite: boolean }) {
  const params = { sime_gp: gp, sime_ym: ym };
  const { data, error, isLoading, mutate } = useMailBatchPreview(params);
  const preview = data?.[0];
  const confirmed = useConfirmedAction();
  const batch = useAnnouncedJob<MailBatchResult>('billing_mail_batch', mailBatchResultText, () => mutate());
  const result = batch.job?.state === 'done' && batch.job.result?.sime_gp === gp && batch.job.result.sime_ym === ym ? batch.job.result : undefined;
  const label = closingLabel(gp, ym);
  const problem = preview?.problem ?? '';

  const send = () => {
    if (!preview) return;
    const left = [preview.without_address ? `メールアドレスのない ${count(preview.without_address)}` : '', preview.not_mailed ? `郵送・デジタルインボイスの ${count(preview.not_mailed)}` : ''].filter(Boolean);
    const skipped = left.length ? `（${left.join('、')}は送信しません）` : '';
    void confirmed(`${label}の請求書 ${count(preview.with_address)}をPDFを添付してメールで送信します${skipped}。`, { title: '請求書の一括メール送信', confirmLabel: '送信', danger: false },
      () => batch.start('billing_mail_batch', params));
  };

  return (
    <div className="flex flex-col gap-[8px]">
      <h3 className="text-[1.4rem] font-bold text-ink">メールで送信</h3>
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      {preview && (
        <p className="text-[1.4rem] text-ink">
          送信先 {count(preview.with_address)}{preview.without_address > 0 && <span className="text-danger">・メールアドレスなし {count(preview.without_address)}（送信しません）</span>}
          {preview.not_mailed > 0 && <span>・郵送・デジタルインボイス {count(preview.not_mailed)}（メールしません）</span>}
        </p>
      )}
      <DataTable caption="メールの送信先" headers={[['請求番号'], ['顧客'], ['送信先'], ['今回請求額', true]]}
        empty={isLoading ? '読み込んでいます…' : (preview?.rows.length ?? 0) === 0 && '送信する請求書はありません。'}>
        {preview?.rows.map((row) => (
          <tr key={row.bl_id} className="h-row">
            <InvoiceCells row={row} />
            <td className={numberCellClass}>{formatMoney(row.total)}</td>
          </tr>
        ))}
      </DataTable>
      {canWrite && (
        <div className="flex flex-wrap items-center gap-[12px]">
          <button type="button" className={buttonClass('secondary')} disabled={!preview || problem !== '' || batch.running}
            aria-describedby={problem ? 'closing-mail-problem' : undefined} onClick={send}>
            請求書をメールで一括送信
          </button>
          <MailProblem id="closing-mail-problem" problem={problem} />
        </div>
      )}
      {batch.job && <JobProgress job={batch.job} result={batch.job.result ? mailBatchResultText(batch.job.result) : undefined} />}
      {result && (
        <DataTable caption="メール送信の結果" headers={[['請求番号'], ['顧客'], ['送信先'], ['結果']]} empty={result.rows.length === 0 && '送信する請求書はありませんでした。'}>
          {result.rows.map((row) => (
            <tr key={row.bl_id} className="h-row">
              <InvoiceCells row={row} />
              <ResultCell row={row} />
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
