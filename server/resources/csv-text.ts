/**
 * Turning rows into CSV bytes as Japanese Excel reads them: cells neutralised against formula injection
 * (OWASP), quoted as RFC 4180 says with CR LF after each record, and encoded as cp932 (characters it cannot
 * hold written as 〓 and counted) or as UTF-8 after a BOM.
 */
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import { CSV_REPLACEMENT, type CsvEncoding } from '../../lib/protocol';

/**
 * A text cell that a spreadsheet would run as a formula gets a leading `'` (OWASP CSV injection:
 * `=`, `+`, `-`, `@`, tab, CR). Numbers the export writes itself are never passed here.
 * @example neutralise('=SUM(A1)') // "'=SUM(A1)"
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Records as CSV text (RFC 4180) by csv-stringify: CR LF after each record; a cell is quoted when it holds a
 * comma, a quote or a line break (a lone LF too, which csv-stringify leaves bare when records end with CR LF).
 * @example csvRecords([['a', 'b\nc']]) // 'a,"b\nc"\r\n'
 */
export function csvRecords(records: readonly (readonly string[])[]): string {
  return stringify(records as string[][], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

// Characters Japanese input produces whose cp932 form is another code point of the same glyph (JIS X 0208
// as Windows maps it): written as that character, not replaced.
const CP932_SAME = new Map<string, string>([
  ['\u301c', '\uff5e'], // 〜 → ～
  ['\u2016', '\u2225'], // ‖ → ∥
  ['\u2212', '\uff0d'], // − → －
  ['\u2014', '\u2015'], // — → ―
  ['\u00a2', '\uffe0'], // ¢ → ￠
  ['\u00a3', '\uffe1'], // £ → ￡
  ['\u00ac', '\uffe2'], // ¬ → ￢
  ['\u00a5', '\uffe5'], // ¥ → ￥
  ['\u203e', '\uffe3'], // ‾ → ￣
]);

// Per character outside ASCII: what cp932 writes for it (itself, its same-glyph form, or the replacement).
const cp932Form = new Map<string, string>();

function formOf(char: string): string {
  let form = cp932Form.get(char);
  if (form === undefined) {
    const same = CP932_SAME.get(char) ?? char;
    form = iconv.decode(iconv.encode(same, 'cp932'), 'cp932') === same ? same : CSV_REPLACEMENT;
    cp932Form.set(char, form);
  }
  return form;
}

/**
 * CSV text as bytes of one encoding. cp932: each character it cannot hold becomes 〓 and is counted in
 * `replaced`; utf8: `bom` puts the byte-order mark first (Excel then reads UTF-8).
 * @example encodeCsv('𠮷野家\r\n', 'cp932').replaced // 1
 */
export function encodeCsv(text: string, encoding: CsvEncoding, bom = false): { bytes: Buffer; replaced: number } {
  if (encoding === 'utf8') return { bytes: Buffer.from(bom ? `\ufeff${text}` : text, 'utf8'), replaced: 0 };
  let replaced = 0;
  const held = text.replace(/[^\p{ASCII}]/gu, (char) => {
    const form = formOf(char);
    if (form === CSV_REPLACEMENT && char !== CSV_REPLACEMENT) replaced += 1;
    return form;
  });
  return { bytes: iconv.encode(held, 'cp932'), replaced };
}
