/**
 * Deterministic Japanese demo data for the bottled-water delivery back office (宅配水・ウォーターサーバー):
 * customers, master tables, staff users and orders. Pure functions, no I/O.
 */
import { addDays } from '../../../lib/format';
import { toZenginKana } from '../../../lib/zengin/format';
import { closedReason } from '../../../lib/hod/schedule';
import { paymentTermsProblem } from '../../../lib/closing/period';
import { createRng, hashString, type Rng } from './rng';
import { PREFECTURE_DETAILS, type CityInfo, type PrefectureDetail } from './prefectures';
import {
  BUSINESS_TYPES,
  COMPANY_WORDS,
  CONTACT_METHODS,
  CONTRACT_NOTES,
  CORP_FORMS,
  FAMILY_NAMES,
  GIVEN_NAMES,
  HIRAGANA_WORDS,
  KATAKANA_WORDS,
  MEMOS,
  OFFICE_BUILDING_WORDS,
  RESIDENCE_TEMPLATES,
  RESIDENCE_WORDS,
  SERVER_NOTES,
  SOFT_WORDS,
  TOWN_NAMES,
  katakanaToRomaji,
  type BusinessType,
  type CorpKind,
  type GivenName,
  type NameBase,
  type Reading,
} from './japanese';

/** One customer row, unprefixed column names (the table stores them as `cl_` + name). */
export interface SeedClient {
  status: string;
  bunrui_1: string;
  bunrui_2: string;
  bunrui_3: string;
  bunrui_4: string;
  bunrui_5: string;
  bunrui_6: string;
  bunrui_7: string;
  riyou: string;
  zokusei: string;
  rank: string;
  co_name: string;
  co_name_kana: string;
  busyo: string;
  name: string;
  job_title: string;
  name_kana: string;
  keisho: string;
  tel_1: string;
  tel_2: string;
  fax: string;
  zipcode: string;
  pref: string;
  city: string;
  address: string;
  building: string;
  sex: string;
  birthday: string;
  contact: string;
  biko_1: string;
  biko_2: string;
  lat: number;
  lng: number;
  shipping_co_name: string;
  shipping_busyo: string;
  shipping_name: string;
  shipping_name_kana: string;
  shipping_zipcode: string;
  shipping_pref: string;
  shipping_city: string;
  shipping_address: string;
  shipping_building: string;
  shipping_tel: string;
  shipping_fax: string;
  billing_co_name: string;
  billing_busyo: string;
  billing_name: string;
  billing_name_kana: string;
  billing_zipcode: string;
  billing_pref: string;
  billing_city: string;
  billing_address: string;
  billing_building: string;
  billing_tel: string;
  billing_fax: string;
  billing_email: string;
  website: string;
  email: string;
  atm_type: string;
  haiso_flag: string;
  haiso_type: string;
  haiso_wks: string;
  haiso_num: string;
  haiso_dow: string;
  haiso_day: string;
  next_shipping_date: string;
  delivery_usr_id: string;
  dm: string;
  sale_usr_id: string;
  contract_date: string;
  contract_start_date: string;
  contract_type: string;
  cancel_date: string;
  tori_kubun: string;
  tanka_type: string;
  kake_ritu: string;
  sime_gp: string;
  kin_kiri: string;
  zei_kiri: string;
  zei_ten: string;
  yoshin_gendo: string;
  uri_zan: string;
  collect_type: string;
  collect_cycle: string;
  collect_day: string;
  fee_type: string;
  collect_site: string;
  yayoi_id: string;
  fact: string;
  memo: string;
  point_taishou: string;
  area: string;
  shinyou: string;
  use_num: string;
  pm_id: string;
  bank_code: string;
  branch_code: string;
  account_type: string;
  account_no: string;
  account_kana: string;
  debit_code: string;
}

/** Banks a demo 口座振替 customer is debited from (全銀 codes). */
const DEBIT_BANKS = ['0001', '0005', '0009', '0010', '0036', '0038'];

/**
 * The debited account of a demo customer paying by 口座振替 (支払方法 1), derived from its place in the run and the run's seed
 * (not drawn from the random stream, so every other demo value stays as it was): bank, branch, 普通, account number, the
 * holder as Zengin kana and a 20-digit 顧客番号 unique across runs of other seeds. Other customers have none.
 * @example debitAccountOf('1', 0, 1, 'ヤマダ タロウ') // { bank_code: '0001', …, account_kana: 'ﾔﾏﾀﾞ ﾀﾛｳ', debit_code: '00000001000000000001' }
 */
export function debitAccountOf(method: string, index: number, seed: number, kana: string): Pick<SeedClient, 'bank_code' | 'branch_code' | 'account_type' | 'account_no' | 'account_kana' | 'debit_code'> {
  if (method !== '1') return { bank_code: '', branch_code: '', account_type: '', account_no: '', account_kana: '', debit_code: '' };
  return {
    bank_code: DEBIT_BANKS[index % DEBIT_BANKS.length], branch_code: String(100 + ((index * 37) % 800)), account_type: '1',
    account_no: String(1_000_000 + ((index * 7919 + seed) % 9_000_000)), account_kana: toZenginKana(kana).slice(0, 30).trim(),
    debit_code: `${String(seed).padStart(8, '0')}${String(index + 1).padStart(12, '0')}`,
  };
}

export type SeedOrderStatus = 'untreated' | 'pending' | 'waitshipping' | 'shipped' | 'processed';

/** One line of a demo order: an item of the demo catalogue (server/seed/data/stock.ts) by code. */
export interface SeedOrderLine {
  code: string;
  quantity: number;
}

export interface SeedOrder {
  /** Index into the customers the orders are for (0-based). */
  clientIndex: number;
  /** YYYY-MM-DD, in the 204 days up to `today`. */
  date: string;
  /** A business day after the order: by `today` for a delivered order (出荷済・処理済), from `today` on for an open one. */
  deliveryDate: string;
  status: SeedOrderStatus;
  /** What was ordered; prices, tax and totals are the pricing rules' (server/orders/pricing.ts). */
  lines: SeedOrderLine[];
}

