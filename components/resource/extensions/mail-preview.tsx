/**
 * Mail template detail extension: the SAVED template filled with a real customer's data (for a
 * template for an order or an invoice: a real order's or invoice's, found by the number staff type) by the server (`mailtemplate_preview`), and a test send of
 * that mail to an address (`mailtemplate_send`, for roles that may write). The panel sits inside
 * the detail's form, so Enter in its inputs runs the panel's action instead of saving the form.
 */
import clsx from 'clsx';
import { useId, useState, type KeyboardEvent } from 'react';
import useSWR from 'swr';
import { call, CallError } from '@/lib/client/api/fetcher';
import { callFetcher, messageOf } from '@/lib/client/list/use-list-controller';
import { useMailProblem } from '@/lib/client/mail/use-mail-status';
import { columnOf, type FieldDef } from '@/lib/resources/types';
import { Button } from '@/components/ui';
import { MailProblem } from '../mail-problem';
import { RefPicker } from '../ref-picker';
import { useSessionEmail } from '../shell-bridge';
import { inputClass, labelClass } from '../styles';
import type { DetailExtensionProps } from './types';
import { useCanCall } from '@/lib/client/auth/use-can-call';
import { cellText } from '../../../lib/resources/checks';

/** The customer picker of the panel (not a field of the template). */
const CLIENT_PICK: FieldDef = { name: 'preview_cl_id', label: 'プレビューする顧客', type: 'ref', ref: 'client', tab: '' };

type Source = { cl_id: string } | { od_number: string } | { bl_number: string };

/** Templates for one record found by its number: what staff type and the parameter it is sent as. */
const BY_NUMBER = {
  order: { what: '受注', label: 'プレビューする受注番号', param: 'od_number', placeholder: '例: OD20260401-000123' },
  billing: { what: '請求', label: 'プレビューする請求番号', param: 'bl_number', placeholder: '請求番号' },
} as const;

/** Runs `action` on Enter (outside an IME composition) without submitting the enclosing form. */
const onEnter = (action: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  event.preventDefault();
  action();
};

/** One line of the rendered mail: its name and its text. */
function PreviewRow({ term, testId, className, children }: { term: string; testId: string; className: string; children: string }) {
  return (
    <div className="flex flex-wrap gap-x-[12px]">
      <dt className="w-[48px] shrink-0 text-[1.3rem] font-medium text-ink-soft">{term}</dt>
      <dd data-testid={testId} className={clsx('min-w-0 flex-1 text-[1.4rem] text-ink', className)}>
        {children}
      </dd>
    </div>
  );
}

