/**
 * Mail templates' placeholders (差し込み項目) such as `{{顧客名}}`: the one list of them, the values
 * they take from a customer (and an order, or an invoice), rendering, and the check that refuses unknown ones.
 * Pure: the server renders previews and test mails with it, the detail screen shows its help list,
 * and the resource's `check` uses it on the form and on save.
 */
import { formatDateJa, formatMoney } from './format';
import { columnOf } from './resources/types';
import { clientResource } from './resources/client';
import { orderResource } from './resources/order';
import { cellText as text } from './resources/checks';

/** Whom a template is written for: a customer, one order of a customer, or one invoice (請求, sent with its PDF). */
export type MailTarget = 'client' | 'order' | 'billing';

export const MAIL_TARGETS = [
  { value: 'client', text: '顧客' },
  { value: 'order', text: '受注' },
  { value: 'billing', text: '請求' },
] as const;

/** A stored target ('' or unknown → undefined). */
export const mailTargetOf = (value: unknown): MailTarget | undefined =>
  MAIL_TARGETS.find((t) => t.value === value)?.value;

/** The target's name in messages: 「受注」. */
const targetText = (target: MailTarget): string => MAIL_TARGETS.find((t) => t.value === target)?.text ?? target;

export interface Placeholder {
  /** The name written between the braces: `{{顧客名}}`. */
  key: string;
  description: string;
  /** Only templates for this target may use it (an order's number, an invoice's amount). */
  only?: Exclude<MailTarget, 'client'>;
}

export const PLACEHOLDERS: readonly Placeholder[] = [
  { key: '顧客名', description: '会社名（なければ氏名）' },
  { key: '会社名', description: '顧客の会社名' },
  { key: '氏名', description: '顧客の氏名（担当者名）' },
  { key: '顧客ID', description: '顧客の ID' },
  { key: '郵便番号', description: '顧客の郵便番号' },
  { key: '住所', description: '都道府県・市区町村・番地・建物名' },
  { key: '電話番号', description: '顧客の電話番号1' },
  { key: '次回配送日', description: '定期配送の次回配送日' },
  { key: '担当者名', description: '送信する担当者の氏名' },
  { key: '自社名', description: '自社の名前' },
  { key: '本日の日付', description: '送信する日の日付' },
  { key: '受注番号', description: '受注の番号', only: 'order' },
  { key: '受注日', description: '受注日', only: 'order' },
  { key: '合計金額', description: '受注の合計金額（例: 1,234円）', only: 'order' },
  { key: '請求番号', description: '請求の番号', only: 'billing' },
  { key: '請求期間', description: '請求の対象期間（例: 2026年4月21日〜2026年5月20日）', only: 'billing' },
  { key: '今回請求額', description: '今回のご請求額（例: 12,345円）', only: 'billing' },
  { key: '入金予定日', description: 'お支払い期日（入金予定日）', only: 'billing' },
];

/** `{{名前}}`, also typed with full-width braces `｛｛名前｝｝`; spaces inside are ignored. */
const PLACEHOLDER = /(?:\{\{|｛｛)[ \t　]*([^{}｛｝\n]*?)[ \t　]*(?:\}\}|｝｝)/g;

/** The placeholders a template for the target may use. */
export const placeholdersFor = (target: MailTarget): readonly Placeholder[] =>
  PLACEHOLDERS.filter((p) => !p.only || p.only === target);

/** `{{名前}}` as written in the help list and the messages. */
export const placeholderText = (key: string): string => `{{${key}}}`;

/**
 * The placeholder names a text uses, once each, in order of appearance.
 * @example placeholdersIn('{{顧客名}} 様 {{顧客名}} {{x}}') // ['顧客名', 'x']
 */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * The placeholder names in a text that a template for the target may not use.
 * @example unknownPlaceholders('{{受注番号}} {{顧客名}}', 'client') // ['受注番号']
 */
export function unknownPlaceholders(text: string, target: MailTarget): string[] {
  const known = new Set(placeholdersFor(target).map((p) => p.key));
  return placeholdersIn(text).filter((key) => !known.has(key));
}

/** What a mail is filled from: answered rows (prefixed columns) and the sender. */
export interface MailData {
  /** The customer's detail row (`cl_*`). */
  client: Record<string, unknown>;
  /** The order's detail row (`od_*`), for templates for an order. */
  order?: Record<string, unknown>;
  /** The invoice's row (`bl_*`), for templates for an invoice. */
  billing?: Record<string, unknown>;
  /** The staff member who sends. */
  senderName: string;
  /** Our company's name (自社情報, else COMPANY_NAME). */
  companyName: string;
  /** Today's Japan date, YYYY-MM-DD. */
  today: string;
}


