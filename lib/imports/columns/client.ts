/**
 * 顧客取込 (/client/import): the columns of a customer file — every field the customer form has that a person types
 * (not pictures, passwords or what the server derives), headed by the form's labels, with the headers other systems
 * and our own CSV export use for them. 顧客コード is the natural key: a file without it is refused. The export's ID column
 * (`client_csv` cols=all) is read too: a row without a code, or whose code is new, updates the customer of its ID, so
 * the exported file imports again as updates of the same customers.
 */
import { clientResource } from '../../resources/client';
import type { FieldDef } from '../../resources/types';
import type { ImportColumn, ImportKindInfo } from '../kinds';
import { IMPORT_PAGES } from '../pages';

/** Other headers meaning a field (matched after NFKC, spaces removed, case folded). */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  code: ['顧客番号', '顧客CD', '得意先コード', '取引先コード', 'お客様番号', 'お客様コード', 'customer code', 'code'],
  co_name: ['顧客名', '法人名', '会社', '得意先名', '取引先名', '社名', 'company'],
  co_name_kana: ['顧客名カナ', '会社名フリガナ', '会社名(カナ)', '法人名カナ'],
  name: ['名前', '担当者名', '氏名(個人)', 'お名前', '個人名'],
  name_kana: ['氏名フリガナ', 'フリガナ', 'ふりがな', 'お名前カナ', '氏名(カナ)'],
  tel_1: ['電話番号', 'TEL', '電話', 'TEL1', '電話1', '携帯電話', 'phone'],
  tel_2: ['TEL2', '電話2', '携帯番号'],
  email: ['メール', 'Eメール', 'E-mail', 'mail', 'メールアドレス1'],
  zipcode: ['〒', '郵便', '郵便番号(7桁)', 'zip'],
  pref: ['県', '都道府県名'],
  city: ['市区町村名', '住所1'],
  address: ['住所', '住所2', '町名番地'],
  building: ['建物', 'ビル名', '住所3', '建物名・部屋番号'],
  shipping_zipcode: ['配送先〒'],
  shipping_tel: ['配送先TEL'],
  billing_zipcode: ['請求先〒'],
  billing_tel: ['請求先TEL'],
  parent_id: ['請求親顧客コード', '親顧客コード', '請求先顧客コード'],
  delivery_usr_id: ['配送担当者名'],
  dairiten_id: ['代理店コード', '代理店名'],
  opening_balance: ['開始残高', '繰越残高', '売掛残高(開始)', '前回請求額'],
  opening_balance_date: ['開始残高基準日', '繰越日'],
  biko_1: ['備考'],
};

/** Fields a file may fill: what the form lets a person type. */
export const importableClientFields = (): readonly FieldDef[] =>
  clientResource.fields.filter((f: FieldDef) => f.type !== 'image' && f.type !== 'secret' && !f.readOnly);

/** The row key of the export's ID column (no field of the form is named so). */
export const CLIENT_ID_COLUMN = 'id';

export const clientImportColumns: readonly ImportColumn[] = [
  ...importableClientFields().map((f) => ({
    field: f.name,
    label: f.label,
    synonyms: SYNONYMS[f.name],
    required: f.name === 'code' || undefined,
  })),
  { field: CLIENT_ID_COLUMN, label: 'ID', synonyms: ['顧客ID', 'cl_id'] },
];

export const clientImportKind: ImportKindInfo = {
  label: IMPORT_PAGES.client.label,
  area: 'client',
  format: 'csv',
  route: IMPORT_PAGES.client.route,
  columns: clientImportColumns,
};
