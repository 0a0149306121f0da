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

// What cp932 does with each UTF-16 code unit outside ASCII, learnt from iconv-lite the first time it is met:
// KEPT (written as itself), TWIN (written as its same-glyph form) or REPLACED (not held: 〓). Surrogates are
// never held (every character beyond the BMP is replaced). A page of text is scanned code unit by code unit;
// only text holding a TWIN or REPLACED character is rebuilt before iconv-lite encodes it.
const UNKNOWN = 0;
const KEPT = 1;
const TWIN = 2;
const REPLACED = 3;
const cp932Kind = new Uint8Array(0x10000);

function kindOf(code: number): number {
  let kind = cp932Kind[code];
  if (kind === UNKNOWN) {
    const char = String.fromCharCode(code);
    const held = (c: string) => iconv.decode(iconv.encode(c, 'cp932'), 'cp932') === c;
    kind = code >= 0xd800 && code <= 0xdfff ? REPLACED : CP932_SAME.has(char) ? TWIN : held(char) ? KEPT : REPLACED;
    cp932Kind[code] = kind;
  }
  return kind;
}

/** Text cp932 holds: twins written as their cp932 form, other characters it cannot hold as 〓 (a pair of surrogates one 〓). */
function cp932Text(text: string): { held: string; replaced: number } {
  let replaced = 0;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    const kind = kindOf(code);
    if (kind === KEPT) continue;
    out += text.slice(from, i);
    if (kind === TWIN) out += CP932_SAME.get(text[i])!;
    else {
      out += CSV_REPLACEMENT;
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
      replaced++;
    }
    from = i + 1;
  }
  return { held: from === 0 ? text : out + text.slice(from), replaced };
}

// Characters the B2 writers substitute before encoding (labocho/yamato_b2_cloud writer.rb, money-and-files.md): a
// variant or a character outside JIS X 0208 with a readable stand-in.
const JIS_STAND_INS = new Map<string, string>([['𠮷', '吉'], ['𠷡', '百合'], ['繫', '繋'], ['䑓', '臺'], ['\u00a0', ' ']]);

/** Whether a character cp932 holds is in JIS X 0208 (or ASCII / JIS X 0201 kana): not an NEC special (0x87) nor an IBM extension (0xED–0xEE, 0xFA–0xFC). */
function inJisX0208(char: string): boolean {
  const bytes = iconv.encode(char, 'cp932');
  if (bytes.length === 1) return true;
  const lead = bytes[0];
  return (lead >= 0x81 && lead <= 0x84) || (lead >= 0x88 && lead <= 0x9f) || (lead >= 0xe0 && lead <= 0xea);
}

/** One character a JIS X 0208 file could not hold, and what was written instead (〓 or a stand-in). */
export interface JisReplacement {
  char: string;
  to: string;
}

/**
 * Text a JIS X 0208 file holds (Yamato B2 Cloud takes level 1/2 kanji only): same-glyph twins written in their cp932
 * form (〜 → ～, silently), the known variants by their stand-ins (𠮷 → 吉, NBSP → space), every other character
 * outside JIS X 0208 — NEC specials such as ①, IBM extensions such as 髙, anything cp932 cannot hold — as 〓; the
 * replacements listed (a pair of surrogates is one character).
 * @example jisX0208Text('髙橋①𠮷').replaced // [{ char: '髙', to: '〓' }, { char: '①', to: '〓' }, { char: '𠮷', to: '吉' }]
 */
export function jisX0208Text(text: string): { held: string; replaced: JisReplacement[] } {
  const replaced: JisReplacement[] = [];
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x80) {
      out += char;
      continue;
    }
    const standIn = JIS_STAND_INS.get(char);
    const kind = char.length > 1 ? REPLACED : kindOf(code);
    const twin = kind === TWIN ? CP932_SAME.get(char)! : char;
    if (standIn !== undefined || kind === REPLACED || !inJisX0208(twin)) {
      const to = standIn ?? CSV_REPLACEMENT;
      replaced.push({ char, to });
      out += to;
    } else out += twin;
  }
  return { held: out, replaced };
}

/**
 * CSV text as bytes of one encoding. cp932: each character it cannot hold becomes 〓 and is counted in
 * `replaced`; utf8: `bom` puts the byte-order mark first (Excel then reads UTF-8).
 * @example encodeCsv('𠮷野家\r\n', 'cp932').replaced // 1
 */
export function encodeCsv(text: string, encoding: CsvEncoding, bom = false): { bytes: Buffer; replaced: number } {
  if (encoding === 'utf8') return { bytes: Buffer.from(bom ? `\ufeff${text}` : text, 'utf8'), replaced: 0 };
  const { held, replaced } = cp932Text(text);
  return { bytes: iconv.encode(held, 'cp932'), replaced };
}