/**
 * The value of every placeholder for a customer (and an order).
 * @example mailValues({ client: { cl_co_name: '山田商店' }, senderName: '営業 花子', companyName: 'アクア宅配センター', today: '2026-04-01' })['顧客名'] // '山田商店'
 */
export function mailValues(data: MailData): Record<string, string> {
  const cl = (name: string) => text(data.client[columnOf(clientResource, name)]);
  const od = (name: string) => text(data.order?.[columnOf(orderResource, name)]);
  const building = cl('building');
  const values: Record<string, string> = {
    顧客名: cl('co_name') || cl('name'),
    会社名: cl('co_name'),
    氏名: cl('name'),
    顧客ID: cl('id'),
    郵便番号: cl('zipcode'),
    住所: `${cl('pref')}${cl('city')}${cl('address')}${building ? ` ${building}` : ''}`,
    電話番号: cl('tel_1'),
    次回配送日: formatDateJa(cl('next_shipping_date')),
    担当者名: data.senderName,
    自社名: data.companyName,
    本日の日付: formatDateJa(data.today),
  };
  if (data.order) {
    values.受注番号 = od('number');
    values.受注日 = formatDateJa(od('date'));
    values.合計金額 = formatMoney(od('uriage_total'));
  }
  if (data.billing) {
    const bl = (name: string) => text(data.billing?.[`bl_${name}`]);
    values.請求番号 = bl('number');
    values.請求期間 = `${formatDateJa(bl('period_from'))}〜${formatDateJa(bl('period_to'))}`;
    values.今回請求額 = formatMoney(bl('total'));
    values.入金予定日 = formatDateJa(bl('due_date'));
  }
  return values;
}

/**
 * Fills a text's placeholders; unknown ones stay as written and are reported.
 * @example renderTemplate('{{顧客名}} 様', { 顧客名: '山田商店' }) // { text: '山田商店 様', unknown: [] }
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): { text: string; unknown: string[] } {
  const unknown = new Set<string>();
  const out = template.replace(PLACEHOLDER, (whole, key: string) => {
    if (Object.hasOwn(values, key)) return values[key];
    unknown.add(key);
    return whole;
  });
  return { text: out, unknown: [...unknown] };
}

export interface RenderedMail {
  subject: string;
  body: string;
  /** Placeholders that had no value (none for a template that passed the save check). */
  unknown: string[];
}

/**
 * A template's subject and body filled for a customer (and an order). The subject is one line.
 * @example renderMail({ subject: '{{顧客名}} 様', body: '…' }, data).subject // '山田商店 様'
 */
export function renderMail(template: { subject: string; body: string }, data: MailData): RenderedMail {
  const values = mailValues(data);
  const subject = renderTemplate(template.subject, values);
  const body = renderTemplate(template.body, values);
  return {
    subject: subject.text.replace(/\s*[\r\n]+\s*/g, ' ').trim(),
    body: body.text,
    unknown: [...new Set([...subject.unknown, ...body.unknown])],
  };
}

const TEMPLATE_FIELDS = [
  ['subject', '件名'],
  ['body', '本文'],
] as const;

/**
 * Field → message for every text field using placeholders the template's target does not offer
 * (the template's form and its save). Without a known target, every placeholder counts as known
 * for the target check; the save checks again with the stored target.
 * @example templateProblems({ target: 'client', subject: '{{受注番号}}', body: '' }) // { subject: '件名に使用できない差し込み項目があります: {{受注番号}}（…）' }
 */
export function templateProblems(values: Record<string, unknown>): Record<string, string> | undefined {
  const target = mailTargetOf(values.target);
  const known = new Set((target ? placeholdersFor(target) : PLACEHOLDERS).map((p) => p.key));
  const problems: Record<string, string> = {};
  for (const [name, label] of TEMPLATE_FIELDS) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    const unknown = placeholdersIn(value).filter((key) => !known.has(key));
    if (!unknown.length) continue;
    // A placeholder of another target is named with the target that offers it.
    const notes = MAIL_TARGETS.map(({ value: other }) => {
      const keys = unknown.filter((key) => PLACEHOLDERS.some((p) => p.key === key && p.only === other));
      return keys.length ? `${keys.map(placeholderText).join('、')} は対象が「${targetText(other)}」のテンプレートでのみ使えます` : '';
    }).filter(Boolean);
    const note = notes.length ? `（${notes.join('。')}）` : '';
    problems[name] = `${label}に使用できない差し込み項目があります: ${unknown.map(placeholderText).join('、')}${note}`;
  }
  return Object.keys(problems).length ? problems : undefined;
}
