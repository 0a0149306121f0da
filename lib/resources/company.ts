/**
 * 自社情報 (`/system/company`, calls `company_dtl` / `company_save`): one record (id 1) of our own company — the
 * issuer of every invoice (name, address, phone, 登録番号 `invoice_no`), the account customers transfer to, the
 * 委託者 data of direct debit (口座振替), the note printed on invoices, and the prefix of the customer codes given in bulk
 * (`client_code_assign`). Read by the invoice PDF
 * (server/billing/invoice-document.ts) and the invoice mails.
 */
import { registrationNumberProblem } from '../billing/registration-number';
import type { Option, ResourceDef } from './types';
import { cellText } from './checks';

export const COMPANY_SETTING_ID = 1;

/** The width of a running number `client_code_assign` gives when 自社情報 names none. */
export const CLIENT_CODE_DIGITS = 5;

/** 預金種目 of the transfer account (全銀 codes). */
export const BANK_ACCOUNT_TYPE: readonly Option[] = [
  { value: '1', text: '普通' },
  { value: '2', text: '当座' },
];

/** The transfer account's fields: all of them or none. */
const BANK_FIELDS = ['bank_name', 'bank_branch', 'bank_type', 'bank_account', 'bank_holder'] as const;

const filled = (value: unknown): boolean => cellText(value).trim() !== '';

/**
 * The record's own rules: the 登録番号's form and check digit, the account number and 委託者コード as digits, and
 * a transfer account given whole.
 * @example companyProblems({ invoice_no: 'T1180301018772' }) // { invoice_no: '登録番号の検査用数字…' }
 */
export function companyProblems(values: Record<string, unknown>): Record<string, string> | undefined {
  const problems: Record<string, string> = {};
  const invoiceNo = cellText(values.invoice_no);
  const invoiceProblem = invoiceNo ? registrationNumberProblem(invoiceNo) : undefined;
  if (invoiceProblem) problems.invoice_no = invoiceProblem;
  const account = cellText(values.bank_account);
  if (account && !/^\d{7}$/.test(account)) problems.bank_account = '口座番号は 7 桁の数字で入力してください（7 桁に満たないときは先頭を 0 で埋めます）。';
  const code = cellText(values.itaku_code);
  if (code && !/^\d{10}$/.test(code)) problems.itaku_code = '委託者コードは 10 桁の数字で入力してください。';
  const b2 = cellText(values.b2_billing_code);
  if (b2 && !/^\d{12}$/.test(b2)) problems.b2_billing_code = 'B2 ご請求先顧客コードは 12 桁の数字で入力してください。';
  const b2Class = cellText(values.b2_billing_class);
  if (b2Class && !/^\d{1,3}$/.test(b2Class)) problems.b2_billing_class = 'B2 ご請求先分類コードは 3 桁までの数字で入力してください。';
  const freight = cellText(values.b2_freight_no);
  if (freight && !/^\d{2}$/.test(freight)) problems.b2_freight_no = 'B2 運賃管理番号は 2 桁の数字で入力してください。';
  for (const [name, digits, label] of [['itaku_bank_code', 4, '取引銀行コード'], ['itaku_branch_code', 3, '取引支店コード'], ['itaku_account_no', 7, '取引口座の口座番号']] as const) {
    const value = cellText(values[name]);
    if (value && !new RegExp(`^\\d{${digits}}$`).test(value)) problems[name] = `${label}は ${digits} 桁の数字で入力してください。`;
  }
  // The form sends every field; a save sending only some (an API client) is judged on those it sends.
  if (BANK_FIELDS.some((name) => filled(values[name]))) {
    for (const name of BANK_FIELDS) {
      if (values[name] !== undefined && !filled(values[name])) problems[name] ??= '振込先は銀行名・支店名・種別・口座番号・口座名義をすべて入力してください。';
    }
  }
  return Object.keys(problems).length ? problems : undefined;
}