export interface SeedUser {
  name: string;
  kana: string;
  email: string;
  role: string;
  /** mt_team text (配送1班 …). */
  team: string;
  /** A driver's round: the prefecture whose scheduled customers they deliver to (the rest ship by carrier). */
  route?: string;
}

// ---------------------------------------------------------------------------------------------
// Master tables
// ---------------------------------------------------------------------------------------------

type MasterRow = { value: string; text: string; flg?: number };

const rows = (pairs: readonly (readonly [string, string])[]): MasterRow[] => pairs.map(([value, text]) => ({ value, text }));

export const MASTER_TABLES: Record<string, MasterRow[]> = {
  // フラグ 1: paid to the driver on delivery (the route sheet's 集金額).
  mt_pmt_method: [
    { value: '1', text: '口座振替' },
    { value: '2', text: '銀行振込' },
    { value: '3', text: '代金引換', flg: 1 },
    { value: '4', text: 'クレジットカード' },
    { value: '5', text: '現金集金', flg: 1 },
  ],
  mt_bank: rows([
    ['0001', 'みずほ銀行'],
    ['0005', '三菱UFJ銀行'],
    ['0009', '三井住友銀行'],
    ['0010', 'りそな銀行'],
    ['0017', '埼玉りそな銀行'],
    ['0033', 'PayPay銀行'],
    ['0034', 'セブン銀行'],
    ['0036', '楽天銀行'],
    ['0038', '住信SBIネット銀行'],
    ['0039', 'auじぶん銀行'],
    ['0040', 'イオン銀行'],
    ['0116', '北海道銀行'],
    ['0119', '秋田銀行'],
    ['0122', '山形銀行'],
    ['0123', '岩手銀行'],
    ['0125', '七十七銀行'],
    ['0126', '東邦銀行'],
    ['0128', '群馬銀行'],
    ['0129', '足利銀行'],
    ['0130', '常陽銀行'],
    ['0133', '武蔵野銀行'],
    ['0134', '千葉銀行'],
    ['0137', 'きらぼし銀行'],
    ['0138', '横浜銀行'],
    ['0140', '第四北越銀行'],
    ['0142', '山梨中央銀行'],
    ['0143', '八十二銀行'],
    ['0144', '北陸銀行'],
    ['0146', '北國銀行'],
    ['0147', '福井銀行'],
    ['0149', '静岡銀行'],
    ['0150', 'スルガ銀行'],
    ['0152', '大垣共立銀行'],
    ['0153', '十六銀行'],
    ['0154', '三十三銀行'],
    ['0155', '百五銀行'],
    ['0157', '滋賀銀行'],
    ['0158', '京都銀行'],
    ['0159', '関西みらい銀行'],
    ['0161', '池田泉州銀行'],
    ['0162', '南都銀行'],
    ['0163', '紀陽銀行'],
    ['0166', '鳥取銀行'],
    ['0167', '山陰合同銀行'],
    ['0168', '中国銀行'],
    ['0169', '広島銀行'],
    ['0170', '山口銀行'],
    ['0172', '阿波銀行'],
    ['0173', '百十四銀行'],
    ['0174', '伊予銀行'],
    ['0175', '四国銀行'],
    ['0177', '福岡銀行'],
    ['0179', '佐賀銀行'],
    ['0182', '肥後銀行'],
    ['0183', '大分銀行'],
    ['0184', '宮崎銀行'],
    ['0185', '鹿児島銀行'],
    ['0187', '琉球銀行'],
    ['0188', '沖縄銀行'],
    ['0190', '西日本シティ銀行'],
    ['0191', '北九州銀行'],
    ['9900', 'ゆうちょ銀行'],
  ]),
  mt_bunrui_1: rows([
    ['1', '一般家庭'],
    ['2', 'オフィス'],
    ['3', '医療・福祉'],
    ['4', '飲食店'],
    ['5', '教育機関'],
  ]),
  // 紹介経路
  mt_bunrui_2: rows([
    ['1', 'Webサイト'],
    ['2', '知人・取引先の紹介'],
    ['3', 'チラシ・ポスティング'],
    ['4', '展示会・イベント'],
    ['5', '訪問営業'],
    ['6', '電話営業'],
    ['7', 'その他'],
  ]),
  // 業種
  mt_bunrui_3: rows([
    ['1', '製造業'],
    ['2', '建設業'],
    ['3', '卸売・小売業'],
    ['4', '運輸・物流業'],
    ['5', '不動産業'],
    ['6', 'サービス業'],
    ['7', '医療・福祉'],
    ['8', '飲食業'],
    ['9', '教育・保育'],
  ]),
  // 規模
  mt_bunrui_4: rows([
    ['1', '個人'],
    ['2', '1〜9名'],
    ['3', '10〜29名'],
    ['4', '30〜99名'],
    ['5', '100名以上'],
  ]),
  // 販売チャネル
  mt_bunrui_5: rows([
    ['1', '直販（訪問）'],
    ['2', 'Web申込'],
    ['3', '電話申込'],
    ['4', '代理店'],
    ['5', '量販店・イベント'],
  ]),
  // キャンペーン
  mt_bunrui_6: rows([
    ['1', '新規契約キャンペーン'],
    ['2', '乗り換えキャンペーン'],
    ['3', 'お友達紹介キャンペーン'],
    ['4', '法人導入キャンペーン'],
    ['5', '夏季キャンペーン'],
  ]),
  // 地域区分
  mt_bunrui_7: rows([
    ['1', '都市部'],
    ['2', '郊外'],
    ['3', '郡部・山間部'],
  ]),
  mt_rank: rows([
    ['A', 'A（優良）'],
    ['B', 'B（標準）'],
    ['C', 'C（要フォロー）'],
  ]),
  mt_area: rows([
    ['1', '都心エリア'],
    ['2', '首都圏エリア'],
    ['3', '北海道・東北エリア'],
    ['4', '北関東・甲信越エリア'],
    ['5', '東海・北陸エリア'],
    ['6', '関西エリア'],
    ['7', '中国・四国エリア'],
    ['8', '九州・沖縄エリア'],
  ]),
  mt_contract_type: rows([
    ['1', 'レンタル'],
    ['2', '購入'],
    ['3', '無料貸与'],
  ]),
  mt_status: rows([
    ['1', '契約中'],
    ['2', '休止'],
    ['9', '解約'],
  ]),
  mt_contact_type: rows([
    ['1', 'お問い合わせ'],
    ['2', 'ご注文・配送日変更'],
    ['3', '配送・不在'],
    ['4', 'サーバー故障・修理'],
    ['5', '休止・解約'],
    ['6', 'ご請求・お支払い'],
    ['7', 'ご意見・苦情'],
    ['9', 'その他'],
  ]),
  mt_item_class: rows([
    ['10', 'ボトル水（リターナブル）'],
    ['20', 'ボトル水（ワンウェイ）'],
    ['30', 'サーバーレンタル'],
    ['40', 'メンテナンス'],
    ['50', '送料・手数料'],
    ['60', '容器保証金'],
    ['90', 'その他'],
  ]),
  mt_server_model: rows([
    ['AQ-01', 'アクアスタンダード（床置き）'],
    ['AQ-02', 'アクアスリム（卓上）'],
    ['AQ-03', 'アクアプレミアム（下置きボトル）'],
    ['HT-10', 'ホット＆クール省エネモデル'],
  ]),
  mt_delivery_time: rows([
    ['0812', '午前中'],
    ['1416', '14時〜16時'],
    ['1618', '16時〜18時'],
    ['1820', '18時〜20時'],
    ['1921', '19時〜21時'],
  ]),
  mt_team: rows([
    ['1', '配送1班'],
    ['2', '配送2班'],
    ['3', '配送3班'],
    ['4', '営業チーム'],
    ['5', '管理チーム'],
    ['6', '経理チーム'],
  ]),
};

