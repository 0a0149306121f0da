/**
 * 顧客 (customer): the declaration behind `client_*` calls, /client/list and /client/detail/{id}.
 * Field names are the spec's copy list (§3); columns are `cl_` + name.
 */
import { PREFECTURE_OPTIONS } from '../prefectures';
import { DEBIT_ACCOUNT_TYPES, DEBIT_RESULTS } from '../zengin/format';
import * as O from './options';
import type { FieldDef, ResourceDef } from './types';
import { cellText } from './checks';
import { peppolIdProblem } from '../billing/peppol';

const address = <P extends string>(prefix: P, tab: string, what: string) => [
  { name: `${prefix}co_name`, label: `${what}会社名`, type: 'text', tab, max: 100 },
  { name: `${prefix}busyo`, label: `${what}部署`, type: 'text', tab, max: 100 },
  { name: `${prefix}name`, label: `${what}氏名`, type: 'text', tab, max: 100 },
  { name: `${prefix}name_kana`, label: `${what}氏名カナ`, type: 'kana', tab, max: 100 },
  { name: `${prefix}zipcode`, label: `${what}郵便番号`, type: 'zip', tab },
  { name: `${prefix}pref`, label: `${what}都道府県`, type: 'select', tab, options: PREFECTURE_OPTIONS },
  { name: `${prefix}city`, label: `${what}市区町村`, type: 'text', tab, max: 100 },
  { name: `${prefix}address`, label: `${what}番地`, type: 'text', tab, max: 200 },
  { name: `${prefix}building`, label: `${what}建物名`, type: 'text', tab, max: 200 },
  { name: `${prefix}tel`, label: `${what}電話番号`, type: 'tel', tab },
  { name: `${prefix}fax`, label: `${what}FAX`, type: 'tel', tab },
] as const satisfies readonly FieldDef[];

const bunrui = ([1, 2, 3, 4, 5, 6, 7] as const).map(
  (n) => ({ name: `bunrui_${n}` as const, label: `顧客分類${n}`, type: 'select' as const, tab: 'category', master: `mt_bunrui_${n}` }) satisfies FieldDef,
);

