/**
 * Japanese word lists for demo data. Every name part carries its katakana reading so that generated
 * kana fields are the real reading of the generated kanji.
 */

export interface Reading {
  readonly kanji: string;
  /** Full-width katakana reading. */
  readonly kana: string;
  /** ASCII spelling for domains/e-mail when the Hepburn spelling of the kana would look wrong (loanwords). */
  readonly roma?: string;
}

export type Sex = '1' | '2';

export interface GivenName extends Reading {
  /** '1' male, '2' female. */
  readonly sex: Sex;
  /** Typical generation: 1 born ~1940–1965, 2 ~1960–1985, 3 ~1980–2002. */
  readonly gen: 1 | 2 | 3;
}

const r = (kanji: string, kana: string, roma?: string): Reading => (roma === undefined ? { kanji, kana } : { kanji, kana, roma });

/** Common family names (姓) with their usual reading. */
export const FAMILY_NAMES: readonly Reading[] = [
  r('佐藤', 'サトウ'), r('鈴木', 'スズキ'), r('高橋', 'タカハシ'), r('田中', 'タナカ'), r('伊藤', 'イトウ'),
  r('渡辺', 'ワタナベ'), r('山本', 'ヤマモト'), r('中村', 'ナカムラ'), r('小林', 'コバヤシ'), r('加藤', 'カトウ'),
  r('吉田', 'ヨシダ'), r('山田', 'ヤマダ'), r('佐々木', 'ササキ'), r('山口', 'ヤマグチ'), r('松本', 'マツモト'),
  r('井上', 'イノウエ'), r('木村', 'キムラ'), r('林', 'ハヤシ'), r('斎藤', 'サイトウ'), r('清水', 'シミズ'),
  r('山崎', 'ヤマザキ'), r('森', 'モリ'), r('池田', 'イケダ'), r('橋本', 'ハシモト'), r('阿部', 'アベ'),
  r('石川', 'イシカワ'), r('山下', 'ヤマシタ'), r('中島', 'ナカジマ'), r('石井', 'イシイ'), r('小川', 'オガワ'),
  r('前田', 'マエダ'), r('岡田', 'オカダ'), r('長谷川', 'ハセガワ'), r('藤田', 'フジタ'), r('後藤', 'ゴトウ'),
  r('近藤', 'コンドウ'), r('村上', 'ムラカミ'), r('遠藤', 'エンドウ'), r('青木', 'アオキ'), r('坂本', 'サカモト'),
  r('福田', 'フクダ'), r('太田', 'オオタ'), r('西村', 'ニシムラ'), r('藤井', 'フジイ'), r('金子', 'カネコ'),
  r('岡本', 'オカモト'), r('藤原', 'フジワラ'), r('中野', 'ナカノ'), r('三浦', 'ミウラ'), r('原田', 'ハラダ'),
  r('中川', 'ナカガワ'), r('松田', 'マツダ'), r('竹内', 'タケウチ'), r('小野', 'オノ'), r('田村', 'タムラ'),
  r('中山', 'ナカヤマ'), r('和田', 'ワダ'), r('石田', 'イシダ'), r('森田', 'モリタ'), r('上田', 'ウエダ'),
  r('原', 'ハラ'), r('柴田', 'シバタ'), r('酒井', 'サカイ'), r('工藤', 'クドウ'), r('横山', 'ヨコヤマ'),
  r('宮崎', 'ミヤザキ'), r('宮本', 'ミヤモト'), r('内田', 'ウチダ'), r('高木', 'タカギ'), r('安藤', 'アンドウ'),
  r('谷口', 'タニグチ'), r('大野', 'オオノ'), r('丸山', 'マルヤマ'), r('今井', 'イマイ'), r('藤本', 'フジモト'),
  r('武田', 'タケダ'), r('村田', 'ムラタ'), r('上野', 'ウエノ'), r('杉山', 'スギヤマ'), r('増田', 'マスダ'),
  r('平野', 'ヒラノ'), r('大塚', 'オオツカ'), r('千葉', 'チバ'), r('久保', 'クボ'), r('松井', 'マツイ'),
  r('野口', 'ノグチ'), r('松尾', 'マツオ'), r('菅原', 'スガワラ'), r('木下', 'キノシタ'), r('野村', 'ノムラ'),
  r('新井', 'アライ'), r('菊地', 'キクチ'), r('佐野', 'サノ'), r('桜井', 'サクライ'), r('岩田', 'イワタ'),
];

const g = (kanji: string, kana: string, sex: Sex, gen: 1 | 2 | 3): GivenName => ({ kanji, kana, sex, gen });

