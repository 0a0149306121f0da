/**
 * The Yamato B2 Cloud import CSV (送り状発行データ, 97 columns; money-and-files.md corrects hod-back-office.md §4): the
 * header row, and one row per order built by `b2Row` — a pure function of the order, its lines, the sender (自社情報)
 * and the shipping date, so it is unit-tested without a database. Every text cell is one line of JIS X 0208 text
 * (`jisX0208Text`: the replaced characters are listed per field), measured in B2's units (a full-width character counts
 * 2, ASCII and half-width kana 1) and split to B2's lengths; what cannot be made to fit, or is missing, is a problem
 * naming the field.
 */
import { toHalfWidthKana, toHalfWidthNumber } from '../../lib/text';
import { jisX0208Text, neutralise, type JisReplacement } from '../resources';

/** The 97 column names, in order (B2送り状発行データレイアウト入出力用, new_exchange1.pdf). */
export const B2_COLUMNS: readonly string[] = [
  'お客様管理番号', '送り状種類', 'クール区分', '伝票番号', '出荷予定日', 'お届け予定（指定）日', '配達時間帯', 'お届け先コード',
  'お届け先電話番号', 'お届け先電話番号枝番', 'お届け先郵便番号', 'お届け先住所', 'お届け先住所（アパートマンション名）',
  'お届け先会社・部門名1', 'お届け先会社・部門名2', 'お届け先名', 'お届け先名略称カナ', '敬称', 'ご依頼主コード', 'ご依頼主電話番号',
  'ご依頼主電話番号枝番', 'ご依頼主郵便番号', 'ご依頼主住所', 'ご依頼主住所（アパートマンション名）', 'ご依頼主名', 'ご依頼主略称カナ',
  '品名コード1', '品名1', '品名コード2', '品名2', '荷扱い1', '荷扱い2', '記事', 'コレクト代金引換額（税込）', 'コレクト内消費税額等',
  '営業所止置き', '営業所コード', '発行枚数', '個数口枠の印字', 'ご請求先顧客コード', 'ご請求先分類コード', '運賃管理番号',
  'クロネコwebコレクトデータ登録', 'クロネコwebコレクト加盟店番号', 'クロネコwebコレクト申込受付番号1', 'クロネコwebコレクト申込受付番号2',
  'クロネコwebコレクト申込受付番号3', 'お届け予定eメール利用区分', 'お届け予定eメールe-mailアドレス', '入力機種', 'お届け予定eメールメッセージ',
  'お届け完了eメール利用区分', 'お届け完了eメールe-mailアドレス', 'お届け完了eメールメッセージ', 'クロネコ収納代行利用区分', '予備',
  '収納代行請求金額（税込）', '収納代行内消費税額等', '収納代行請求先郵便番号', '収納代行請求先住所', '収納代行請求先住所（アパートマンション名）',
  '収納代行請求先会社・部門名1', '収納代行請求先会社・部門名2', '収納代行請求先名（漢字）', '収納代行請求先名（カナ）', '収納代行問合せ先名（漢字）',
  '収納代行問合せ先郵便番号', '収納代行問合せ先住所', '収納代行問合せ先住所（アパートマンション名）', '収納代行問合せ先電話番号', '収納代行管理番号',
  '収納代行品名', '収納代行備考', '複数口くくりキー', '検索キータイトル1', '検索キー1', '検索キータイトル2', '検索キー2', '検索キータイトル3',
  '検索キー3', '検索キータイトル4', '検索キー4', '検索キータイトル5', '検索キー5', '予備', '予備', '投函予定メール利用区分',
  '投函予定メールe-mailアドレス', '投函予定メールメッセージ', '投函完了メール（お届け先宛）利用区分', '投函完了メール（お届け先宛）e-mailアドレス',
  '投函完了メール（お届け先宛）メールメッセージ', '投函完了メール（ご依頼主宛）利用区分', '投函完了メール（ご依頼主宛）e-mailアドレス',
  '投函完了メール（ご依頼主宛）メールメッセージ', '連携管理番号', '通知メールアドレス',
];

/** 1-based column numbers of the cells we fill. */
export const B2_COLUMN = {
  number: 1, type: 2, cool: 3, shipDate: 5, deliveryDate: 6, timeSlot: 7, tel: 9, zipcode: 11, address: 12, building: 13,
  company1: 14, company2: 15, name: 16, kana: 17, senderTel: 20, senderZip: 22, senderAddress: 23, senderBuilding: 24, senderName: 25,
  item1: 28, item2: 30, collect: 34, collectTax: 35, copies: 38, billingCode: 40, billingClass: 41, freightNo: 42,
} as const;

