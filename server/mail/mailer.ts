/**
 * Sending one plain-text mail (with files attached, e.g. an invoice PDF) through the SMTP server of the
 * configuration (SMTP_* variables).
 * Every failure becomes an ApiError with a Japanese message saying what went wrong; nothing throws
 * past it, and no SMTP detail beyond the reply code reaches the answer. Sending that is not set up (no SMTP_HOST or
 * no sender) is the user's to know before any mail action (`mailProblem`, answered by `mail_status` to the screens):
 * a 400 with its Japanese message, never an internal error logged with a stack.
 */
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config';
import { ApiError } from '../http/api-error';

export const MAIL_MESSAGES = {
  notConfigured: 'メールサーバー（SMTP）が設定されていません。管理者に SMTP_HOST などの設定を依頼してください。',
  noSender: '送信元のメールアドレス（MAIL_FROM）が設定されていません。',
  unreachable: 'メールを送信できませんでした（メールサーバーに接続できません）。',
  timeout: 'メールを送信できませんでした（メールサーバーの応答がありません）。',
  tls: 'メールを送信できませんでした（メールサーバーとの暗号化通信に失敗しました）。',
  auth: 'メールを送信できませんでした（メールサーバーの認証に失敗しました）。SMTP_USER と SMTP_PASS を確認してください。',
  refusedRecipient: 'メールを送信できませんでした（メールサーバーが送信先を受け付けませんでした）。',
  refused: 'メールを送信できませんでした（メールサーバーが受け付けませんでした）。',
} as const;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The sender's display name (our company). */
  fromName: string;
  /** Files attached to the mail. */
  attachments?: readonly MailAttachment[];
}

export interface MailAttachment {
  /** The file name the recipient sees (Japanese is fine: RFC 2231). */
  filename: string;
  content: Buffer;
  contentType: string;
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  command?: string;
}

/** What a nodemailer failure means for the user (502: the mail server failed, not the request). */
export function sendFailure(error: unknown): ApiError {
  const { code = '', responseCode, command = '' } = (typeof error === 'object' && error !== null ? error : {}) as SmtpFailure;
  const reply = responseCode ? `（応答コード ${responseCode}）` : '';
  if (code === 'EAUTH' || code === 'ENOAUTH') return new ApiError(502, MAIL_MESSAGES.auth + reply);
  if (code === 'EENVELOPE' || /^RCPT/i.test(command)) return new ApiError(502, MAIL_MESSAGES.refusedRecipient + reply);
  if (code === 'ETIMEDOUT') return new ApiError(502, MAIL_MESSAGES.timeout);
  if (code === 'ETLS') return new ApiError(502, MAIL_MESSAGES.tls);
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS' || code === 'EPROXY') return new ApiError(502, MAIL_MESSAGES.unreachable);
  return new ApiError(502, MAIL_MESSAGES.refused + reply);
}

/**
 * Why mail cannot be sent with these settings (no SMTP server, no sender address), or undefined when it can.
 * @example mailProblem({ host: '', port: 587, secure: false, user: '', pass: '', from: '' }) // MAIL_MESSAGES.notConfigured
 */
export function mailProblem(smtp: SmtpConfig): string | undefined {
  if (!smtp.host) return MAIL_MESSAGES.notConfigured;
  if (!smtp.from) return MAIL_MESSAGES.noSender;
  return undefined;
}

/** Refuses a mail action up front when sending is not set up: 400 with the reason (a setting missing is not a failure of the server). */
export function assertMailReady(smtp: SmtpConfig): void {
  const problem = mailProblem(smtp);
  if (problem) throw new ApiError(400, problem);
}

/**
 * Sends a mail; answers the message id the server accepted it under.
 * @example await sendMail(config.smtp, { to: 'info@example.jp', subject: '件名', text: '本文', fromName: 'アクア宅配センター' })
 */
export async function sendMail(smtp: SmtpConfig, mail: OutgoingMail): Promise<string> {
  assertMailReady(smtp);
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    const info = await transport.sendMail({
      from: { name: mail.fromName, address: smtp.from },
      to: { name: '', address: mail.to },
      subject: mail.subject,
      text: mail.text,
      attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
    });
    if (info.rejected.length > 0) throw new ApiError(502, MAIL_MESSAGES.refusedRecipient);
    return info.messageId;
  } catch (error) {
    throw error instanceof ApiError ? error : sendFailure(error);
  } finally {
    transport.close();
  }
}