/** Given names (名) with reading, sex and typical generation. */
export const GIVEN_NAMES: readonly GivenName[] = [
  // male
  g('茂', 'シゲル', '1', 1), g('清', 'キヨシ', '1', 1), g('博', 'ヒロシ', '1', 1), g('勝', 'マサル', '1', 1),
  g('稔', 'ミノル', '1', 1), g('修', 'オサム', '1', 1), g('隆', 'タカシ', '1', 1), g('正人', 'マサト', '1', 1),
  g('一郎', 'イチロウ', '1', 1), g('太郎', 'タロウ', '1', 2), g('浩二', 'コウジ', '1', 2), g('誠', 'マコト', '1', 2),
  g('健一', 'ケンイチ', '1', 2), g('和也', 'カズヤ', '1', 2), g('達也', 'タツヤ', '1', 2), g('哲也', 'テツヤ', '1', 2),
  g('雄一', 'ユウイチ', '1', 2), g('剛', 'ツヨシ', '1', 2), g('秀樹', 'ヒデキ', '1', 2), g('慎一', 'シンイチ', '1', 2),
  g('賢治', 'ケンジ', '1', 2), g('聡', 'サトシ', '1', 2), g('学', 'マナブ', '1', 2), g('直樹', 'ナオキ', '1', 2),
  g('大輔', 'ダイスケ', '1', 3), g('拓也', 'タクヤ', '1', 3), g('健太', 'ケンタ', '1', 3), g('翔太', 'ショウタ', '1', 3),
  g('亮', 'リョウ', '1', 3), g('大樹', 'ダイキ', '1', 3), g('翔', 'ショウ', '1', 3), g('勇気', 'ユウキ', '1', 3),
  g('智也', 'トモヤ', '1', 3), g('康介', 'コウスケ', '1', 3), g('俊介', 'シュンスケ', '1', 3), g('裕太', 'ユウタ', '1', 3),
  // female
  g('和子', 'カズコ', '2', 1), g('節子', 'セツコ', '2', 1), g('幸子', 'サチコ', '2', 1), g('洋子', 'ヨウコ', '2', 1),
  g('京子', 'キョウコ', '2', 1), g('恵子', 'ケイコ', '2', 1), g('典子', 'ノリコ', '2', 1), g('久美子', 'クミコ', '2', 1),
  g('花子', 'ハナコ', '2', 1), g('純子', 'ジュンコ', '2', 2), g('由美', 'ユミ', '2', 2), g('真由美', 'マユミ', '2', 2),
  g('智子', 'トモコ', '2', 2), g('裕子', 'ユウコ', '2', 2), g('直美', 'ナオミ', '2', 2), g('明美', 'アケミ', '2', 2),
  g('美穂', 'ミホ', '2', 2), g('香織', 'カオリ', '2', 2), g('美紀', 'ミキ', '2', 2), g('恵美', 'エミ', '2', 2),
  g('由紀', 'ユキ', '2', 2), g('理恵', 'リエ', '2', 2), g('加奈子', 'カナコ', '2', 2), g('沙織', 'サオリ', '2', 2),
  g('愛', 'アイ', '2', 3), g('彩', 'アヤ', '2', 3), g('美咲', 'ミサキ', '2', 3), g('さくら', 'サクラ', '2', 3),
  g('麻衣', 'マイ', '2', 3), g('千尋', 'チヒロ', '2', 3), g('綾香', 'アヤカ', '2', 3), g('奈々', 'ナナ', '2', 3),
  g('優子', 'ユウコ', '2', 3), g('舞', 'マイ', '2', 3), g('友美', 'トモミ', '2', 3), g('遥', 'ハルカ', '2', 3),
];

/** Auspicious / place-like words used in company names (青葉商事, 富士運輸 …). */
export const COMPANY_WORDS: readonly Reading[] = [
  r('青葉', 'アオバ'), r('富士', 'フジ'), r('東西', 'トウザイ'), r('日本', 'ニホン'), r('大和', 'ヤマト'),
  r('中央', 'チュウオウ'), r('旭', 'アサヒ'), r('太陽', 'タイヨウ'), r('朝日', 'アサヒ'), r('昭和', 'ショウワ'),
  r('東洋', 'トウヨウ'), r('三和', 'サンワ'), r('北斗', 'ホクト'), r('若葉', 'ワカバ'), r('双葉', 'フタバ'),
  r('協和', 'キョウワ'), r('共栄', 'キョウエイ'), r('大成', 'タイセイ'), r('明和', 'メイワ'), r('平和', 'ヘイワ'),
  r('瑞穂', 'ミズホ'), r('丸和', 'マルワ'), r('光', 'ヒカリ'), r('日の出', 'ヒノデ'), r('千代田', 'チヨダ'),
  r('東邦', 'トウホウ'), r('大栄', 'ダイエイ'), r('三栄', 'サンエイ'), r('新栄', 'シンエイ'), r('誠和', 'セイワ'),
  r('栄光', 'エイコウ'), r('泉', 'イズミ'), r('葵', 'アオイ'), r('松葉', 'マツバ'), r('四季', 'シキ'),
  r('白鳥', 'シラトリ'), r('緑', 'ミドリ'), r('清流', 'セイリュウ'), r('東和', 'トウワ'), r('大洋', 'タイヨウ'),
  r('桜', 'サクラ'), r('みなと', 'ミナト'), r('ひかり', 'ヒカリ'), r('さくら', 'サクラ'), r('あおい', 'アオイ'),
];