export function MailPreview({ def, id, record }: DetailExtensionProps) {
  const target = record[columnOf(def, 'target')];
  const byNumber = target === 'order' || target === 'billing' ? BY_NUMBER[target] : undefined;
  const writable = useCanCall('mailtemplate_send');
  const ids = { pick: useId(), order: useId(), to: useId(), toError: useId(), title: useId(), mailProblem: useId() };
  const mailProblem = useMailProblem();
  const [clientId, setClientId] = useState('');
  const [orderText, setOrderText] = useState('');
  const [source, setSource] = useState<Source>();
  const sessionEmail = useSessionEmail();
  const [to, setTo] = useState(sessionEmail);
  const [sending, setSending] = useState(false);
  const [sendResult, setSendResult] = useState<{ ok: boolean; message: string; field?: boolean }>();

  // The saved version is part of the key: after a save the preview is rendered again.
  const preview = useSWR(
    source ? (['mailtemplate_preview', { id, ...source }, cellText(record.modified ?? '')] as const) : null,
    ([name, params]) => callFetcher([name, params]),
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  const shown = preview.data?.[0];

  const pickClient = (value: string) => {
    setClientId(value);
    setSource(value ? { cl_id: value } : undefined);
    setSendResult(undefined);
  };
  const showOrder = () => {
    const value = orderText.trim();
    setSource(value && byNumber ? ({ [byNumber.param]: value } as Source) : undefined);
    setSendResult(undefined);
  };

  const send = async () => {
    if (!source || sending) return;
    setSending(true);
    setSendResult(undefined);
    try {
      const [answer] = await call('mailtemplate_send', { id, ...source, to });
      if (answer) setSendResult({ ok: true, message: `テストメールを ${answer.to} に送信しました。` });
    } catch (error) {
      setSendResult({ ok: false, message: messageOf(error) ?? '', field: error instanceof CallError && Boolean(error.fields?.to) });
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby={ids.title} className="flex w-full flex-col gap-[10px] py-[4px]">
      <div className="flex flex-wrap items-baseline gap-x-[12px]">
        <h2 id={ids.title} className="text-[1.5rem] font-bold text-ink">
          プレビューとテスト送信
        </h2>
        <p className="text-[1.3rem] text-muted">
          保存済みの件名・本文に、選んだ{byNumber?.what ?? '顧客'}の実際のデータを差し込んで表示します。
        </p>
      </div>

      <div className="flex flex-wrap items-end gap-[12px]">
        {byNumber ? (
          <div className="flex flex-col gap-[3px]">
            <label htmlFor={ids.order} className={labelClass}>
              {byNumber.label}
            </label>
            <div className="flex items-center gap-[6px]">
              <input
                id={ids.order}
                type="text"
                value={orderText}
                placeholder={byNumber.placeholder}
                autoComplete="off"
                onChange={(e) => setOrderText(e.target.value)}
                onKeyDown={onEnter(showOrder)}
                className={clsx(inputClass, 'w-[220px] tabular-nums')}
              />
              <Button size="sm" onClick={showOrder}>
                表示
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex min-w-[300px] flex-col gap-[3px]">
            <label htmlFor={ids.pick} className={labelClass}>
              {CLIENT_PICK.label}
            </label>
            <RefPicker field={CLIENT_PICK} inputId={ids.pick} value={clientId} onChange={pickClient} />
          </div>
        )}
      </div>

      {!source ? (
        <p className="text-[1.3rem] text-muted">{byNumber ? `${byNumber.what}番号を入力して「表示」を押してください。` : '顧客を選ぶとプレビューを表示します。'}</p>
      ) : preview.error ? (
        <p role="alert" className="text-[1.4rem] text-danger">
          {messageOf(preview.error)}
        </p>
      ) : !shown ? (
        <p className="text-[1.3rem] text-muted">プレビューを作成しています…</p>
      ) : (
        <dl aria-label="プレビュー" className="flex flex-col gap-[6px] rounded-[4px] border border-line bg-subtle px-[12px] py-[10px]">
          <PreviewRow term="件名" testId="preview-subject" className="font-medium">
            {shown.subject}
          </PreviewRow>
          <PreviewRow term="本文" testId="preview-body" className="whitespace-pre-wrap break-words leading-[1.7]">
            {shown.body}
          </PreviewRow>
        </dl>
      )}

      {writable && source && shown && (
        <div className="flex flex-wrap items-end gap-[8px]">
          <div className="flex flex-col gap-[3px]">
            <label htmlFor={ids.to} className={labelClass}>
              テスト送信先メールアドレス
            </label>
            <input
              id={ids.to}
              type="email"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              onKeyDown={onEnter(() => void send())}
              aria-invalid={sendResult?.field || undefined}
              aria-describedby={sendResult?.field ? ids.toError : undefined}
              autoComplete="off"
              className={clsx(inputClass, 'w-[300px]')}
            />
          </div>
          <Button variant="primary" onClick={() => void send()} disabled={sending || mailProblem !== ''} aria-describedby={mailProblem ? ids.mailProblem : undefined}>
            {sending ? '送信中…' : 'テスト送信'}
          </Button>
          <MailProblem id={ids.mailProblem} problem={mailProblem} />
        </div>
      )}
      {sendResult && (
        <p id={ids.toError} role={sendResult.ok ? 'status' : 'alert'} className={clsx('text-[1.4rem]', sendResult.ok ? 'text-success' : 'text-danger')}>
          {sendResult.message}
        </p>
      )}
    </section>
  );
}