/** 送り状種類 we write: 発払い, and コレクト (代金引換) for an order paid on delivery. */
export const B2_TYPES = { prepaid: { code: '0', text: '発払い' }, collect: { code: '2', text: 'コレクト' } } as const;

/** 配達時間帯 codes of 発払い / コレクト (our 配達時間帯 master's codes are the same start-end hours). */
export const B2_TIME_SLOTS: ReadonlyMap<string, string> = new Map([
  ['0812', '午前中'], ['1416', '14〜16時'], ['1618', '16〜18時'], ['1820', '18〜20時'], ['1921', '19〜21時'],
]);

/** The most a コレクト may collect (税込). */
export const B2_COLLECT_MAX = 300_000;

/**
 * Width in B2's units: ASCII and half-width kana 1, every other character 2 (B2 states lengths as 全角/半角, e.g. 住所 32/64).
 * @example b2Width('丸の内1-2') // 9
 */
export function b2Width(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    width += code < 0x80 || (code >= 0xff61 && code <= 0xff9f) ? 1 : 2;
  }
  return width;
}

/**
 * Text cut at a width: the longest head within `width`, and the rest. A space in the head's second half is a better
 * place to cut (the rest starts after it), so a house number is not broken when a space allows.
 * @example cutWidth('東京都千代田区丸の内1-2-3 サンプルビル', 32) // ['東京都千代田区丸の内1-2-3', 'サンプルビル']
 */
export function cutWidth(text: string, width: number): [string, string] {
  const chars = [...text];
  let used = 0;
  let end = 0;
  while (end < chars.length && used + b2Width(chars[end]) <= width) used += b2Width(chars[end++]);
  if (end === chars.length) return [text, ''];
  const space = chars.slice(0, end).findLastIndex((c) => c === ' ');
  if (space > 0 && space >= end / 2) return [chars.slice(0, space).join('').trimEnd(), chars.slice(space + 1).join('').trim()];
  return [chars.slice(0, end).join(''), chars.slice(end).join('').trim()];
}

/**
 * An address split to B2's two columns: the address (64 units) and the building (32 units). What does not fit the
 * address goes before the building; undefined when the two together cannot hold it.
 * @example splitAddress('東京都千代田区丸の内1-2-3', 'サンプルビル5F') // { address: '東京都千代田区丸の内1-2-3', building: 'サンプルビル5F' }
 */
export function splitAddress(address: string, building: string, widths: readonly [number, number] = [64, 32]): { address: string; building: string } | undefined {
  const [head, rest] = cutWidth(address, widths[0]);
  const second = [rest, building].filter(Boolean).join(' ');
  if (b2Width(second) > widths[1]) return undefined;
  return { address: head, building: second };
}

/** One field's problem on a B2 row: the order's field (its label) and what is wrong, in Japanese. */
export interface B2Problem {
  field: string;
  message: string;
}

/** A character replaced on a B2 row: the field (its label), the character and what was written instead. */
export interface B2Replacement extends JisReplacement {
  field: string;
}

/** What a B2 row is made of: the order as stored (its shipping fields, the customer's names) and its item lines. */
export interface B2Order {
  number: string;
  deliveryDate: string;
  timeSlot: string;
  collect: boolean;
  total: number;
  tax: number;
  ship: { coName: string; name: string; zipcode: string; pref: string; city: string; address: string; building: string; tel: string };
  /** The customer's names and their readings (the reading goes to お届け先名略称カナ when the name is the customer's). */
  client: { name: string; nameKana: string; coName: string; coNameKana: string };
  /** The item lines (not the delivery fee's), in order. */
  lines: readonly { name: string; quantity: number }[];
}

/** ご依頼主 and the contract codes (自社情報). */
export interface B2Sender {
  name: string;
  zipcode: string;
  address: string;
  tel: string;
  billingCode: string;
  billingClass: string;
  freightNo: string;
}

/** YYYY-MM-DD as B2 writes dates. */
const b2Date = (day: string): string => day.replace(/-/g, '/');

/** A postcode as NNN-NNNN, or undefined when it is not 7 digits. */
export function b2Zipcode(value: string): string | undefined {
  const digits = toHalfWidthNumber(value).replace(/-/g, '');
  return /^\d{7}$/.test(digits) ? `${digits.slice(0, 3)}-${digits.slice(3)}` : undefined;
}

/** A phone number as digits and hyphens (≤ 15), or undefined. */
export function b2Tel(value: string): string | undefined {
  const tel = toHalfWidthNumber(value);
  return /^[0-9][0-9-]{4,14}$/.test(tel) ? tel : undefined;
}