/** Staff accounts: 2 管理, 3 営業, 2 配送, 1 経理. */
export const SEED_USERS: readonly SeedUser[] = [
  { name: '佐藤 健一', kana: 'サトウ ケンイチ', email: 'sato@example.jp', role: '管理', team: '管理チーム' },
  { name: '鈴木 美穂', kana: 'スズキ ミホ', email: 'suzuki@example.jp', role: '管理', team: '管理チーム' },
  { name: '高橋 翔太', kana: 'タカハシ ショウタ', email: 'takahashi@example.jp', role: '営業', team: '営業チーム' },
  { name: '田中 由美', kana: 'タナカ ユミ', email: 'tanaka@example.jp', role: '営業', team: '営業チーム' },
  { name: '伊藤 大輔', kana: 'イトウ ダイスケ', email: 'ito@example.jp', role: '営業', team: '営業チーム' },
  { name: '渡辺 剛', kana: 'ワタナベ ツヨシ', email: 'watanabe@example.jp', role: '配送', team: '配送1班', route: '東京都' },
  { name: '山本 拓也', kana: 'ヤマモト タクヤ', email: 'yamamoto@example.jp', role: '配送', team: '配送2班', route: '神奈川県' },
  { name: '中村 恵子', kana: 'ナカムラ ケイコ', email: 'nakamura@example.jp', role: '経理', team: '経理チーム' },
];

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const utc = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d);
const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;

/** A drawn 回収月 kept unless it is 当月 before the 締日 (paymentTermsProblem), which becomes 翌月. */
const fittingCycle = (gp: string, cycle: string, day: string): string => (paymentTermsProblem(gp, cycle, day) ? '1' : cycle);

/** "Today" of the demo data set (the orders' default `today`). */
const TODAY = utc(2026, 11, 21);
export const DEMO_TODAY = ymd(TODAY);

function weightedCode(rng: Rng, table: readonly (readonly [string, number])[]): string {
  return rng.weighted(table, ([, w]) => w)[0];
}

// ---------------------------------------------------------------------------------------------
// People, phones, addresses
// ---------------------------------------------------------------------------------------------

interface Person {
  family: Reading;
  given: GivenName;
  name: string;
  kana: string;
}

const GIVEN_BY_GEN: Readonly<Record<1 | 2 | 3, readonly GivenName[]>> = {
  1: GIVEN_NAMES.filter((n) => n.gen === 1),
  2: GIVEN_NAMES.filter((n) => n.gen === 2),
  3: GIVEN_NAMES.filter((n) => n.gen === 3),
};

function makePerson(rng: Rng, genWeights: readonly [number, number, number], family?: Reading): Person {
  const gen = rng.weighted([1, 2, 3] as const, (x) => genWeights[x - 1] ?? 0);
  const f = family ?? rng.pick(FAMILY_NAMES);
  const given = rng.pick(GIVEN_BY_GEN[gen]);
  return { family: f, given, name: `${f.kanji} ${given.kanji}`, kana: `${f.kana} ${given.kana}` };
}

function birthday(rng: Rng, gen: 1 | 2 | 3): string {
  const [from, to] = gen === 1 ? [1945, 1965] : gen === 2 ? [1960, 1985] : [1980, 2002];
  const start = utc(from, 1, 1);
  const end = utc(to, 12, 31);
  return ymd(start + rng.int(0, Math.floor((end - start) / DAY_MS)) * DAY_MS);
}

interface Phone {
  area: string;
  exchange: string;
  subscriber: number;
}

const phoneText = (p: Phone): string => `${p.area}-${p.exchange}-${pad(p.subscriber, 4)}`;

/** Fixed-line number: area code + exchange + 4 digits = 10 digits in total. */
function landline(rng: Rng, area: string): Phone {
  const exchangeLen = Math.max(1, 10 - area.length - 4);
  // 03-3xxx/5xxx/6xxx and 06-6xxx/4xxx/7xxx are the usual Tokyo/Osaka exchanges.
  const lead = area === '03' ? rng.pick([3, 3, 5, 5, 6, 6]) : area === '06' ? rng.pick([6, 6, 6, 4, 7]) : rng.int(2, 9);
  let exchange = String(lead);
  for (let i = 1; i < exchangeLen; i++) exchange += String(rng.int(0, 9));
  return { area, exchange, subscriber: rng.int(0, 9999) };
}

/** FAX: usually the same exchange as the phone with the next subscriber number. */
function faxOf(rng: Rng, tel: Phone): string {
  if (rng.chance(0.7)) return phoneText({ ...tel, subscriber: (tel.subscriber + 1) % 10000 });
  return phoneText(landline(rng, tel.area));
}