/** Gentle words that suit clinics, nurseries, care services and shops (青葉クリニック, 若葉保育園 …). */
export const SOFT_WORDS: readonly Reading[] = [
  r('青葉', 'アオバ'), r('若葉', 'ワカバ'), r('双葉', 'フタバ'), r('光', 'ヒカリ'), r('日の出', 'ヒノデ'),
  r('緑', 'ミドリ'), r('泉', 'イズミ'), r('葵', 'アオイ'), r('松葉', 'マツバ'), r('四季', 'シキ'),
  r('白鳥', 'シラトリ'), r('桜', 'サクラ'), r('旭', 'アサヒ'), r('朝日', 'アサヒ'), r('太陽', 'タイヨウ'),
  r('瑞穂', 'ミズホ'), r('清流', 'セイリュウ'), r('みなと', 'ミナト'), r('さくら', 'サクラ'), r('あおい', 'アオイ'),
];

/** Soft hiragana words typical for nurseries, care services and small shops (さくら保育園 …). */
export const HIRAGANA_WORDS: readonly Reading[] = [
  r('さくら', 'サクラ'), r('ひまわり', 'ヒマワリ'), r('たんぽぽ', 'タンポポ'), r('すみれ', 'スミレ'),
  r('わかば', 'ワカバ'), r('ひかり', 'ヒカリ'), r('あおぞら', 'アオゾラ'), r('こばと', 'コバト'),
  r('つくし', 'ツクシ'), r('どんぐり', 'ドングリ'), r('なかよし', 'ナカヨシ'), r('ひばり', 'ヒバリ'),
  r('かもめ', 'カモメ'), r('みどり', 'ミドリ'), r('にじいろ', 'ニジイロ'), r('そよかぜ', 'ソヨカゼ'),
];

/** Katakana loanwords with an English spelling for domains (アクア → aqua). */
export const KATAKANA_WORDS: readonly Reading[] = [
  r('アクア', 'アクア', 'aqua'), r('サンライズ', 'サンライズ', 'sunrise'), r('グローバル', 'グローバル', 'global'),
  r('ユニオン', 'ユニオン', 'union'), r('ライフ', 'ライフ', 'life'), r('ネクスト', 'ネクスト', 'next'),
  r('スマイル', 'スマイル', 'smile'), r('グリーン', 'グリーン', 'green'), r('フロンティア', 'フロンティア', 'frontier'),
  r('ブライト', 'ブライト', 'bright'), r('オアシス', 'オアシス', 'oasis'), r('ハーモニー', 'ハーモニー', 'harmony'),
  r('リーフ', 'リーフ', 'leaf'), r('ソレイユ', 'ソレイユ', 'soleil'), r('プラス', 'プラス', 'plus'),
];

export type CorpKind = 'kabu_pre' | 'kabu_post' | 'yugen' | 'godo' | 'none';

/** 法人格 (company form). The kana of company names leaves it out, as usual for sort keys. */
export const CORP_FORMS: Readonly<Record<Exclude<CorpKind, 'none'>, Reading & { readonly position: 'before' | 'after' }>> = {
  kabu_pre: { kanji: '株式会社', kana: 'カブシキガイシャ', position: 'before' },
  kabu_post: { kanji: '株式会社', kana: 'カブシキガイシャ', position: 'after' },
  yugen: { kanji: '有限会社', kana: 'ユウゲンガイシャ', position: 'before' },
  godo: { kanji: '合同会社', kana: 'ゴウドウガイシャ', position: 'before' },
};

export type Category = 'office' | 'pro' | 'medical' | 'care' | 'school' | 'food' | 'shop';
export type NameBase = 'family' | 'word' | 'soft' | 'hira' | 'kata';

export interface BusinessType extends Reading {
  readonly roma: string;
  /** suffix: 青葉 + 商事; prefix: 美容室 + さくら. */
  readonly position: 'suffix' | 'prefix';
  /** mt_bunrui_1 (顧客分類). */
  readonly bunrui1: '2' | '3' | '4' | '5';
  /** mt_bunrui_3 (業種). */
  readonly gyoshu: string;
  readonly category: Category;
  /** Word pools the name is built from. */
  readonly bases: readonly NameBase[];
  /** company: almost always 株式会社/有限会社…; some: sometimes; none: never. */
  readonly corp: 'company' | 'some' | 'none';
  readonly weight: number;
  /** Departments (部署) of the contact person; '' = none. */
  readonly depts: readonly string[];
  /** Job titles (役職) of the contact person; '' = none. */
  readonly titles: readonly string[];
  /** Names of a second site (配送先), appended to the company name: 青葉商事 第二工場. */
  readonly sites: readonly string[];
  /** mt_bunrui_4 (規模) codes this kind of business usually has. */
  readonly sizes: readonly string[];
}

