/**
 * 自社情報 and the invoice mail (issue 13):
 * - `company_setting` (resource `company`, `cs_*`): one record (id 1) of our company — name, address, phone, 登録番号
 *   `cs_invoice_no`, the transfer account, the 委託者 data of direct debit and the note printed on invoices. Created
 *   empty: invoices are refused until its name, address and 登録番号 are entered (/system/company).
 * - A mail template for invoices (対象「請求」, 用途 請求書送付), so `billing_mail` works on every database, the demo
 *   company's and a real one alike; staff may edit it like any template.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { mailTemplateResource } from '../../../lib/resources/mail-template';
import { searchText } from '../../resources';
import { createResourceTable } from './resource-table';

/** The invoice mail as first installed (placeholders of lib/mail-template). */
export const INVOICE_MAIL_TEMPLATE = {
  name: '請求書（PDF）のお届け',
  category: '3',
  target: 'billing',
  subject: '【{{自社名}}】ご請求書のお届け（請求番号 {{請求番号}}）',
  body: `{{顧客名}} 様

平素より{{自社名}}をご利用いただき、誠にありがとうございます。
{{請求期間}}分のご請求書を PDF にてお送りいたします。

請求番号: {{請求番号}}
ご請求金額: {{今回請求額}}
お支払期限: {{入金予定日}}

口座振替をご利用のお客様は、ご指定の口座から自動で引き落としいたします。
ご不明な点がございましたら、お気軽にお問い合わせください。

──────────────────
{{自社名}}
担当: {{担当者名}}
──────────────────`,
  note: '請求の「メール送信」で、請求書 PDF を添付して送ります。',
};

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'company_setting', prefix: 'cs_',
    text: ['name', 'zipcode', 'address', 'tel', 'fax', 'email', 'invoice_no', 'bank_name', 'bank_branch', 'bank_type', 'bank_account',
      'bank_holder', 'itaku_code', 'itaku_name', 'invoice_note'],
    integer: [],
    sortable: ['modified'],
  });
  const stamp = new Date().toISOString();
  await sql`INSERT INTO company_setting (created, modified, deleted) VALUES (${stamp}, ${stamp}, 0)`.execute(db);
  const t = INVOICE_MAIL_TEMPLATE;
  const taken = await sql<{ n: number }>`SELECT count(*) AS n FROM mail_template WHERE ml_name = ${t.name} AND deleted = 0`.execute(db);
  if (Number(taken.rows[0].n) === 0) {
    const search = searchText(mailTemplateResource, { ml_name: t.name, ml_subject: t.subject, ml_body: t.body, ml_note: t.note });
    await sql`INSERT INTO mail_template (ml_name, ml_category, ml_target, ml_active, ml_subject, ml_body, ml_note, ml_search, created, modified, deleted)
      VALUES (${t.name}, ${t.category}, ${t.target}, 1, ${t.subject}, ${t.body}, ${t.note}, ${search}, ${stamp}, ${stamp}, 0)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM mail_template WHERE ml_target = 'billing'`.execute(db);
  await db.schema.dropTable('company_setting').ifExists().execute();
}