function mobile(rng: Rng): string {
  return `${rng.pick(['090', '090', '080', '080', '070'])}-${rng.int(1000, 9999)}-${pad(rng.int(0, 9999), 4)}`;
}

interface Place {
  pref: PrefectureDetail;
  city: CityInfo;
  cityIndex: number;
}

interface Address {
  zipcode: string;
  address: string;
  lat: number;
  lng: number;
}

function pickPlace(rng: Rng): Place {
  const pref = rng.weighted(PREFECTURE_DETAILS, (p) => p.weight);
  const city = rng.weighted(pref.cities, (c) => c.weight);
  return { pref, city, cityIndex: pref.cities.indexOf(city) };
}

function otherPlaceInPrefecture(rng: Rng, place: Place): Place {
  if (place.pref.cities.length < 2 || rng.chance(0.45)) return place;
  const others = place.pref.cities.filter((c) => c !== place.city);
  const city = rng.weighted(others, (c) => c.weight);
  return { pref: place.pref, city, cityIndex: place.pref.cities.indexOf(city) };
}

function makeAddress(rng: Rng, city: CityInfo): Address {
  const total = city.towns.length + city.banchi.length;
  const useBanchi = city.towns.length === 0 || (city.banchi.length > 0 && rng.next() < city.banchi.length / total);
  let town: string;
  let numbers: string;
  if (useBanchi) {
    town = rng.pick(city.banchi);
    const ban = rng.chance(0.6) ? rng.int(1, 99) : rng.int(100, 999);
    numbers = rng.chance(0.6) ? `${ban}-${rng.int(1, 30)}` : String(ban);
  } else {
    const template = rng.pick(city.towns);
    if (template.includes('{')) {
      town = template.replace(/\{(\d+)-(\d+)\}/g, (_m, a: string, b: string) => String(rng.int(Number(a), Number(b))));
      numbers = `${rng.int(1, 30)}-${rng.int(1, 20)}`;
    } else {
      town = template;
      const chome = rng.pick([1, 1, 1, 2, 2, 2, 3, 3, 4, 5]);
      numbers = `${chome}-${rng.int(1, 25)}-${rng.int(1, 20)}`;
    }
  }
  // One postcode and one neighbourhood per town, so the same town always gets the same zip.
  const h = hashString(`${city.name}|${town}`);
  const prefix = city.zips[h % city.zips.length] ?? city.zips[0] ?? '100';
  // Mostly xxx-0nnn like city-centre postcodes, sometimes xxx-1nnn … xxx-8nnn.
  const lead = (h >>> 20) % 10 < 7 ? 0 : 1 + ((h >>> 24) % 8);
  const tail = lead * 1000 + ((h >>> 7) % 999) + 1;
  const dLat = (((h >>> 3) % 1000) / 1000 - 0.5) * 0.024;
  const dLng = (((h >>> 13) % 1000) / 1000 - 0.5) * 0.03;
  return {
    zipcode: `${prefix}-${pad(tail, 4)}`,
    address: `${town}${numbers}`,
    lat: round6(city.lat + dLat + (rng.next() - 0.5) * 0.003),
    lng: round6(city.lng + dLng + (rng.next() - 0.5) * 0.003),
  };
}

function officeBuilding(rng: Rng, groundFloor: boolean): string {
  const word = rng.chance(0.15) ? rng.pick(TOWN_NAMES).kanji : rng.pick(OFFICE_BUILDING_WORDS);
  const name = rng.pick([`${word}ビル`, `${word}ビル`, `第${rng.int(2, 5)}${word}ビル`, `${word}ビルディング`]);
  const floor = groundFloor ? 1 : rng.int(1, 9);
  return `${name} ${rng.chance(0.6) ? `${floor}F` : `${floor}階`}`;
}

function residence(rng: Rng): string {
  const template = rng.pick(RESIDENCE_TEMPLATES);
  const name = template.replace('*', rng.pick(RESIDENCE_WORDS));
  const highRise = template.includes('レジデンス') || template.startsWith('パーク');
  const floor = highRise ? rng.int(2, 25) : rng.int(1, 4);
  const room = `${floor}0${rng.int(1, highRise ? 8 : 6)}`;
  return `${name} ${rng.chance(0.6) ? `${room}号室` : room}`;
}

// ---------------------------------------------------------------------------------------------
// Company names
// ---------------------------------------------------------------------------------------------

interface CompanyName {
  base: Reading;
  baseIsFamily: boolean;
  corp: CorpKind;
  /** Name without company form, e.g. 青葉商事 (unique key). */
  core: string;
  coreKana: string;
  /** Full name, e.g. 株式会社青葉商事. */
  full: string;
  domain: string;
}

const POOLS: Readonly<Record<NameBase, readonly Reading[]>> = {
  family: FAMILY_NAMES,
  word: COMPANY_WORDS,
  soft: SOFT_WORDS,
  hira: HIRAGANA_WORDS,
  kata: KATAKANA_WORDS,
};

function corpKind(rng: Rng, type: BusinessType): CorpKind {
  if (type.corp === 'none') return 'none';
  if (type.corp === 'some') return weightedCode(rng, [['kabu_pre', 20], ['yugen', 12], ['godo', 3], ['none', 65]]) as CorpKind;
  return weightedCode(rng, [['kabu_pre', 50], ['kabu_post', 20], ['yugen', 22], ['godo', 5], ['none', 3]]) as CorpKind;
}

function romaOf(reading: Reading): string {
  return reading.roma ?? katakanaToRomaji(reading.kana);
}

/** Well-known company names the generator must not produce. */
const FAMOUS_NAMES: ReadonlySet<string> = new Set([
  '清水建設', '大成建設', '前田建設', '安藤建設', '松井建設', '佐藤工業', '富士電機', '東洋電機', '山田電機',
  '昭和産業', '明和産業', '大和工業', '東洋工業', '太陽工業', '朝日工業', '村田製作所', '鈴木自動車', '松田自動車',
  '長谷川工務店', '大和運輸', '大和物流', '朝日印刷',
]);

