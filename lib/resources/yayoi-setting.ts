/**
 * 弥生会計の連携設定 (`/system/yayoi/setting`, calls `yayoisetting_dtl` / `yayoisetting_save`, area データ取込・出力): one record
 * (id 1) holding what the Yayoi journal (`export_yayoi`, lib/accounting/yayoi.ts) writes — the 税区分 of each tax bucket of a
 * slip (10% / 軽減8% / 非課税 / 不課税 = deposits) and of the 売掛金 and payment sides, and the 勘定科目 of each side. Yayoi's
 * own names vary with its version and invoice settings, so every one is editable; migration 0052 stores the defaults.
 */
import type { ResourceDef } from './types';

export const YAYOI_SETTING_ID = 1;

/** The defaults migration 0052 stores (field name → value). */
export const YAYOI_DEFAULTS = {
  tax_10: '課税売上内10%',
  tax_8: '課税売上内軽減8%',
  tax_exempt: '非課売上',
  tax_outside: '対象外',
  tax_none: '対象外',
  acc_receivable: '売掛金',
  acc_sales: '売上高',
  acc_deposit: '預り金',
  acc_bank: '普通預金',
  acc_cash: '現金',
  acc_fee: '支払手数料',
  acc_discount: '売上値引高',
  acc_offset: '買掛金',
} as const;

export type YayoiSetting = { -readonly [K in keyof typeof YAYOI_DEFAULTS]: string };

const text = (name: keyof YayoiSetting, label: string, tab: string, hint: string) => ({
  name, label, type: 'text' as const, tab, required: true, max: 40, placeholder: YAYOI_DEFAULTS[name], hint,
});

export const yayoiSettingResource = {
  name: 'yayoisetting',
  label: '弥生会計の連携設定',
  table: 'yayoi_setting',
  prefix: 'ys_',
  basePath: '/system/yayoi/setting',
  screens: { detail: '弥生会計の連携設定', parent: '/system/export' },
  area: 'import',
  storageKey: 'yayoisetting',
  tabs: [
    { key: 'tax', label: '税区分' },
    { key: 'account', label: '勘定科目' },
  ],
  fields: [
    text('tax_10', '10%対象の売上', 'tax', '売上高の税区分。「内」は税抜経理で、税額欄に当社の税率ごとの消費税を書きます。'),
    text('tax_8', '軽減8%対象の売上', 'tax', '軽減税率の売上の税区分'),
    text('tax_exempt', '非課税の売上', 'tax', '非課税の売上の税区分'),
    text('tax_outside', '不課税（預り金・保証金）', 'tax', '容器保証金など不課税の伝票の税区分'),
    text('tax_none', '売掛金・入金', 'tax', '売掛金と入金の側の税区分'),
    text('acc_receivable', '売掛金', 'account', '売上の借方・入金の貸方。補助科目は顧客の弥生取引先コード'),
    text('acc_sales', '売上高', 'account', '課税・非課税の売上の貸方'),
    text('acc_deposit', '預り金（不課税）', 'account', '不課税の伝票（容器保証金など）の貸方'),
    text('acc_bank', '普通預金（振込・口座振替）', 'account', '入金区分が振込・口座振替の入金の借方'),
    text('acc_cash', '現金', 'account', '入金区分が現金の入金の借方'),
    text('acc_fee', '手数料', 'account', '入金区分が手数料の入金の借方'),
    text('acc_discount', '値引', 'account', '入金区分が値引の入金の借方'),
    text('acc_offset', '相殺', 'account', '入金区分が相殺の入金の借方'),
  ],
  list: {
    columns: [{ name: 'ys_tax_10', label: '10%対象の売上' }],
    sortable: ['ys_id', 'modified'],
    keyword: [],
    defaultSort: { col: 'ys_id', odr: 'asc' },
    filters: [],
  },
  titleFields: [],
  single: YAYOI_SETTING_ID,
  ops: { create: false, delete: false },
} as const satisfies ResourceDef;