const OFFICE_DEPTS = ['総務部', '総務課', '営業部', '管理部', '経理部', '業務部', '総務人事部', '', ''] as const;
const OFFICE_TITLES = ['部長', '課長', '係長', '主任', '担当', '', ''] as const;
const FACTORY_SITES = ['第二工場', '本社工場', '物流センター', '倉庫'] as const;
const BUILDER_SITES = ['資材置場', '作業所', '営業所'] as const;
const TRADE_SITES = ['営業所', '倉庫', '物流センター', '第二事務所'] as const;
const PRO_DEPTS = ['', '', '', '総務課'] as const;
const PRO_TITLES = ['所長', '事務長', '', '', '担当'] as const;
const CLINIC_DEPTS = ['', '', '事務部', '受付'] as const;
const CLINIC_TITLES = ['院長', '事務長', '', '', '主任'] as const;
const CARE_DEPTS = ['', '', '事務室'] as const;
const CARE_TITLES = ['施設長', '管理者', '事務長', '', '主任'] as const;
const SCHOOL_DEPTS = ['', '', '事務室'] as const;
const NURSERY_TITLES = ['園長', '副園長', '主任保育士', '事務長', ''] as const;
const JUKU_TITLES = ['教室長', '塾長', '', '事務担当'] as const;
const SHOP_TITLES = ['店長', 'オーナー', '', '代表'] as const;

const SMALL = ['2', '2', '3'] as const;
const MID = ['2', '3', '3', '4', '5'] as const;

const b = (
  kanji: string,
  kana: string,
  roma: string,
  position: 'suffix' | 'prefix',
  bunrui1: '2' | '3' | '4' | '5',
  gyoshu: string,
  category: Category,
  bases: readonly NameBase[],
  corp: 'company' | 'some' | 'none',
  weight: number,
  depts: readonly string[],
  titles: readonly string[],
  sites: readonly string[],
  sizes: readonly string[],
): BusinessType => ({ kanji, kana, roma, position, bunrui1, gyoshu, category, bases, corp, weight, depts, titles, sites, sizes });