/** Names like 日本商事 or 日本建設 sound like national corporations; 日本 is kept for schools only. */
function isAcceptableName(name: CompanyName, type: BusinessType): boolean {
  if (FAMOUS_NAMES.has(name.core)) return false;
  return !(name.base.kanji === '日本' && (type.category === 'office' || type.category === 'pro'));
}

function makeCompanyName(rng: Rng, type: BusinessType): CompanyName {
  const poolName = rng.pick(type.bases);
  const base = rng.pick(POOLS[poolName]);
  const corp = corpKind(rng, type);
  const core = type.position === 'suffix' ? `${base.kanji}${type.kanji}` : `${type.kanji}${base.kanji}`;
  const coreKana = type.position === 'suffix' ? `${base.kana}${type.kana}` : `${type.kana}${base.kana}`;
  let full = core;
  if (corp !== 'none') {
    const form = CORP_FORMS[corp];
    full = form.position === 'before' ? `${form.kanji}${core}` : `${core}${form.kanji}`;
  }
  const slug = type.position === 'suffix' ? `${romaOf(base)}-${type.roma}` : `${type.roma}-${romaOf(base)}`;
  const tld = corp !== 'none' ? 'co.jp' : rng.pick(['jp', 'jp', 'com']);
  return { base, baseIsFamily: poolName === 'family', corp, core, coreKana, full, domain: `${slug}.${tld}` };
}

// ---------------------------------------------------------------------------------------------
// Delivery schedule
// ---------------------------------------------------------------------------------------------

/** The n-th (1..4) given weekday of a month, as UTC ms. */
function nthWeekday(year: number, month: number, n: number, dow: number): number {
  const first = utc(year, month, 1);
  const firstDow = new Date(first).getUTCDay();
  const offset = (dow - firstDow + 7) % 7;
  return first + (offset + (n - 1) * 7) * DAY_MS;
}

/** Next delivery date after TODAY for the schedule; always in 2026-11 or 2026-12. */
function nextShippingDate(rng: Rng, type: string, wks: number, dow: number, day: number): string {
  if (type === '1') {
    const todayDow = new Date(TODAY).getUTCDay();
    const first = TODAY + (((dow - todayDow + 7) % 7) || 7) * DAY_MS;
    return ymd(first + rng.int(0, Math.max(0, wks - 1)) * 7 * DAY_MS);
  }
  if (type === '2') {
    const nov = utc(2026, 11, day);
    return ymd(nov > TODAY ? nov : utc(2026, 12, day));
  }
  const nov = nthWeekday(2026, 11, wks, dow);
  return ymd(nov > TODAY ? nov : nthWeekday(2026, 12, wks, dow));
}

// ---------------------------------------------------------------------------------------------
// Clients
// ---------------------------------------------------------------------------------------------

/** Titles that go with a department (総務部 課長); any other title stands alone (院長, 園長 …). */
const DEPT_TITLES: ReadonlySet<string> = new Set(['', '部長', '課長', '係長', '主任', '担当', '事務長', '事務担当']);

const HEAD_OFFICE_PREFS = ['東京都', '東京都', '東京都', '大阪府', '愛知県', '福岡県', '神奈川県'] as const;

interface MemoContext {
  building: string;
  useNum: string;
  billingDiffers: boolean;
}

/** Floor of a building text: 3F / 3階 / 302号室 / 302 → 3; 0 when unknown. */
function floorOf(building: string): number {
  const f = /(\d+)(?:F|階)$/.exec(building);
  if (f !== null) return Number(f[1]);
  const room = /\s(\d{1,2})0\d(?:号室)?$/.exec(building);
  return room !== null ? Number(room[1]) : 0;
}

function memoFits(memo: string, kind: keyof typeof MEMOS, ctx: MemoContext): boolean {
  const floor = floorOf(ctx.building);
  if (memo.includes('3階まで階段')) return floor === 3;
  if (memo.includes('エレベーターなし')) return floor >= 2 && floor <= 5;
  if (memo.includes('2台') || memo.includes('各1台')) return Number(ctx.useNum) >= 2;
  if (memo.includes('本社経理部')) return ctx.billingDiffers;
  if (memo.includes('2階給湯室')) return ctx.building !== '';
  if (kind === 'household') {
    if (memo.includes('オートロック')) return ctx.building !== '';
    if (memo.includes('物置') || memo.includes('門扉')) return ctx.building === '';
  }
  return true;
}

function pickMemo(rng: Rng, kind: keyof typeof MEMOS, ctx: MemoContext): string {
  const pool = MEMOS[kind].filter((m) => memoFits(m, kind, ctx));
  return pool.length > 0 ? rng.pick(pool) : '';
}

/**
 * `count` customers, deterministic for a seed. About 75 % businesses (株式会社青葉商事, 山田歯科医院,
 * さくら保育園 …) and 25 % households (co_name empty). Company names are unique (a branch suffix such as
 * 大阪支店 is added only if no fresh combination is found).
 */