export const clientFields = [
  // 基本情報
  { name: 'status', label: '状態', type: 'select', tab: 'basic', master: 'mt_status', required: true, initial: '1' },
  // The customer's own code (issue 14): the natural key of 顧客取込, unique among live customers that have one.
  { name: 'code', label: '顧客コード', type: 'text', tab: 'basic', max: 20, unique: true },
  { name: 'co_name', label: '会社名', type: 'text', tab: 'basic', max: 100, reading: 'co_name_kana' },
  { name: 'co_name_kana', label: '会社名カナ', type: 'kana', tab: 'basic', max: 100 },
  { name: 'busyo', label: '部署', type: 'text', tab: 'basic', max: 100 },
  { name: 'job_title', label: '役職', type: 'text', tab: 'basic', max: 50 },
  { name: 'name', label: '氏名', type: 'text', tab: 'basic', max: 100, reading: 'name_kana' },
  { name: 'name_kana', label: '氏名カナ', type: 'kana', tab: 'basic', max: 100 },
  { name: 'keisho', label: '敬称', type: 'select', tab: 'basic', options: O.KEISHO },
  { name: 'tel_1', label: '電話番号1', type: 'tel', tab: 'basic', required: true },
  { name: 'tel_2', label: '電話番号2', type: 'tel', tab: 'basic' },
  { name: 'fax', label: 'FAX', type: 'tel', tab: 'basic' },
  { name: 'email', label: 'メールアドレス', type: 'email', tab: 'basic', max: 254 },
  { name: 'website', label: 'ウェブサイト', type: 'url', tab: 'basic', max: 254 },
  { name: 'zipcode', label: '郵便番号', type: 'zip', tab: 'basic' },
  { name: 'pref', label: '都道府県', type: 'select', tab: 'basic', options: PREFECTURE_OPTIONS },
  { name: 'city', label: '市区町村', type: 'text', tab: 'basic', max: 100 },
  { name: 'address', label: '番地', type: 'text', tab: 'basic', max: 200 },
  { name: 'building', label: '建物名', type: 'text', tab: 'basic', max: 200 },
  { name: 'lat', label: '緯度', type: 'decimal', tab: 'basic', min: -90, max: 90 },
  { name: 'lng', label: '経度', type: 'decimal', tab: 'basic', min: -180, max: 180 },
  { name: 'sex', label: '性別', type: 'select', tab: 'basic', options: O.SEX },
  { name: 'birthday', label: '生年月日', type: 'date', tab: 'basic' },
  { name: 'contact', label: '連絡方法', type: 'text', tab: 'basic', max: 100 },
  { name: 'image', label: '画像', type: 'image', tab: 'basic', wide: true },
  // 分類
  ...bunrui,
  { name: 'riyou', label: '利用区分', type: 'select', tab: 'category', options: O.RIYOU },
  { name: 'zokusei', label: '属性', type: 'text', tab: 'category', max: 50 },
  { name: 'rank', label: 'ランク', type: 'select', tab: 'category', master: 'mt_rank' },
  { name: 'area', label: 'エリア', type: 'select', tab: 'category', master: 'mt_area' },
  // The chain of 請求親顧客 never loops; a customer's invoices go to its top (server/clients/billing-chain.ts).
  { name: 'parent_id', label: '請求親顧客', type: 'ref', ref: 'client', tab: 'category', hint: '請求をまとめる先の顧客（本社など）。親の親があれば最上位の顧客に請求します' },
  { name: 'shinyou', label: '信用区分', type: 'select', tab: 'category', options: O.SHINYOU },
  { name: 'dm', label: 'DM送付', type: 'flag', tab: 'category' },
  { name: 'point_taishou', label: 'ポイント対象', type: 'flag', tab: 'category' },
  // 配送先
  ...address('shipping_', 'shipping', '配送先'),
  { name: 'shipping_usr', label: '配送担当', type: 'text', tab: 'shipping', max: 50 },
  { name: 'atm_type', label: '午前・午後指定', type: 'select', tab: 'shipping', options: O.ATM_TYPE },
  { name: 'ht_id', label: '配達時間帯', type: 'select', tab: 'shipping', master: 'mt_delivery_time' },
  { name: 'sk_id', label: '出荷倉庫', type: 'select', tab: 'shipping', master: 'mt_warehouse' },
  // 請求先
  ...address('billing_', 'billing', '請求先'),
  { name: 'billing_email', label: '請求先メールアドレス', type: 'email', tab: 'billing', max: 254 },
  { name: 'peppol_id', label: 'Peppol ID（デジタルインボイスの宛先）', type: 'text', tab: 'billing', max: 60, placeholder: '0188:1234567890123', hint: 'デジタルインボイス（JP PINT）を受け取る顧客の Peppol ID。スキーム 4 桁と識別子を「:」でつなぎます' },
  { name: 'invoice_delivery', label: '請求書の送付方法', type: 'select', tab: 'billing', options: O.INVOICE_DELIVERY, hint: 'メールで送るときは請求先メールアドレス（空欄ならメールアドレス）に送ります' },
  // A customer moved from another system starts with this balance as the 前回請求額 of its first invoice.
  { name: 'opening_balance', label: '開始売掛残高', type: 'money', tab: 'billing', min: -999_999_999, max: 999_999_999, hint: '他のシステムから移行した顧客の最初の請求の前回請求額です（マイナス可）' },
  { name: 'opening_balance_date', label: '開始売掛残高の基準日', type: 'date', tab: 'billing' },
  // 口座振替 (JACCS, 全銀 種別91): the account debited, the 顧客番号 of the request file and the last result (issue 14).
  { name: 'bank_code', label: '口座振替 銀行コード', type: 'text', tab: 'billing', max: 4, placeholder: '0001', hint: '口座振替の引落口座（金融機関コード 4 桁）' },
  { name: 'branch_code', label: '口座振替 支店コード', type: 'text', tab: 'billing', max: 3, placeholder: '001' },
  { name: 'account_type', label: '口座振替 預金種目', type: 'select', tab: 'billing', options: DEBIT_ACCOUNT_TYPES },
  { name: 'account_no', label: '口座振替 口座番号', type: 'text', tab: 'billing', max: 7, placeholder: '0123456', hint: '7 桁（7 桁に満たないときは先頭を 0 で埋めます）' },
  { name: 'account_kana', label: '口座名義カナ', type: 'kana', zengin: true, tab: 'billing', max: 30, hint: '通帳の名義どおりに。半角カナで保存します（小さい文字は大きく、ーは - になります）' },
  { name: 'debit_code', label: '口座振替 顧客番号', type: 'text', tab: 'billing', max: 20, unique: true, hint: '振替依頼データの顧客番号（20 桁の数字）' },
  { name: 'debit_result', label: '口座振替結果', type: 'select', tab: 'billing', options: DEBIT_RESULTS, readOnly: true },
  { name: 'debit_result_date', label: '口座振替結果の引落日', type: 'date', tab: 'billing', readOnly: true },
  // 定期配送
  { name: 'haiso_flag', label: '定期配送', type: 'flag', tab: 'delivery' },
  { name: 'haiso_type', label: '配送周期', type: 'select', tab: 'delivery', options: O.HAISO_TYPE },
  { name: 'haiso_wks', label: '配送間隔（週）', type: 'number', tab: 'delivery', min: 1, max: 8 },
  { name: 'haiso_num', label: '配送本数', type: 'number', tab: 'delivery', min: 0, max: 999 },
  { name: 'haiso_item', label: '定期配送商品', type: 'ref', ref: 'item', master: 'mt_returnable_item', tab: 'delivery', hint: '空欄のときは最初のリターナブルボトル商品' },
  { name: 'haiso_dow', label: '配送曜日', type: 'select', tab: 'delivery', options: O.WEEKDAY },
  { name: 'haiso_day', label: '配送日', type: 'number', tab: 'delivery', min: 1, max: 31 },
  { name: 'haiso_week', label: '配送週（毎月・曜日指定）', type: 'select', tab: 'delivery', options: O.HAISO_WEEK },
  { name: 'haiso_holiday', label: '日曜・祝日の配送', type: 'select', tab: 'delivery', options: O.HAISO_HOLIDAY, initial: '1' },
  { name: 'next_shipping_date', label: '次回配送日', type: 'date', tab: 'delivery' },
  // The staff who record deliveries (配送 area write: the 配送 role, and 管理), drivers first: server/master/plugin.ts.
  { name: 'delivery_usr_id', label: '配送担当者', type: 'ref', ref: 'user', master: 'mt_driver', tab: 'delivery' },
  { name: 'use_num', label: 'サーバー台数', type: 'number', tab: 'delivery', min: 0, max: 999 },
  { name: 'server_changed', label: 'サーバー交換日', type: 'date', tab: 'delivery' },
  // 契約・取引
  { name: 'contract_type', label: '契約種別', type: 'select', tab: 'contract', master: 'mt_contract_type' },
  { name: 'contract_date', label: '契約日', type: 'date', tab: 'contract' },
  { name: 'contract_start_date', label: '契約開始日', type: 'date', tab: 'contract' },
  { name: 'cancel_date', label: '解約日', type: 'date', tab: 'contract' },
  // 営業担当 is a user (migration 0070 moved the typed names that match one); a name that matched none stays, read-only.
  { name: 'sale_usr_id', label: '営業担当', type: 'ref', ref: 'user', master: 'mt_user', tab: 'contract', hint: '売上伝票の担当者の既定になります' },
  { name: 'sale_staff', label: '営業担当（移行前の入力）', type: 'text', tab: 'contract', max: 50, readOnly: true, hint: 'ユーザーに一致しなかった以前の入力です。上の営業担当を選んでください。' },
  // A 代理店 (sales agency that brought the customer) is itself a customer marked 代理店 (`dairiten_flag`).
  { name: 'dairiten_id', label: '代理店', type: 'ref', ref: 'client', master: 'mt_dairiten', tab: 'contract', hint: '「代理店として扱う」にした顧客から選びます' },
  { name: 'dairiten_flag', label: '代理店として扱う', type: 'flag', tab: 'contract', hint: '他の顧客の「代理店」に選べるようになります' },
  { name: 'co_id', label: '法人番号', type: 'text', tab: 'contract', max: 13 },
  { name: 'tori_kubun', label: '取引区分', type: 'select', tab: 'contract', options: O.TORI_KUBUN },
  { name: 'tanka_type', label: '単価区分', type: 'select', tab: 'contract', options: O.TANKA_TYPE },
  { name: 'kake_ritu', label: '掛率（%）', type: 'number', tab: 'contract', min: 0, max: 200 },
  { name: 'sime_gp', label: '締日', type: 'select', tab: 'contract', options: O.CLOSING_DAY },
  { name: 'kin_kiri', label: '金額端数処理', type: 'select', tab: 'contract', options: O.ROUNDING },
  { name: 'zei_kiri', label: '消費税端数処理', type: 'select', tab: 'contract', options: O.ROUNDING },
  { name: 'zei_ten', label: '税転嫁', type: 'select', tab: 'contract', options: O.TAX_UNIT, initial: '3', hint: '外税は税抜の単価、内税は税込の単価。消費税は税率ごとに伝票または請求書で1回だけ端数処理します' },
  { name: 'yoshin_gendo', label: '与信限度額', type: 'money', tab: 'contract', min: 0, max: 999_999_999 },
  { name: 'uri_zan', label: '売掛残高', type: 'money', tab: 'contract', readOnly: true },
  { name: 'pm_id', label: '支払方法', type: 'select', tab: 'contract', master: 'mt_pmt_method' },
  { name: 'collect_type', label: '回収方法', type: 'select', tab: 'contract', master: 'mt_pmt_method' },
  { name: 'collect_cycle', label: '回収月', type: 'select', tab: 'contract', options: O.COLLECT_CYCLE },
  { name: 'collect_day', label: '回収日', type: 'number', tab: 'contract', min: 1, max: 31 },
  { name: 'fee_type', label: '振込手数料', type: 'select', tab: 'contract', options: O.FEE_TYPE },
  { name: 'collect_site', label: '集金サイト', type: 'text', tab: 'contract', max: 50 },
  { name: 'yayoi_id', label: '弥生取引先コード', type: 'text', tab: 'contract', max: 20 },
  // 備考・その他
  { name: 'biko_1', label: '備考1', type: 'text', tab: 'notes', max: 200, wide: true },
  { name: 'biko_2', label: '備考2', type: 'text', tab: 'notes', max: 200, wide: true },
  { name: 'memo', label: 'メモ', type: 'textarea', tab: 'notes', wide: true },
  { name: 'fact', label: '特記事項', type: 'textarea', tab: 'notes', wide: true },
  { name: 'login_id', label: 'マイページID', type: 'text', tab: 'notes', max: 50 },
  { name: 'pw', label: 'マイページパスワード', type: 'secret', tab: 'notes', max: 100 },
  { name: 'last_login', label: 'マイページ最終ログイン', type: 'datetime', tab: 'notes', readOnly: true },
] as const satisfies readonly FieldDef[];

