/**
 * The one catalogue of the editable master tables (`mt_*` rows of `master_option`): Japanese name
 * and a line of description each, and the screen a master has of its own (商品分類, 配送時間帯).
 * Masters answered from other tables (`mt_user`, `mt_role` …, server/master/plugin.ts) are not here:
 * they are edited where their records live.
 */
import type { Option } from '../resources/types';

export interface MasterTableInfo {
  /** Table name as `master_lst` takes it, e.g. `mt_pmt_method`. */
  table: string;
  label: string;
  description: string;
  /** A route that edits this master alone (the editor fixed to it). */
  path?: string;
}

const bunrui = (n: number, what: string): MasterTableInfo => ({
  table: `mt_bunrui_${n}`,
  label: `顧客分類${n}`,
  description: `顧客の「顧客分類${n}」（${what}）の選択肢。集計や絞り込みに使います。`,
});

export const MASTER_CATALOGUE: readonly MasterTableInfo[] = [
  { table: 'mt_pmt_method', label: '支払方法', description: '顧客の支払方法・回収方法（口座振替・銀行振込・代金引換など）。フラグは配達時に集金する支払方法（配送リストの集金額）。' },
  { table: 'mt_bank', label: '銀行', description: '口座振替・振込に使う金融機関（コードは全銀協の金融機関コード 4 桁）。' },
  bunrui(1, '顧客区分'),
  bunrui(2, '紹介経路'),
  bunrui(3, '業種'),
  bunrui(4, '規模'),
  bunrui(5, '販売チャネル'),
  bunrui(6, 'キャンペーン'),
  bunrui(7, '地域区分'),
  { table: 'mt_rank', label: 'ランク', description: '顧客ランク（優良・標準・要フォローなど）。' },
  { table: 'mt_team', label: 'チーム', description: '配送班・営業チームなど、担当者と配送ルートのまとまり。' },
  { table: 'mt_area', label: 'エリア', description: '顧客の営業・配送エリア。' },
  { table: 'mt_contract_type', label: '契約種別', description: 'サーバーの契約形態（レンタル・購入・無料貸与など）。' },
  { table: 'mt_status', label: '顧客状態', description: '顧客の状態（契約中・休止・解約など）。' },
  { table: 'mt_contact_type', label: '対応分類', description: '対応履歴（お問い合わせ・苦情など）の分類。' },
  { table: 'mt_item_class', label: '商品分類', description: '商品の分類（ボトル水・サーバーレンタル・送料など）。', path: '/system/itemcode' },
  { table: 'mt_server_model', label: 'サーバー機種', description: 'ウォーターサーバーの機種（型番と名称）。' },
  { table: 'mt_delivery_time', label: '配達時間帯', description: 'お届け時間帯の選択肢（コードは開始・終了時刻、例 1416 = 14時〜16時）。', path: '/system/delivery' },
];

/** The catalogue as select options (value = table name). */
export const MASTER_TABLE_OPTIONS: readonly Option[] = MASTER_CATALOGUE.map((m) => ({ value: m.table, text: m.label }));

/** The catalogue entry of a table, if it is an editable master. */
export const masterInfo = (table: string | null | undefined): MasterTableInfo | undefined => MASTER_CATALOGUE.find((m) => m.table === table);

/** The master a route edits alone (`/system/itemcode` → mt_item_class). */
export const masterOfPath = (path: string): MasterTableInfo | undefined => MASTER_CATALOGUE.find((m) => m.path === path);
