/**
 * Japanese text handling shared by client and server.
 */

const DASHES = /[‐‑‒–—―−ー－﹣ｰ]/g;

/**
 * Full-width ASCII letters, digits and symbols to half-width; the ideographic space to a space.
 * @example toHalfWidth('ＡＢＣ１２３＠') // 'ABC123@'
 */
export function toHalfWidth(value: string): string {
  return value
    .replace(/[\uFF01-\uFF5E]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ');
}

/**
 * Half-width conversion for numbers with hyphens (phone, postcode): every dash variant becomes '-'.
 * @example toHalfWidthNumber('０３ー１２３４ー５６７８') // '03-1234-5678'
 */
export function toHalfWidthNumber(value: string): string {
  return toHalfWidth(value).replace(DASHES, '-').replace(/\s+/g, '');
}

/** Hiragana (and its iteration marks) to katakana. @example toKatakana('てんねんすい') // 'テンネンスイ' */
export const toKatakana = (value: string): string =>
  value.replace(/[\u3041-\u3096\u309D\u309E]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60));

/** Half-width kana to full-width, voiced marks joined. @example toFullWidthKana('ｶﾞｽ') // 'ガス' */
export const toFullWidthKana = (value: string): string => value.replace(/[\uFF61-\uFF9F]+/g, (run) => run.normalize('NFKC'));

// Full-width katakana and punctuation → their half-width forms (JIS X 0201), learnt from NFKC of each half-width
// character; the kana with no half-width form of their own take the nearest one.
const HALF_KANA = new Map<string, string>([['ヮ', 'ﾜ'], ['ヵ', 'ｶ'], ['ヶ', 'ｹ'], ['ヰ', 'ｲ'], ['ヱ', 'ｴ'], ['゛', 'ﾞ'], ['゜', 'ﾟ']]);
for (let code = 0xff61; code <= 0xff9d; code++) HALF_KANA.set(String.fromCharCode(code).normalize('NFKC'), String.fromCharCode(code));
const VOICE_MARKS: Record<string, string> = { '\u3099': 'ﾞ', '\u309a': 'ﾟ' };

/**
 * Text as half-width katakana, what carriers' and banks' kana columns take: hiragana to katakana, full-width kana to
 * half-width (voiced kana as two characters), full-width ASCII and the ideographic space half-width. Other characters
 * (kanji) stay as they are: the caller decides what to do with them.
 * @example toHalfWidthKana('ヤマダ　タロウ') // 'ﾔﾏﾀﾞ ﾀﾛｳ'
 * @example toHalfWidthKana('ぱーてぃー') // 'ﾊﾟｰﾃｨｰ'
 */
export function toHalfWidthKana(value: string): string {
  return [...toHalfWidth(toKatakana(value))].map((ch) => {
    const half = HALF_KANA.get(ch);
    if (half) return half;
    const [base, mark] = [...ch.normalize('NFD')];
    const baseHalf = base === undefined ? undefined : HALF_KANA.get(base);
    return baseHalf && mark && VOICE_MARKS[mark] ? baseHalf + VOICE_MARKS[mark] : ch;
  }).join('');
}

const halfWidthAlnum = (value: string): string => value.replace(/[０-９Ａ-Ｚａ-ｚ]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0));

/**
 * What a one-line text field stores: full-width letters, digits and hyphens half-width, half-width kana
 * full-width; Japanese punctuation such as （） stays as typed.
 * @example toStoredText('丸の内１－２－３ ﾋﾞﾙ') // '丸の内1-2-3 ビル'
 */
export const toStoredText = (value: string): string => toFullWidthKana(halfWidthAlnum(value).replace(/－/g, '-'));

/**
 * What a カナ field stores: hiragana and half-width kana become full-width katakana, full-width letters
 * and digits half-width.
 * @example toStoredKana('やまだ ﾀﾛｳ') // 'ヤマダ タロウ'
 */
export const toStoredKana = (value: string): string => toKatakana(toFullWidthKana(halfWidthAlnum(value)));

/** Characters a search key drops: hyphens and dashes of every width (and the long-vowel mark), and spaces. */
const UNSEARCHED = /[-‐‑‒–—―−ー－﹣ｰ\s]/g;

/**
 * Search key of one text: NFKC (full-width ASCII → half-width, half-width kana → full-width), lower
 * case, hiragana → katakana, hyphens, dashes and spaces dropped. The stored `{prefix}search` keys each
 * field this way and a keyword each term (`searchTerms`), so 「0312345678」 finds 03-1234-5678,
 * 「山田太郎」 finds 山田 太郎 and 「てんねんすい」 finds テンネンスイ.
 * @example searchKey('ＡＢＣ　ｶﾌﾞｼｷ 03-1234-5678') // 'abcカブシキ0312345678'
 */
export function searchKey(value: string): string {
  return toKatakana(value.normalize('NFKC').toLowerCase()).replace(UNSEARCHED, '');
}

/**
 * The terms of a keyword, each a search key (terms are split at spaces, every one must match).
 * @example searchTerms('やまだ　03-1234') // ['ヤマダ', '031234']
 */
export function searchTerms(keyword: string): string[] {
  return [...new Set(keyword.normalize('NFKC').split(/\s+/).map(searchKey).filter(Boolean))];
}

/**
 * The stored search text of several texts (a record's keyword fields): each keyed alone and joined by a
 * space, so no term (which never holds a space) matches across two of them.
 * @example searchJoin(['山田 太郎', '03-1234-5678']) // '山田太郎 0312345678'
 */
export function searchJoin(texts: readonly string[]): string {
  return texts.map(searchKey).filter(Boolean).join(' ');
}

/** Characters SQL LIKE treats specially, escaped with '\'. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Control characters other than tab, newline and carriage return, and lone surrogates. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const UNACCEPTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether text holds a character we never accept: a control character other than tab and line
 * breaks (a NUL breaks SQL text on both databases), or half of a surrogate pair (not a character).
 * @example hasUnacceptedCharacter('a\u0000b') // true
 * @example hasUnacceptedCharacter('一行目\n二行目\t') // false
 */
export const hasUnacceptedCharacter = (value: string): boolean => UNACCEPTED.test(value);
