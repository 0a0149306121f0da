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

/**
 * Search key: NFKC (full-width ASCII → half-width, half-width kana → full-width), lower case,
 * dash variants unified, whitespace collapsed. Used on both the stored text and the keyword.
 * @example searchKey('ＡＢＣ　ｶﾌﾞｼｷ') // 'abc カブシキ'
 */
export function searchKey(value: string): string {
  return value.normalize('NFKC').toLowerCase().replace(DASHES, '-').replace(/\s+/g, ' ').trim();
}

/** Characters SQL LIKE treats specially, escaped with '\'. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Control characters other than tab, newline and carriage return, and lone surrogates. */
const UNACCEPTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether text holds a character we never accept: a control character other than tab and line
 * breaks (a NUL breaks SQL text on both databases), or half of a surrogate pair (not a character).
 * @example hasUnacceptedCharacter('a\u0000b') // true
 * @example hasUnacceptedCharacter('一行目\n二行目\t') // false
 */
export const hasUnacceptedCharacter = (value: string): boolean => UNACCEPTED.test(value);