/** Kinds of business customers (業態) with reading, English slug and classification codes. */
export const BUSINESS_TYPES: readonly BusinessType[] = [
  // オフィス・事業所 (bunrui_1 = 2)
  b('商事', 'ショウジ', 'shoji', 'suffix', '2', '3', 'office', ['word', 'family', 'kata'], 'company', 10, OFFICE_DEPTS, OFFICE_TITLES, TRADE_SITES, MID),
  b('工業', 'コウギョウ', 'kogyo', 'suffix', '2', '1', 'office', ['word', 'family'], 'company', 6, [...OFFICE_DEPTS, '製造部'], OFFICE_TITLES, FACTORY_SITES, MID),
  b('建設', 'ケンセツ', 'kensetsu', 'suffix', '2', '2', 'office', ['word', 'family'], 'company', 6, [...OFFICE_DEPTS, '工事部'], OFFICE_TITLES, BUILDER_SITES, MID),
  b('工務店', 'コウムテン', 'komuten', 'suffix', '2', '2', 'office', ['family'], 'company', 4, ['', '', '総務課'], ['', '代表取締役', '専務取締役', '事務担当'], BUILDER_SITES, SMALL),
  b('不動産', 'フドウサン', 'fudosan', 'suffix', '2', '5', 'office', ['word', 'family', 'kata'], 'company', 5, ['', '営業部', '賃貸管理部', '総務部'], ['店長', '課長', '主任', '', ''], ['駅前店', '賃貸センター'], SMALL),
  b('食品', 'ショクヒン', 'foods', 'suffix', '2', '1', 'office', ['word', 'family'], 'company', 4, [...OFFICE_DEPTS, '製造部', '品質管理部'], OFFICE_TITLES, FACTORY_SITES, MID),
  b('運輸', 'ウンユ', 'unyu', 'suffix', '2', '4', 'office', ['word', 'family'], 'company', 4, ['', '運行管理課', '総務部', '配車課'], ['所長', '課長', '運行管理者', '', ''], ['営業所', '物流センター', '車庫'], MID),
  b('物流', 'ブツリュウ', 'logi', 'suffix', '2', '4', 'office', ['word', 'kata'], 'company', 2, ['', '総務部', '業務部'], OFFICE_TITLES, ['物流センター', '第二倉庫'], MID),
  b('電機', 'デンキ', 'denki', 'suffix', '2', '1', 'office', ['word', 'family'], 'company', 3, OFFICE_DEPTS, OFFICE_TITLES, FACTORY_SITES, MID),
  b('電設', 'デンセツ', 'densetsu', 'suffix', '2', '2', 'office', ['word', 'family'], 'company', 2, ['', '', '工事部', '総務部'], OFFICE_TITLES, BUILDER_SITES, SMALL),
  b('設備', 'セツビ', 'setsubi', 'suffix', '2', '2', 'office', ['word', 'family'], 'company', 2, ['', '', '工事部', '総務部'], OFFICE_TITLES, BUILDER_SITES, SMALL),
  b('産業', 'サンギョウ', 'sangyo', 'suffix', '2', '3', 'office', ['word'], 'company', 3, OFFICE_DEPTS, OFFICE_TITLES, TRADE_SITES, MID),
  b('物産', 'ブッサン', 'bussan', 'suffix', '2', '3', 'office', ['word'], 'company', 2, OFFICE_DEPTS, OFFICE_TITLES, TRADE_SITES, MID),
  b('印刷', 'インサツ', 'insatsu', 'suffix', '2', '1', 'office', ['word', 'family'], 'company', 2, ['', '総務部', '制作部', '営業部'], OFFICE_TITLES, FACTORY_SITES, SMALL),
  b('製作所', 'セイサクショ', 'seisakusho', 'suffix', '2', '1', 'office', ['family'], 'company', 3, ['', '総務課', '製造課', '品質管理課'], OFFICE_TITLES, FACTORY_SITES, MID),
  b('自動車', 'ジドウシャ', 'jidosha', 'suffix', '2', '3', 'office', ['word', 'family'], 'company', 2, ['', 'サービス課', '営業部'], ['工場長', '店長', '主任', ''], ['整備工場', '中古車センター'], SMALL),
  b('商会', 'ショウカイ', 'shokai', 'suffix', '2', '3', 'office', ['family'], 'company', 2, ['', '', '総務課'], ['', '専務取締役', '事務担当'], TRADE_SITES, SMALL),
  b('企画', 'キカク', 'kikaku', 'suffix', '2', '6', 'office', ['word', 'kata'], 'company', 2, ['', '総務部', '制作部'], OFFICE_TITLES, ['第二事務所', '制作スタジオ'], SMALL),
  b('システム', 'システム', 'system', 'suffix', '2', '6', 'office', ['word', 'kata'], 'company', 2, ['', '総務部', '開発部', '管理部'], OFFICE_TITLES, ['開発センター', '第二事務所'], MID),
  b('税理士事務所', 'ゼイリシジムショ', 'tax', 'suffix', '2', '6', 'pro', ['family'], 'none', 3, PRO_DEPTS, PRO_TITLES, ['分室'], SMALL),
  b('会計事務所', 'カイケイジムショ', 'kaikei', 'suffix', '2', '6', 'pro', ['family'], 'none', 2, PRO_DEPTS, PRO_TITLES, ['分室'], SMALL),
  b('法律事務所', 'ホウリツジムショ', 'law', 'suffix', '2', '6', 'pro', ['family'], 'none', 2, PRO_DEPTS, PRO_TITLES, ['分室'], SMALL),
  b('司法書士事務所', 'シホウショシジムショ', 'shihoshoshi', 'suffix', '2', '6', 'pro', ['family'], 'none', 1, PRO_DEPTS, PRO_TITLES, ['分室'], ['2']),
  b('社会保険労務士事務所', 'シャカイホケンロウムシジムショ', 'sr', 'suffix', '2', '6', 'pro', ['family'], 'none', 1, PRO_DEPTS, PRO_TITLES, ['分室'], ['2']),
  b('設計事務所', 'セッケイジムショ', 'sekkei', 'suffix', '2', '2', 'pro', ['family', 'word'], 'some', 2, PRO_DEPTS, PRO_TITLES, ['第二事務所'], SMALL),
  b('美容室', 'ビヨウシツ', 'hair', 'prefix', '2', '6', 'shop', ['hira', 'kata'], 'none', 3, [''], SHOP_TITLES, ['2号店', '駅前店'], ['2']),
  b('ヘアサロン', 'ヘアサロン', 'hairsalon', 'prefix', '2', '6', 'shop', ['kata', 'hira'], 'none', 1, [''], SHOP_TITLES, ['2号店', '駅前店'], ['2']),
  // 医療・福祉 (bunrui_1 = 3)
  b('歯科医院', 'シカイイン', 'dental', 'suffix', '3', '7', 'medical', ['family'], 'none', 4, CLINIC_DEPTS, CLINIC_TITLES, ['分院', '駅前分院'], SMALL),
  b('歯科クリニック', 'シカクリニック', 'dental', 'suffix', '3', '7', 'medical', ['hira', 'soft', 'family'], 'none', 2, CLINIC_DEPTS, CLINIC_TITLES, ['分院'], SMALL),
  b('クリニック', 'クリニック', 'clinic', 'suffix', '3', '7', 'medical', ['soft', 'family', 'hira'], 'none', 3, CLINIC_DEPTS, CLINIC_TITLES, ['分院'], SMALL),
  b('内科クリニック', 'ナイカクリニック', 'naika', 'suffix', '3', '7', 'medical', ['family', 'soft'], 'none', 2, CLINIC_DEPTS, CLINIC_TITLES, ['分院'], SMALL),
  b('内科医院', 'ナイカイイン', 'naika', 'suffix', '3', '7', 'medical', ['family'], 'none', 2, CLINIC_DEPTS, CLINIC_TITLES, ['分院'], SMALL),
  b('整形外科', 'セイケイゲカ', 'seikei', 'suffix', '3', '7', 'medical', ['family'], 'none', 1, CLINIC_DEPTS, CLINIC_TITLES, ['リハビリセンター'], SMALL),
  b('眼科', 'ガンカ', 'ganka', 'suffix', '3', '7', 'medical', ['family'], 'none', 1, CLINIC_DEPTS, CLINIC_TITLES, ['分院'], SMALL),
  b('小児科', 'ショウニカ', 'shonika', 'suffix', '3', '7', 'medical', ['family'], 'none', 1, CLINIC_DEPTS, CLINIC_TITLES, ['分院'], SMALL),
  b('整骨院', 'セイコツイン', 'seikotsu', 'suffix', '3', '7', 'medical', ['family', 'soft'], 'none', 2, [''], ['院長', ''], ['2号院'], ['2']),
  b('薬局', 'ヤッキョク', 'pharmacy', 'suffix', '3', '7', 'medical', ['soft', 'hira', 'family'], 'some', 2, [''], ['管理薬剤師', '店長', ''], ['駅前店', '2号店'], SMALL),
  b('介護センター', 'カイゴセンター', 'kaigo', 'suffix', '3', '7', 'care', ['soft', 'hira'], 'company', 2, CARE_DEPTS, CARE_TITLES, ['第二事業所', 'サテライト'], MID),
  b('デイサービス', 'デイサービス', 'dayservice', 'suffix', '3', '7', 'care', ['hira', 'soft'], 'some', 2, CARE_DEPTS, CARE_TITLES, ['第二事業所'], SMALL),
  b('訪問看護ステーション', 'ホウモンカンゴステーション', 'houmonkango', 'suffix', '3', '7', 'care', ['hira', 'soft'], 'some', 1, CARE_DEPTS, CARE_TITLES, ['サテライト'], SMALL),
  b('グループホーム', 'グループホーム', 'grouphome', 'prefix', '3', '7', 'care', ['hira'], 'none', 1, CARE_DEPTS, CARE_TITLES, ['第二ユニット'], SMALL),
  // 飲食店 (bunrui_1 = 4)
  b('食堂', 'ショクドウ', 'shokudo', 'suffix', '4', '8', 'food', ['family', 'word'], 'none', 2, [''], SHOP_TITLES, ['2号店', '駅前店'], ['2']),
  b('珈琲店', 'コーヒーテン', 'coffee', 'suffix', '4', '8', 'food', ['soft', 'kata'], 'none', 1, [''], SHOP_TITLES, ['駅前店'], ['2']),
  b('亭', 'テイ', 'tei', 'suffix', '4', '8', 'food', ['word'], 'some', 1, [''], ['店長', '女将', '料理長', ''], ['本店', '駅前店'], SMALL),
  b('ベーカリー', 'ベーカリー', 'bakery', 'suffix', '4', '8', 'food', ['kata', 'hira'], 'some', 1, [''], SHOP_TITLES, ['駅前店', '工房'], ['2']),
  b('居酒屋', 'イザカヤ', 'izakaya', 'prefix', '4', '8', 'food', ['hira', 'word'], 'none', 2, [''], SHOP_TITLES, ['駅前店', '2号店'], ['2']),
  b('レストラン', 'レストラン', 'restaurant', 'prefix', '4', '8', 'food', ['kata', 'hira'], 'some', 1, [''], ['店長', '料理長', 'オーナー', ''], ['駅前店'], SMALL),
  b('カフェ', 'カフェ', 'cafe', 'prefix', '4', '8', 'food', ['kata', 'hira'], 'none', 2, [''], SHOP_TITLES, ['2号店'], ['2']),
  // 教育機関 (bunrui_1 = 5)
  b('保育園', 'ホイクエン', 'hoikuen', 'suffix', '5', '9', 'school', ['hira', 'soft'], 'none', 4, SCHOOL_DEPTS, NURSERY_TITLES, ['分園'], SMALL),
  b('幼稚園', 'ヨウチエン', 'yochien', 'suffix', '5', '9', 'school', ['hira', 'soft'], 'none', 2, SCHOOL_DEPTS, NURSERY_TITLES, ['分園'], SMALL),
  b('学習塾', 'ガクシュウジュク', 'juku', 'suffix', '5', '9', 'school', ['word'], 'some', 1, [''], JUKU_TITLES, ['駅前校', '北校', '南校'], ['2']),
  b('進学教室', 'シンガクキョウシツ', 'shingaku', 'suffix', '5', '9', 'school', ['word'], 'some', 1, [''], JUKU_TITLES, ['駅前校', '北校'], ['2']),
  b('ゼミナール', 'ゼミナール', 'seminar', 'suffix', '5', '9', 'school', ['soft', 'kata'], 'some', 1, [''], JUKU_TITLES, ['駅前校', '南校'], SMALL),
  b('英会話スクール', 'エイカイワスクール', 'english', 'suffix', '5', '9', 'school', ['kata', 'word'], 'some', 1, [''], JUKU_TITLES, ['駅前校'], ['2']),
];