/** The 口座振替 fields' digits (the form and the save alike; the request file checks that each is there). */
const DEBIT_DIGITS = [['bank_code', 4, '銀行コード'], ['branch_code', 3, '支店コード'], ['account_no', 7, '口座番号'], ['debit_code', 20, '顧客番号']] as const;

/**
 * The 口座振替 fields' own form: codes and numbers of exactly their digits.
 * @example debitAccountProblems({ bank_code: '12' }) // { bank_code: '銀行コードは 4 桁の数字で入力してください。' }
 */
export function debitAccountProblems(values: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [name, digits, label] of DEBIT_DIGITS) {
    const value = cellText(values[name]);
    if (value !== '' && !new RegExp(`^\\d{${digits}}$`).test(value)) problems[name] = `${label}は ${digits} 桁の数字で入力してください。`;
  }
  return problems;
}

export const clientResource = {
  name: 'client',
  label: '顧客',
  table: 'client',
  prefix: 'cl_',
  basePath: '/client',
  screens: { list: '顧客一覧', new: '顧客登録', detail: '顧客詳細' },
  area: 'client',
  storageKey: 'client',
  tabs: [
    { key: 'basic', label: '基本情報' },
    { key: 'category', label: '分類' },
    { key: 'shipping', label: '配送先' },
    { key: 'billing', label: '請求先' },
    { key: 'delivery', label: '定期配送' },
    { key: 'contract', label: '契約・取引' },
    { key: 'notes', label: '備考・その他' },
  ],
  fields: clientFields,
  list: {
    columns: [
      { name: 'cl_id', label: 'ID' },
      { name: 'cl_code', label: '顧客コード' },
      { name: 'cl_co_name', label: '会社名' },
      { name: 'cl_name', label: '氏名' },
      { name: 'cl_tel_1', label: '電話番号' },
      { name: 'cl_pref', label: '都道府県' },
      { name: 'cl_city', label: '市区町村' },
      { name: 'cl_status', label: '状態', format: 'option', field: 'status' },
      { name: 'cl_next_shipping_date', label: '次回配送日', format: 'date' },
      { name: 'modified', label: '更新日時', format: 'datetime' },
    ],
    sortable: ['cl_id', 'cl_co_name', 'cl_co_name_kana', 'cl_name', 'cl_name_kana', 'cl_tel_1', 'cl_pref', 'cl_city', 'cl_status', 'cl_next_shipping_date', 'created', 'modified'],
    keyword: ['code', 'co_name', 'co_name_kana', 'name', 'name_kana', 'tel_1', 'tel_2', 'email', 'zipcode', 'pref', 'city', 'address', 'building', 'shipping_co_name', 'shipping_name', 'shipping_tel'],
    keywordHint: '会社名・氏名・電話番号・住所など',
    defaultSort: { col: 'cl_id', odr: 'desc' },
    filters: [
      { name: 'created', label: '登録日', kind: 'dateRange' },
      { name: 'modified', label: '更新日', kind: 'dateRange' },
      { name: 'contract_date', label: '契約日', kind: 'dateRange' },
      { name: 'next_shipping_date', label: '次回配送日', kind: 'dateRange' },
      {
        name: 'shipping_due', label: '次回配送日（今日から）', kind: 'relativeDate', column: 'cl_next_shipping_date',
        windows: [{ value: 'overdue', text: '過ぎている', to: -1 }, { value: 'week', text: '7日以内', from: 0, to: 6 }],
      },
      { name: 'haiso_flag', label: '定期配送', kind: 'in', options: [{ value: '1', text: 'あり' }, { value: '0', text: 'なし' }] },
      { name: 'status', label: '状態', kind: 'in' },
      { name: 'debit_result', label: '口座振替結果', kind: 'in', options: DEBIT_RESULTS },
      {
        name: 'payment_terms', label: '入金予定', kind: 'in', options: [{ value: '1', text: '締日より前（要修正）' }],
        through: { table: 'client_payment_terms', key: 'cl_id', column: 'impossible' },
      },
      { name: 'debit_result_date', label: '口座振替結果の引落日', kind: 'dateRange' },
    ],
  },
  // A committed import's customers carry its job id (`cl_job_id`, migration 0049).
  jobStamped: true,
  // An individual customer has no company name: the person's name names them.
  titleFields: ['co_name', 'name'],
  related: [
    { resource: 'order', field: 'cl_id', label: '受注' },
    { resource: 'agreement', field: 'cl_id', label: '契約' },
    { resource: 'contact', field: 'cl_id', label: '対応履歴' },
    { resource: 'report', field: 'cl_id', label: '営業報告' },
    { resource: 'bottle', field: 'cl_id', label: 'ボトル' },
    { resource: 'server', field: 'cl_id', label: 'サーバー' },
    { resource: 'serverhistory', field: 'cl_id', label: 'サーバー履歴' },
    // Its invoices (each row unfolds to its PDF, reprint and mail), slips and payments.
    { resource: 'billing', field: 'cl_id', label: '請求' },
    { resource: 'sales', field: 'cl_id', label: '売上' },
    { resource: 'payment', field: 'cl_id', label: '入金' },
    { resource: 'hodpause', field: 'cl_id', label: '休配・スキップ' },
  ],
  check: (values) => {
    const coName = cellText(values.co_name);
    const name = cellText(values.name);
    const problems: Record<string, string> = {};
    if (values.co_name !== undefined && values.name !== undefined && !coName && !name) problems.co_name = '会社名か氏名のどちらかを入力してください。';
    const balance = values.opening_balance;
    if (balance !== undefined && balance !== null && balance !== '' && Number(balance) !== 0 && values.opening_balance_date !== undefined && !values.opening_balance_date) {
      problems.opening_balance_date = '開始売掛残高を入力したときは基準日も入力してください。';
    }
    Object.assign(problems, debitAccountProblems(values));
    const peppol = peppolIdProblem(values.peppol_id);
    if (peppol) problems.peppol_id = peppol;
    else if (values.invoice_delivery === '4' && values.peppol_id !== undefined && !cellText(values.peppol_id).trim()) {
      problems.peppol_id = '請求書の送付方法が「デジタルインボイス」のときは Peppol ID を入力してください。';
    }
    return Object.keys(problems).length > 0 ? problems : undefined;
  },
} as const satisfies ResourceDef;