export const companyResource = {
  name: 'company',
  label: '自社情報',
  table: 'company_setting',
  prefix: 'cs_',
  basePath: '/system/company',
  screens: { detail: '自社情報' },
  area: 'system',
  storageKey: 'company',
  tabs: [
    { key: 'basic', label: '会社' },
    { key: 'bank', label: '振込先' },
    { key: 'debit', label: '口座振替' },
    { key: 'invoice', label: '請求書' },
    { key: 'b2', label: '送り状（B2）' },
  ],
  fields: [
    { name: 'name', label: '会社名', type: 'text', tab: 'basic', required: true, max: 100, hint: '請求書の発行者名、メールの {{自社名}} になります。' },
    { name: 'zipcode', label: '郵便番号', type: 'zip', tab: 'basic' },
    { name: 'address', label: '住所', type: 'text', tab: 'basic', max: 200, wide: true },
    { name: 'tel', label: '電話番号', type: 'tel', tab: 'basic' },
    { name: 'fax', label: 'FAX', type: 'tel', tab: 'basic' },
    { name: 'email', label: 'メールアドレス', type: 'email', tab: 'basic', max: 254 },
    {
      name: 'invoice_no', label: '登録番号', type: 'text', tab: 'basic', max: 14, placeholder: 'T1234567890123',
      hint: '適格請求書発行事業者の登録番号（T と 13 桁の数字）。検査用数字を確かめます。',
    },
    { name: 'client_code_prefix', label: '顧客コードの接頭辞', type: 'text', tab: 'basic', max: 10, placeholder: 'C', hint: '顧客一覧の「顧客コードを一括採番」で、コードのない顧客にこの文字と連番を振ります（例: C00001）。' },
    { name: 'client_code_digits', label: '顧客コードの連番の桁数', type: 'number', tab: 'basic', min: 1, max: 10, placeholder: String(CLIENT_CODE_DIGITS), hint: `空欄なら ${CLIENT_CODE_DIGITS} 桁です。` },
    { name: 'bank_name', label: '銀行名', type: 'text', tab: 'bank', max: 50, placeholder: 'みずほ銀行' },
    { name: 'bank_branch', label: '支店名', type: 'text', tab: 'bank', max: 50 },
    { name: 'bank_type', label: '種別', type: 'select', tab: 'bank', options: BANK_ACCOUNT_TYPE },
    { name: 'bank_account', label: '口座番号', type: 'text', tab: 'bank', max: 7, placeholder: '1234567' },
    { name: 'bank_holder', label: '口座名義', type: 'kana', tab: 'bank', max: 100, hint: '請求書に印刷する振込先の名義（カナ）' },
    { name: 'itaku_code', label: '委託者コード', type: 'text', tab: 'debit', max: 10, hint: '口座振替の依頼データ（全銀フォーマット）の委託者コード（10 桁）' },
    { name: 'b2_billing_code', label: 'B2 ご請求先顧客コード', type: 'text', tab: 'b2', max: 12, placeholder: '012345678901', hint: 'ヤマト B2 クラウドの送り状 CSV（送り状出力）に入れるご請求先顧客コード（12 桁）。' },
    { name: 'b2_billing_class', label: 'B2 ご請求先分類コード', type: 'text', tab: 'b2', max: 3, hint: '分類コードを使う契約のときだけ（3 桁まで）。' },
    { name: 'b2_freight_no', label: 'B2 運賃管理番号', type: 'text', tab: 'b2', max: 2, placeholder: '01', hint: '送り状 CSV の運賃管理番号（2 桁）。' },
    { name: 'itaku_name', label: '委託者名（カナ）', type: 'kana', zengin: true, tab: 'debit', max: 40 },
    // The header record of the request file (全銀 種別91): the consignor's bank and account the debits are paid into.
    { name: 'itaku_bank_code', label: '取引銀行コード', type: 'text', tab: 'debit', max: 4, hint: '口座振替の代金を受け取る委託者の口座（金融機関コード 4 桁）' },
    { name: 'itaku_bank_kana', label: '取引銀行名（カナ）', type: 'kana', zengin: true, tab: 'debit', max: 15 },
    { name: 'itaku_branch_code', label: '取引支店コード', type: 'text', tab: 'debit', max: 3 },
    { name: 'itaku_branch_kana', label: '取引支店名（カナ）', type: 'kana', zengin: true, tab: 'debit', max: 15 },
    { name: 'itaku_account_type', label: '取引口座 預金種目', type: 'select', tab: 'debit', options: BANK_ACCOUNT_TYPE },
    { name: 'itaku_account_no', label: '取引口座 口座番号', type: 'text', tab: 'debit', max: 7 },
    { name: 'invoice_note', label: '請求書の備考', type: 'textarea', tab: 'invoice', max: 500, wide: true, hint: '請求書の最後に印刷します（お支払い方法のご案内など）。' },
  ],
  list: {
    columns: [{ name: 'cs_name', label: '会社名' }, { name: 'cs_invoice_no', label: '登録番号' }],
    sortable: ['cs_id', 'modified'],
    keyword: [],
    defaultSort: { col: 'cs_id', odr: 'asc' },
    filters: [],
  },
  titleFields: ['name'],
  single: COMPANY_SETTING_ID,
  ops: { create: false, delete: false },
  check: companyProblems,
} as const satisfies ResourceDef;