/** Generic town-name words (used for building names such as 本町ビル). */
export const TOWN_NAMES: readonly Reading[] = [
  r('本町', 'ホンマチ'), r('栄', 'サカエ'), r('中央', 'チュウオウ'), r('駅前', 'エキマエ'), r('旭', 'アサヒ'),
  r('緑', 'ミドリ'), r('若葉', 'ワカバ'), r('桜', 'サクラ'), r('幸', 'サイワイ'), r('錦', 'ニシキ'),
  r('末広', 'スエヒロ'), r('東町', 'ヒガシマチ'), r('西町', 'ニシマチ'), r('南町', 'ミナミマチ'), r('北町', 'キタマチ'),
  r('新町', 'シンマチ'), r('大手町', 'オオテマチ'), r('城南', 'ジョウナン'), r('日の出', 'ヒノデ'), r('松原', 'マツバラ'),
];

/** Words for office building names (〇〇ビル). */
export const OFFICE_BUILDING_WORDS: readonly string[] = [
  '第一', 'サンシャイン', 'グランド', 'セントラル', 'ロイヤル', 'プラザ', 'ステーション', 'リバーサイド', 'パーク',
  '東洋', '大同', '日興', '朝日', '富士', '青葉', '平和', '昭和', '大和', '三井', '協和', 'KS', 'NK', 'MT',
];