export function generateClients(count: number, seed = 1): SeedClient[] {
  const rng = createRng(seed);
  const usedCores = new Set<string>();
  const usedNames = new Set<string>();
  const clients: SeedClient[] = [];

  for (let i = 0; i < count; i++) {
    const household = rng.chance(0.25);
    const place = pickPlace(rng);
    const addr = makeAddress(rng, place.city);
    const telMain = landline(rng, place.city.tel);

    // --- status & contract dates -------------------------------------------------------------
    const status = weightedCode(rng, [['1', 84], ['2', 6], ['9', 10]]);
    const lastContract = status === '9' ? utc(2026, 8, 31) : utc(2026, 11, 10);
    const firstContract = utc(2015, 1, 5);
    const contractMs = firstContract + rng.int(0, Math.floor((lastContract - firstContract) / DAY_MS)) * DAY_MS;
    const startMs = Math.min(contractMs + rng.int(0, 14) * DAY_MS, utc(2026, 11, 20));
    let cancelDate = '';
    if (status === '9') {
      const earliest = startMs + 60 * DAY_MS;
      const latest = utc(2026, 11, 20);
      cancelDate = ymd(earliest + rng.int(0, Math.max(0, Math.floor((latest - earliest) / DAY_MS))) * DAY_MS);
    }

    // --- who ---------------------------------------------------------------------------------
    let coName = '';
    let coKana = '';
    let company: CompanyName | undefined;
    let type: BusinessType | undefined;
    let person: Person;
    let busyo = '';
    let jobTitle = '';
    let sex = '';
    let birth = '';
    let email = '';
    let website = '';
    let building = '';
    let billingDiffers = false;

    if (household) {
      person = makePerson(rng, [0.35, 0.4, 0.25]);
      sex = person.given.sex;
      if (rng.chance(0.6)) birth = birthday(rng, person.given.gen);
      if (rng.chance(0.45)) building = residence(rng);
      if (rng.chance(0.75)) {
        const local = rng.pick([
          `${romaOf(person.given)}.${romaOf(person.family)}`,
          `${romaOf(person.family)}.${romaOf(person.given)}`,
          `${romaOf(person.given).charAt(0)}${romaOf(person.family)}${rng.int(1, 99)}`,
          `${romaOf(person.given)}${rng.int(1960, 2005) % 100}`,
        ]);
        email = `${local}@${rng.pick(['example.jp', 'example.ne.jp', 'example.com'])}`;
      }
    } else {
      type = rng.weighted(BUSINESS_TYPES, (t) => t.weight);
      let candidate = makeCompanyName(rng, type);
      for (let attempt = 0; attempt < 60 && (usedCores.has(candidate.core) || !isAcceptableName(candidate, type)); attempt++) {
        type = rng.weighted(BUSINESS_TYPES, (t) => t.weight);
        candidate = makeCompanyName(rng, type);
      }
      company = candidate;
      billingDiffers = type.category === 'office' && company.corp !== 'none' && rng.chance(0.12);
      coName = company.full;
      coKana = company.coreKana;
      if (billingDiffers || usedCores.has(company.core)) {
        // A branch of a company whose head office (and billing address) is elsewhere.
        coName = `${company.full} ${place.pref.short}支店`;
        coKana = `${company.coreKana} ${place.pref.shortKana}シテン`;
        billingDiffers = billingDiffers || rng.chance(0.5);
      }
      for (let n = 2; usedNames.has(coName); n++) {
        coName = `${company.full} 第${n}営業所`;
      }
      usedCores.add(company.core);
      usedNames.add(coName);

      const useOwnerName = company.baseIsFamily && rng.chance(0.7);
      person = makePerson(rng, [0.2, 0.45, 0.35], useOwnerName ? company.base : undefined);
      busyo = rng.pick(type.depts);
      jobTitle = rng.pick(type.titles);
      // 院長, 園長, 所長, 店長 … head the whole site: no department.
      if (!DEPT_TITLES.has(jobTitle)) busyo = '';
      if (useOwnerName && rng.chance(0.6)) {
        const ownerTitle: Partial<Record<string, string>> = {
          office: company.corp === 'none' ? '代表' : '代表取締役',
          pro: '所長',
          medical: '院長',
          shop: 'オーナー',
          food: '店主',
        };
        const t = ownerTitle[type.category];
        if (t !== undefined) {
          jobTitle = t;
          busyo = '';
        }
      }
      const cat = type.category;
      if (cat === 'office' || cat === 'pro') {
        if (rng.chance(0.7)) building = officeBuilding(rng, false);
      } else if (cat === 'medical' || cat === 'shop' || cat === 'food') {
        if (rng.chance(0.5)) building = officeBuilding(rng, cat !== 'medical' || rng.chance(0.4));
      } else if (cat === 'care' && rng.chance(0.2)) {
        building = officeBuilding(rng, true);
      }
      email = rng.chance(0.6)
        ? `info@${company.domain}`
        : `${romaOf(person.given).charAt(0)}.${romaOf(person.family)}@${company.domain}`;
      if (rng.chance(0.55)) website = `https://${rng.chance(0.8) ? 'www.' : ''}${company.domain}`;
    }

    // --- phones ------------------------------------------------------------------------------
    const tel1 = phoneText(telMain);
    let tel2 = '';
    let fax = '';
    if (household) {
      if (rng.chance(0.55)) tel2 = mobile(rng);
    } else {
      if (rng.chance(0.3)) tel2 = rng.chance(0.5) ? mobile(rng) : phoneText(landline(rng, place.city.tel));
      if (rng.chance(type?.category === 'food' || type?.category === 'shop' ? 0.3 : 0.75)) fax = faxOf(rng, telMain);
    }

    // --- shipping (配送先) --------------------------------------------------------------------
    const shipping = {
      co_name: coName,
      busyo,
      name: person.name,
      name_kana: person.kana,
      zipcode: addr.zipcode,
      pref: place.pref.name,
      city: place.city.name,
      address: addr.address,
      building,
      tel: tel1,
      fax,
    };
    const shipElsewhere = household ? rng.chance(0.04) : rng.chance(0.2);
    if (shipElsewhere) {
      const sp = otherPlaceInPrefecture(rng, place);
      const sa = makeAddress(rng, sp.city);
      const stel = landline(rng, sp.city.tel);
      shipping.zipcode = sa.zipcode;
      shipping.pref = sp.pref.name;
      shipping.city = sp.city.name;
      shipping.address = sa.address;
      shipping.tel = phoneText(stel);
      if (household) {
        shipping.building = rng.chance(0.4) ? residence(rng) : '';
        shipping.fax = '';
      } else if (type !== undefined) {
        shipping.co_name = `${coName} ${rng.pick(type.sites)}`;
        shipping.busyo = '';
        shipping.building = rng.chance(0.4) ? officeBuilding(rng, rng.chance(0.5)) : '';
        shipping.fax = rng.chance(0.4) ? faxOf(rng, stel) : '';
        if (rng.chance(0.6)) {
          const sp2 = makePerson(rng, [0.15, 0.45, 0.4]);
          shipping.name = sp2.name;
          shipping.name_kana = sp2.kana;
        }
      }
    }

    // --- billing (請求先) ---------------------------------------------------------------------
    const billing = {
      co_name: coName,
      busyo,
      name: person.name,
      name_kana: person.kana,
      zipcode: addr.zipcode,
      pref: place.pref.name,
      city: place.city.name,
      address: addr.address,
      building,
      tel: tel1,
      fax,
      email,
    };
    if (billingDiffers && company !== undefined) {
      const otherPrefs = HEAD_OFFICE_PREFS.filter((n) => n !== place.pref.name);
      const headPrefName = rng.pick(otherPrefs.length > 0 ? otherPrefs : HEAD_OFFICE_PREFS);
      const headPref = PREFECTURE_DETAILS.find((p) => p.name === headPrefName) ?? place.pref;
      const headCity = rng.weighted(headPref.cities, (c) => c.weight);
      const ha = makeAddress(rng, headCity);
      const htel = landline(rng, headCity.tel);
      const accountant = makePerson(rng, [0.15, 0.5, 0.35]);
      billing.co_name = company.full;
      billing.busyo = rng.pick(['経理部', '経理課', '総務部 経理課', '管理本部 経理部']);
      billing.name = accountant.name;
      billing.name_kana = accountant.kana;
      billing.zipcode = ha.zipcode;
      billing.pref = headPref.name;
      billing.city = headCity.name;
      billing.address = ha.address;
      billing.building = officeBuilding(rng, false);
      billing.tel = phoneText(htel);
      billing.fax = faxOf(rng, htel);
      billing.email = `keiri@${company.domain}`;
    }

    // --- delivery schedule -------------------------------------------------------------------
    const haisoFlag = status === '1' && rng.chance(0.8) ? '1' : '0';
    const haisoType = haisoFlag === '1' ? weightedCode(rng, [['1', 40], ['2', 35], ['3', 25]]) : '0';
    const wks = haisoType === '1' ? rng.pick([1, 2, 2, 2, 3, 4]) : haisoType === '3' ? rng.int(1, 4) : 1;
    const dow = household ? rng.int(1, 6) : rng.int(1, 5);
    const day = rng.int(1, 28);
    const nextDate = haisoFlag === '1' ? nextShippingDate(rng, haisoType, wks, dow, day) : '';
    const size = household ? '1' : rng.pick(type?.sizes ?? ['2']);
    const haisoNum = household
      ? rng.pick(['2', '2', '2', '4'])
      : size === '2'
        ? rng.pick(['2', '2', '4'])
        : size === '3'
          ? rng.pick(['2', '4', '4', '6'])
          : rng.pick(['4', '6', '6']);
    const useNum = household ? (rng.chance(0.05) ? '2' : '1') : size === '2' ? '1' : size === '3' ? rng.pick(['1', '2']) : rng.pick(['2', '3']);

    // --- money -------------------------------------------------------------------------------
    const collectType = household
      ? weightedCode(rng, [['1', 45], ['4', 38], ['2', 7], ['3', 7], ['5', 3]])
      : weightedCode(rng, [['2', 48], ['1', 35], ['5', 8], ['4', 6], ['3', 3]]);
    const collectDay =
      collectType === '1' ? '27'
        : collectType === '4' ? rng.pick(['10', '27'])
          : collectType === '2' ? rng.pick(['31', '31', '20', '10'])
            : rng.pick(['20', '31']);
    const tankaType = !household && rng.chance(0.15) ? '2' : '1';
    const simeGp = household ? (rng.chance(0.9) ? '31' : '20') : rng.chance(0.6) ? '31' : rng.pick(['5', '10', '15', '20', '25']);
    const bottlesPerMonth = Number(haisoNum) * (haisoType === '1' ? Math.max(1, Math.round(4 / wks)) : 1);
    let uriZan = '0';
    if (status !== '9') {
      if (household) uriZan = rng.chance(0.5) ? '0' : String(bottlesPerMonth * 1296 + (rng.chance(0.5) ? 550 : 0));
      else uriZan = rng.chance(0.3) ? '0' : String(Math.min(300000, bottlesPerMonth * 1296 * rng.int(1, 3) * Number(useNum)));
    }

    // --- notes -------------------------------------------------------------------------------
    const memoKind = household ? 'household' : (type?.category ?? 'office');
    const memo = rng.chance(0.35) ? pickMemo(rng, memoKind, { building, useNum, billingDiffers }) : '';
    const contact = rng.chance(0.5) ? rng.pick(household ? CONTACT_METHODS.household : CONTACT_METHODS.business) : '';
    const biko1 = rng.chance(0.5) ? rng.pick(SERVER_NOTES) : '';
    const biko2 = rng.chance(0.25) ? rng.pick(CONTRACT_NOTES).replace('{name}', rng.pick(FAMILY_NAMES).kanji) : '';

    const regionCode = place.city.area === '1' || (place.pref.weight >= 500 && place.cityIndex < 3) || place.cityIndex === 0
      ? '1'
      : place.city.weight <= 1
        ? '3'
        : '2';

    clients.push({
      status,
      bunrui_1: household ? '1' : (type?.bunrui1 ?? '2'),
      bunrui_2: rng.chance(0.8) ? weightedCode(rng, [['1', 30], ['2', 20], ['3', 15], ['4', 8], ['5', 12], ['6', 10], ['7', 5]]) : '',
      bunrui_3: household ? '' : (type?.gyoshu ?? ''),
      bunrui_4: size,
      bunrui_5: household
        ? weightedCode(rng, [['2', 50], ['3', 20], ['5', 20], ['1', 10]])
        : weightedCode(rng, [['1', 45], ['2', 20], ['3', 15], ['4', 20]]),
      bunrui_6: rng.chance(0.3)
        ? household
          ? rng.pick(['1', '2', '3', '5'])
          : rng.pick(['1', '2', '4', '4'])
        : '',
      bunrui_7: regionCode,
      riyou: household ? '1' : '2',
      zokusei: household ? '個人' : company !== undefined && company.corp !== 'none' ? '法人' : '個人事業主',
      rank: weightedCode(rng, [['A', 20], ['B', 55], ['C', 25]]),
      co_name: coName,
      co_name_kana: coKana,
      busyo,
      name: person.name,
      job_title: jobTitle,
      name_kana: person.kana,
      keisho: household ? '様' : '御中',
      tel_1: tel1,
      tel_2: tel2,
      fax,
      zipcode: addr.zipcode,
      pref: place.pref.name,
      city: place.city.name,
      address: addr.address,
      building,
      sex,
      birthday: birth,
      contact,
      biko_1: biko1,
      biko_2: biko2,
      lat: addr.lat,
      lng: addr.lng,
      shipping_co_name: shipping.co_name,
      shipping_busyo: shipping.busyo,
      shipping_name: shipping.name,
      shipping_name_kana: shipping.name_kana,
      shipping_zipcode: shipping.zipcode,
      shipping_pref: shipping.pref,
      shipping_city: shipping.city,
      shipping_address: shipping.address,
      shipping_building: shipping.building,
      shipping_tel: shipping.tel,
      shipping_fax: shipping.fax,
      billing_co_name: billing.co_name,
      billing_busyo: billing.busyo,
      billing_name: billing.name,
      billing_name_kana: billing.name_kana,
      billing_zipcode: billing.zipcode,
      billing_pref: billing.pref,
      billing_city: billing.city,
      billing_address: billing.address,
      billing_building: billing.building,
      billing_tel: billing.tel,
      billing_fax: billing.fax,
      billing_email: billing.email,
      website,
      email,
      atm_type: weightedCode(rng, [['0', 60], ['1', 30], ['2', 10]]),
      haiso_flag: haisoFlag,
      haiso_type: haisoType,
      haiso_wks: String(wks),
      haiso_num: haisoNum,
      haiso_dow: String(dow),
      haiso_day: String(day),
      next_shipping_date: nextDate,
      delivery_usr_id: '',
      dm: rng.chance(0.6) ? '1' : '0',
      sale_usr_id: '',
      contract_date: ymd(contractMs),
      contract_start_date: ymd(startMs),
      contract_type: weightedCode(rng, [['1', 65], ['2', 10], ['3', 25]]),
      cancel_date: cancelDate,
      tori_kubun: collectType === '3' || collectType === '5' ? '2' : '1',
      tanka_type: tankaType,
      kake_ritu: tankaType === '2' ? rng.pick(['90', '95']) : '100',
      sime_gp: simeGp,
      kin_kiri: weightedCode(rng, [['0', 80], ['2', 15], ['1', 5]]),
      zei_kiri: weightedCode(rng, [['0', 85], ['2', 10], ['1', 5]]),
      zei_ten: rng.chance(0.8) ? '3' : '2',
      yoshin_gendo: household || rng.chance(0.3) ? '0' : String(rng.int(2, 20) * 50000),
      uri_zan: uriZan,
      collect_type: collectType,
      // 当月 on a day before the 締日 cannot be billed in time (the customer save refuses it): such a draw collects 翌月.
      collect_cycle: fittingCycle(simeGp, collectType === '1' ? '1' : weightedCode(rng, [['1', 70], ['0', 20], ['2', 10]]), collectDay),
      collect_day: collectDay,
      fee_type: collectType === '2' && !household && rng.chance(0.7) ? '1' : '0',
      collect_site: '',
      yayoi_id: '',
      fact: '',
      memo,
      point_taishou: rng.chance(household ? 0.7 : 0.2) ? '1' : '0',
      area: place.city.area,
      shinyou: weightedCode(rng, [['A', 75], ['B', 20], ['C', 5]]),
      use_num: useNum,
      pm_id: collectType,
      ...debitAccountOf(collectType, i, seed, coKana || person.kana),
    });
  }
  return clients;
}

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

