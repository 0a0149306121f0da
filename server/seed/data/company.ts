/**
 * The demo company's 自社情報 (lib/resources/company): what its invoices print as the issuer. The 登録番号 is made up
 * (its check digit is right, so the form accepts it) and names no real company.
 */
export const DEMO_COMPANY: Readonly<Record<string, string>> = {
  name: 'アクア宅配センター',
  zipcode: '160-0023',
  address: '東京都新宿区西新宿2-8-1 アクアビル5階',
  tel: '03-5321-0000',
  fax: '03-5321-0001',
  email: 'billing@aqua.example.jp',
  invoice_no: 'T4010001234567',
  bank_name: 'みずほ銀行',
  bank_branch: '新宿支店',
  bank_type: '1',
  bank_account: '1234567',
  bank_holder: 'カ）アクアタクハイセンター',
  itaku_code: '1234567890',
  itaku_name: 'アクアタクハイセンター',
  // Made-up B2 contract codes, so the demo's 送り状出力 makes a file.
  b2_billing_code: '012345678901',
  b2_freight_no: '01',
  itaku_bank_code: '0001',
  itaku_bank_kana: 'ミズホ',
  itaku_branch_code: '123',
  itaku_branch_kana: 'シンジュク',
  itaku_account_type: '1',
  itaku_account_no: '7654321',
  invoice_note: 'お振込みの場合、振込手数料はお客様のご負担でお願いいたします。\n口座振替のお客様は、お支払期限の日にご指定の口座から引き落としいたします。',
};