/** Words for apartment names (〇〇マンション, コーポ〇〇 …). */
export const RESIDENCE_WORDS: readonly string[] = [
  'グリーン', 'サニー', 'エクセル', 'パレス', 'ヴィラ', 'ローズ', 'アーバン', 'ベル', 'フォレスト', 'シティ',
  'サンハイム', 'エスポワール', 'アビタシオン', 'ルミエール', 'カーサ', '桜', '松風', '白樺', '若葉', '緑ヶ丘',
];

/** Apartment name templates; `*` is replaced by a RESIDENCE_WORDS entry. */
export const RESIDENCE_TEMPLATES: readonly string[] = [
  '*マンション', '*ハイツ', 'メゾン*', 'コーポ*', '*レジデンス', 'パーク*', '*コート', 'ハイツ*',
];

/** Notes (memo) per kind of customer. */
export const MEMOS: Readonly<Record<Category | 'household', readonly string[]>> = {
  household: [
    '3階まで階段。午前中配達希望。',
    'エレベーターなし。ボトルは玄関前まで。',
    '不在時は玄関前に置き配可。空ボトルは門扉横。',
    'インターホン故障中のため、到着時に携帯へ連絡。',
    '犬を飼っているため門扉は必ず閉めること。',
    '平日は不在が多い。土曜午前の配達希望。',
    '駐車場奥の物置前に置き配。',
    '高齢のお客様。ボトルはサーバー横まで運ぶ。',
    'オートロック。部屋番号で呼び出し。',
    '小さなお子様あり。チャイルドロックの使い方説明済み。',
    '配達前日に電話連絡を希望。',
  ],
  office: [
    '受付で入館証を受け取ってから配達。',
    '搬入は裏の通用口から。台車使用可。',
    'ボトル保管場所：2階給湯室横。',
    '昼休み（12時〜13時）は不在。',
    'エレベーターなし。階段で搬入。',
    '年末年始は12/28〜1/5休業。',
    '請求書は本社経理部宛に郵送。',
    '駐車スペースなし。近隣のコインパーキング利用。',
    'サーバー2台（1階受付・2階事務所）。',
    '月末は繁忙のため15時以降の配達希望。',
  ],
  pro: [
    '来客対応中は受付の方に声かけ。',
    '土日祝休み。平日午前中の配達希望。',
    '確定申告時期（2月〜3月）は本数増の可能性あり。',
    'ボトル保管場所：応接室奥の収納。',
  ],
  medical: [
    '休診日（木曜・日曜）は配達不可。',
    '診療時間中は裏口から搬入。',
    '待合室と職員休憩室に各1台。',
    '昼休み（13時〜14時半）に配達希望。',
  ],
  care: [
    '利用者送迎時間（9時前後・16時前後）は駐車場を避ける。',
    '玄関で手指消毒のうえ入館。',
    'ボトルは事務室前まで。職員に声かけ。',
  ],
  school: [
    '園児の登園時間（8時〜9時半）は避ける。',
    '長期休暇中（8月・年末年始）は配達本数を減らす。',
    '正門ではなく通用門から搬入。',
    '職員室前にボトル保管。',
  ],
  food: [
    'ランチタイム（11時〜14時）は配達不可。',
    '定休日（月曜）は配達不可。',
    '仕込み時間（15時〜17時）に配達希望。',
    '厨房裏口から搬入。',
  ],
  shop: [
    '定休日（火曜）は配達不可。',
    '開店前（10時まで）に配達希望。',
    '施術中は裏口から搬入。',
  ],
};

