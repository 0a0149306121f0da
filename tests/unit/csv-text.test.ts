/**
 * The CSV export's bytes (server/resources/csv-text.ts): cp932 as Japanese Excel reads it, each character it cannot
 * hold written as 〓 and counted, the same-glyph twins written as their cp932 form.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { encodeCsv } from '@/server/resources/csv-text';

describe('encodeCsv (cp932)', () => {
  it('writes text cp932 holds exactly as iconv-lite encodes it, replacing nothing', () => {
    const text = 'ID,顧客,金額\r\n1,株式会社ＡＢＣ　ｶﾌﾞｼｷ ①Ⅱ髙﨑,"1,200"\r\n';
    const { bytes, replaced } = encodeCsv(text, 'cp932');
    expect(replaced).toBe(0);
    expect(bytes.equals(iconv.encode(text, 'cp932'))).toBe(true);
    expect(iconv.decode(bytes, 'cp932')).toBe(text);
  });

  it('writes the same-glyph twins as their cp932 form and counts each character it cannot hold once', () => {
    // 〜 − — are twins (not counted); 𠮷 (a surrogate pair) is one character, a lone surrogate another.
    const { bytes, replaced } = encodeCsv('A〜B−C—D𠮷E\ud800F😀\r\n', 'cp932');
    expect(iconv.decode(bytes, 'cp932')).toBe('A～B－C―D〓E〓F〓\r\n');
    expect(replaced).toBe(3);
  });

  it('counts a 〓 already in the text as no replacement', () => {
    const { bytes, replaced } = encodeCsv('〓', 'cp932');
    expect(iconv.decode(bytes, 'cp932')).toBe('〓');
    expect(replaced).toBe(0);
  });

  it('writes UTF-8 after a BOM when asked, unchanged', () => {
    expect(encodeCsv('𠮷\r\n', 'utf8', true).bytes.equals(Buffer.from('\ufeff𠮷\r\n', 'utf8'))).toBe(true);
  });
});