/**
 * The half-width reading B2's kana column takes (50 units): characters with no half-width form are dropped and listed.
 * @example b2Kana('ヤマダ タロウ').text // 'ﾔﾏﾀﾞ ﾀﾛｳ'
 */
export function b2Kana(value: string): { text: string; dropped: string[] } {
  const dropped: string[] = [];
  let text = '';
  for (const char of toHalfWidthKana(value)) {
    if (b2Width(char) === 1 && char >= ' ') text += char;
    else dropped.push(char);
  }
  return { text: cutWidth(text.trim(), 50)[0], dropped };
}

/** An item line as 品名 (25 full-width): the name, ×quantity when not 1. */
const itemText = (line: { name: string; quantity: number }): string => (line.quantity === 1 ? line.name : `${line.name} ×${line.quantity}`);

/**
 * The B2 row of one order: 97 cells, the characters replaced, and the problems (missing or too long fields) that refuse it.
 * @example b2Row(order, sender, '2026-05-01').cells[0] // the order number
 */
export function b2Row(order: B2Order, sender: B2Sender, shipDate: string): { cells: string[]; replaced: B2Replacement[]; problems: B2Problem[] } {
  const cells: string[] = B2_COLUMNS.map(() => '');
  const replaced: B2Replacement[] = [];
  const problems: B2Problem[] = [];
  const put = (column: number, value: string) => {
    cells[column - 1] = value;
  };
  /** One line of JIS X 0208 text, its replacements listed under the field's label. */
  const clean = (field: string, value: string): string => {
    const { held, replaced: chars } = jisX0208Text(value.replace(/[\r\n\t]+/g, ' ').replace(/\u3000/g, ' ').trim());
    for (const r of chars) replaced.push({ field, ...r });
    return held;
  };
  const problem = (field: string, message: string) => problems.push({ field, message });

  if (!/^[\x21-\x7e]{1,50}$/.test(order.number)) problem('受注番号', 'B2 のお客様管理番号は半角英数字 50 文字以内です（受注番号を確かめてください）。');
  put(B2_COLUMN.number, order.number);
  const collect = order.collect && order.total > 0;
  put(B2_COLUMN.type, collect ? B2_TYPES.collect.code : B2_TYPES.prepaid.code);
  put(B2_COLUMN.cool, '0');
  put(B2_COLUMN.shipDate, b2Date(shipDate));
  if (order.deliveryDate && order.deliveryDate < shipDate) problem('配送日', `配送日（${order.deliveryDate}）が出荷予定日（${shipDate}）より前です。`);
  put(B2_COLUMN.deliveryDate, order.deliveryDate ? b2Date(order.deliveryDate) : '');
  if (order.timeSlot && !B2_TIME_SLOTS.has(order.timeSlot)) {
    problem('配達時間帯', `配達時間帯（コード ${order.timeSlot}）は B2 の時間帯（${[...B2_TIME_SLOTS.values()].join('・')}）にありません。`);
  }
  put(B2_COLUMN.timeSlot, B2_TIME_SLOTS.has(order.timeSlot) ? order.timeSlot : '');

  const tel = order.ship.tel ? b2Tel(order.ship.tel) : undefined;
  if (!order.ship.tel) problem('配送先電話番号', '配送先電話番号がありません。');
  else if (!tel) problem('配送先電話番号', '配送先電話番号は数字とハイフンで 15 文字以内にしてください。');
  put(B2_COLUMN.tel, tel ?? '');
  const zipcode = order.ship.zipcode ? b2Zipcode(order.ship.zipcode) : undefined;
  if (!order.ship.zipcode) problem('配送先郵便番号', '配送先郵便番号がありません。');
  else if (!zipcode) problem('配送先郵便番号', '配送先郵便番号は 7 桁の数字にしてください。');
  put(B2_COLUMN.zipcode, zipcode ?? '');

  const address = clean('配送先住所', `${order.ship.pref}${order.ship.city}${order.ship.address}`);
  const building = clean('配送先建物名', order.ship.building);
  if (!order.ship.pref || !(order.ship.city || order.ship.address)) problem('配送先住所', '配送先の都道府県と市区町村・番地を入力してください。');
  else {
    const split = splitAddress(address, building);
    if (!split) problem('配送先住所', '配送先の住所と建物名が B2 の長さ（住所 全角 32 字・建物名 全角 16 字）に収まりません。');
    else {
      put(B2_COLUMN.address, neutralise(split.address));
      put(B2_COLUMN.building, neutralise(split.building));
    }
  }

  const coName = clean('配送先会社名', order.ship.coName);
  const personName = clean('配送先氏名', order.ship.name);
  let name = personName;
  let company = coName;
  if (!personName && b2Width(coName) <= 32) [name, company] = [coName, ''];
  else if (!personName && coName) name = 'ご担当者';
  if (!name) problem('配送先氏名', '配送先の氏名か会社名を入力してください。');
  else if (b2Width(name) > 32) problem('配送先氏名', '配送先氏名が B2 の長さ（全角 16 字）を超えています。');
  const [company1, company2Full] = cutWidth(company, 50);
  const [company2, over] = cutWidth(company2Full, 50);
  if (over) problem('配送先会社名', '配送先会社名が B2 の長さ（全角 25 字 × 2 行）を超えています。');
  put(B2_COLUMN.company1, neutralise(company1));
  put(B2_COLUMN.company2, neutralise(company2));
  put(B2_COLUMN.name, neutralise(name));
  const reading = order.ship.name
    ? (order.ship.name === order.client.name ? order.client.nameKana : '')
    : (order.ship.coName === order.client.coName ? order.client.coNameKana : '');
  const kana = b2Kana(reading);
  for (const char of kana.dropped) replaced.push({ field: '配送先氏名カナ', char, to: '' });
  put(B2_COLUMN.kana, neutralise(kana.text));

  put(B2_COLUMN.senderTel, b2Tel(sender.tel) ?? '');
  put(B2_COLUMN.senderZip, b2Zipcode(sender.zipcode) ?? '');
  const senderAddress = splitAddress(clean('自社の住所', sender.address), '');
  put(B2_COLUMN.senderAddress, neutralise(senderAddress?.address ?? ''));
  put(B2_COLUMN.senderBuilding, neutralise(senderAddress?.building ?? ''));
  put(B2_COLUMN.senderName, neutralise(cutWidth(clean('自社の会社名', sender.name), 32)[0]));

  if (order.lines.length === 0) problem('明細', '品名になる明細（商品）がありません。');
  const [first, second] = order.lines;
  if (first) put(B2_COLUMN.item1, neutralise(cutWidth(clean('品名', itemText(first)), 50)[0]));
  if (second) {
    const more = order.lines.length > 2 ? ` 他${order.lines.length - 2}点` : '';
    const text = clean('品名', itemText(second));
    put(B2_COLUMN.item2, neutralise(cutWidth(text, 50 - b2Width(more))[0] + more));
  }

  if (collect) {
    if (order.total > B2_COLLECT_MAX) problem('合計金額', `代金引換（コレクト）で集金できるのは ${B2_COLLECT_MAX.toLocaleString('ja-JP')} 円までです。`);
    put(B2_COLUMN.collect, String(order.total));
    put(B2_COLUMN.collectTax, String(order.tax));
  }
  put(B2_COLUMN.copies, '1');
  put(B2_COLUMN.billingCode, sender.billingCode);
  put(B2_COLUMN.billingClass, sender.billingClass);
  put(B2_COLUMN.freightNo, sender.freightNo);
  return { cells, replaced, problems };
}