/** 備考1 candidates: the installed server. */
export const SERVER_NOTES: readonly string[] = [
  'サーバー：床置き型（ホワイト）',
  'サーバー：床置き型（ブラック）',
  'サーバー：卓上型（ホワイト）',
  'サーバー：ボトル下置き型',
  'サーバー：床置き型 チャイルドロック付き',
  'サーバー：温水機能オフで使用',
];

/** 備考2 candidates: contract notes (`{name}` is replaced by a family name). */
export const CONTRACT_NOTES: readonly string[] = [
  '他社からの乗り換え',
  '初回ボトル2本無料適用',
  '紹介者：{name}様',
  '法人割引適用',
  '長期契約割引（3年）',
  'サーバーメンテナンス年1回',
  '展示会での申込',
];

/** 連絡方法 candidates. */
export const CONTACT_METHODS: Readonly<{ household: readonly string[]; business: readonly string[] }> = {
  household: ['電話', '携帯電話', 'メール', 'SMS', '携帯電話（夕方以降）'],
  business: ['電話（代表）', 'メール', 'FAX', '担当者携帯', '電話（平日9時〜17時）'],
};

const KANA_ROMA: Readonly<Record<string, string>> = {
  ア: 'a', イ: 'i', ウ: 'u', エ: 'e', オ: 'o',
  カ: 'ka', キ: 'ki', ク: 'ku', ケ: 'ke', コ: 'ko',
  サ: 'sa', シ: 'shi', ス: 'su', セ: 'se', ソ: 'so',
  タ: 'ta', チ: 'chi', ツ: 'tsu', テ: 'te', ト: 'to',
  ナ: 'na', ニ: 'ni', ヌ: 'nu', ネ: 'ne', ノ: 'no',
  ハ: 'ha', ヒ: 'hi', フ: 'fu', ヘ: 'he', ホ: 'ho',
  マ: 'ma', ミ: 'mi', ム: 'mu', メ: 'me', モ: 'mo',
  ヤ: 'ya', ユ: 'yu', ヨ: 'yo',
  ラ: 'ra', リ: 'ri', ル: 'ru', レ: 're', ロ: 'ro',
  ワ: 'wa', ヲ: 'o', ン: 'n',
  ガ: 'ga', ギ: 'gi', グ: 'gu', ゲ: 'ge', ゴ: 'go',
  ザ: 'za', ジ: 'ji', ズ: 'zu', ゼ: 'ze', ゾ: 'zo',
  ダ: 'da', ヂ: 'ji', ヅ: 'zu', デ: 'de', ド: 'do',
  バ: 'ba', ビ: 'bi', ブ: 'bu', ベ: 'be', ボ: 'bo',
  パ: 'pa', ピ: 'pi', プ: 'pu', ペ: 'pe', ポ: 'po',
  ヴ: 'vu', ァ: 'a', ィ: 'i', ゥ: 'u', ェ: 'e', ォ: 'o',
};

const YOON: Readonly<Record<string, string>> = { ャ: 'a', ュ: 'u', ョ: 'o' };

/**
 * Katakana → ASCII (Hepburn, long vowels shortened the way Japanese domains and e-mail addresses are
 * usually spelled): サトウ → sato, ショウジ → shoji, チュウオウ → chuo, イノウエ → inoue, オオタ → ota.
 */
export function katakanaToRomaji(kana: string): string {
  const chars = [...kana];
  let out = '';
  let geminate = false;
  let lastVowel = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const nextCh = chars[i + 1] ?? '';
    if (ch === 'ッ') {
      geminate = true;
      continue;
    }
    if (ch === 'ー' || ch === ' ' || ch === '\u3000' || ch === '・') continue;
    // long vowels: ou / uu → o / u (but keep ウ in イノウエ, ウア, ウイ), oo → o
    if (ch === 'ウ' && (lastVowel === 'o' || lastVowel === 'u') && !'エアイ'.includes(nextCh === '' ? '-' : nextCh)) continue;
    if (ch === 'オ' && lastVowel === 'o' && !'アイウエオ'.includes(nextCh === '' ? '-' : nextCh)) continue;
    let syl = KANA_ROMA[ch];
    if (syl === undefined) continue;
    const yoonVowel = YOON[nextCh];
    if (yoonVowel !== undefined) {
      // キャ kya, シャ sha, チャ cha, ジャ ja
      if (syl === 'shi') syl = `sh${yoonVowel}`;
      else if (syl === 'chi') syl = `ch${yoonVowel}`;
      else if (syl === 'ji') syl = `j${yoonVowel}`;
      else syl = `${syl.slice(0, -1)}y${yoonVowel}`;
      i++;
    } else if (nextCh === 'ェ' && (syl === 'shi' || syl === 'chi' || syl === 'ji')) {
      syl = `${syl.slice(0, -1)}e`;
      i++;
    }
    if (geminate) {
      out += syl.startsWith('ch') ? 't' : syl.charAt(0);
      geminate = false;
    }
    out += syl;
    lastVowel = syl.slice(-1);
  }
  return out;
}