/** The water of an order: the demo catalogue's bottles, the returnable 12 L ones most often. */
const WATER: readonly (readonly [string, number])[] = [['W12R', 60], ['RO12R', 25], ['W12O', 10], ['W7O', 5]];

/** The first business day (no Sunday or public holiday) on or after `day`. */
export function businessDayFrom(day: string): string {
  let d = day;
  while (closedReason(d)) d = addDays(d, 1);
  return d;
}

/**
 * `count` orders for customers 0..clientCount-1 over the 204 days up to `today`, sorted by date. Older orders are
 * almost all processed; recent ones are spread over the earlier statuses. Each is some water, sometimes the
 * server rental or cups; it is delivered a business day or a few after it was taken — a delivered one by
 * `today`, an open one from `today` on (a "delivered" one whose day is still ahead is 出荷待ち).
 * @example generateOrders(300, 1000, 2, '2026-11-25')[0] // { clientIndex: 17, date: '2026-05-05', deliveryDate: '2026-05-07', status: 'processed', lines: [{ code: 'W12R', quantity: 4 }] }
 */
export function generateOrders(clientCount: number, count: number, seed = 2, today: string = DEMO_TODAY): SeedOrder[] {
  const rng = createRng(seed);
  const days = 204;
  const orders: SeedOrder[] = [];
  if (clientCount <= 0) return orders;
  for (let i = 0; i < count; i++) {
    const age = days - rng.int(0, days);
    let status: SeedOrderStatus =
      age >= 21
        ? rng.chance(0.93) ? 'processed' : 'shipped'
        : age >= 7
          ? (weightedCode(rng, [['processed', 50], ['shipped', 35], ['waitshipping', 10], ['pending', 5]]) as SeedOrderStatus)
          : (weightedCode(rng, [['shipped', 20], ['waitshipping', 30], ['pending', 25], ['untreated', 25]]) as SeedOrderStatus);
    const date = addDays(today, -age);
    let deliveryDate = businessDayFrom(addDays(date, rng.int(1, 3)));
    const open = status !== 'processed' && status !== 'shipped';
    if (open && deliveryDate < today) deliveryDate = businessDayFrom(addDays(today, rng.int(0, 4)));
    if (!open && deliveryDate > today) status = 'waitshipping';
    const lines: SeedOrderLine[] = [{ code: weightedCode(rng, WATER), quantity: rng.pick([2, 2, 2, 2, 3, 4, 4, 4, 6, 6, 8, 10]) }];
    if (rng.chance(0.25)) lines.push({ code: 'SV-RENT', quantity: 1 });
    if (rng.chance(0.08)) lines.push({ code: 'CUP', quantity: rng.int(1, 3) });
    orders.push({ clientIndex: rng.int(0, clientCount - 1), date, deliveryDate, status, lines });
  }
  return orders.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.clientIndex - b.clientIndex));
}