/**
 * What 自社情報 lacks for a B2 file (ご依頼主 and the contract codes), as field label → message; empty when complete.
 * @example senderProblems({ ...sender, billingCode: '' }) // [{ field: 'B2 ご請求先顧客コード', message: … }]
 */
export function senderProblems(sender: B2Sender): B2Problem[] {
  const problems: B2Problem[] = [];
  if (!sender.name.trim()) problems.push({ field: '会社名', message: '自社情報の会社名（ご依頼主名）がありません。' });
  if (!b2Tel(sender.tel)) problems.push({ field: '電話番号', message: '自社情報の電話番号（ご依頼主電話番号）がないか、数字とハイフン 15 文字以内ではありません。' });
  if (!b2Zipcode(sender.zipcode)) problems.push({ field: '郵便番号', message: '自社情報の郵便番号（ご依頼主郵便番号）がないか、7 桁ではありません。' });
  if (!sender.address.trim()) problems.push({ field: '住所', message: '自社情報の住所（ご依頼主住所）がありません。' });
  else if (!splitAddress(jisX0208Text(sender.address).held, '')) problems.push({ field: '住所', message: '自社情報の住所が B2 の長さ（全角 48 字）に収まりません。' });
  if (!/^\d{12}$/.test(sender.billingCode)) problems.push({ field: 'B2 ご請求先顧客コード', message: '自社情報の「B2 ご請求先顧客コード」（12 桁の数字）がありません。' });
  if (!/^\d{2}$/.test(sender.freightNo)) problems.push({ field: 'B2 運賃管理番号', message: '自社情報の「B2 運賃管理番号」（2 桁の数字）がありません。' });
  return problems;
}
