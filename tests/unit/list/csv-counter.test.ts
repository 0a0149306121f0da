import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { csvCounter } from '@/lib/client/list/csv-export';

const csv = 'ID,備考\r\n1,"1行目\n2行目, ""引用"""\r\n2,〓ソ表\r\n';

describe('csvCounter', () => {
  it('counts records, not line breaks inside quotes, whatever the chunks', () => {
    for (const enc of ['cp932', 'utf8'] as const) {
      const bytes = enc === 'cp932' ? iconv.encode(csv, 'cp932') : Buffer.from(`\ufeff${csv}`);
      for (const size of [1, 3, bytes.length]) {
        const counter = csvCounter(enc);
        for (let i = 0; i < bytes.length; i += size) counter.push(bytes.subarray(i, i + size));
        expect(counter.records).toBe(3);
        // 〓 is the mark in cp932; ソ (0x83 0x5C) and 表 (0x95 0x5C) hold a backslash byte that is not a quote or line feed.
        expect(counter.replaced).toBe(enc === 'cp932' ? 1 : 0);
      }
    }
  });
});
