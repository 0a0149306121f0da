/**
 * Yamato tracking numbers (lib/orders/tracking.ts) as properties (fast-check): for any 11 digits exactly one last digit —
 * the 11 digits mod 7 — makes a valid number, with or without hyphens and full-width digits; any length but 12 digits is
 * refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTrackingNo, normalizeTrackingNo, trackingNoProblem } from '@/lib/orders/tracking';
import { orderResource } from '@/lib/resources/order';
import { checkValues } from '@/lib/resources/schema';

const eleven = fc.stringMatching(/^\d{11}$/);

describe('isValidTrackingNo', () => {
  it('reads full-width digits and dashes as typed in Japanese (the examples: tests/unit/b2-layout.test.ts)', () => {
    expect(isValidTrackingNo('４４４４－１３７５－８７０３')).toBe(true);
  });

  it('for any 11 digits exactly one check digit is valid: the 11 digits mod 7', () => {
    fc.assert(fc.property(eleven, (head) => {
      const valid = Array.from({ length: 10 }, (_, d) => d).filter((d) => isValidTrackingNo(`${head}${d}`));
      expect(valid).toEqual([Number(head) % 7]);
    }));
  });

  it('hyphens anywhere are ignored; any other length is refused', () => {
    fc.assert(fc.property(eleven, fc.integer({ min: 1, max: 11 }), (head, at) => {
      const number = `${head}${Number(head) % 7}`;
      expect(isValidTrackingNo(`${number.slice(0, at)}-${number.slice(at)}`)).toBe(true);
      expect(isValidTrackingNo(number.slice(0, at))).toBe(false);
      expect(isValidTrackingNo(`${number}0`)).toBe(false);
    }));
    expect(normalizeTrackingNo('4444-1375-8703')).toBe('444413758703');
  });
});

describe('trackingNoProblem and the order form', () => {
  it('names the length, then the check digit, in 送り状取込’s words; the order’s 送り状番号 field is checked by it', () => {
    expect(trackingNoProblem('伝票番号', '1234-5678')).toBe('伝票番号「1234-5678」は12桁の数字ではありません。');
    expect(trackingNoProblem('伝票番号', '4444-1375-8704')).toBe('伝票番号「4444-1375-8704」のチェックデジット（最後の桁）が正しくありません。番号を確かめてください。');
    expect(trackingNoProblem('伝票番号', '４４４４－１３７５－８７０３')).toBeUndefined();
    const refused = checkValues(orderResource, { tracking_no: '4444-1375-8704' });
    expect(refused.ok ? {} : refused.fields).toEqual({ tracking_no: '送り状番号「4444-1375-8704」のチェックデジット（最後の桁）が正しくありません。番号を確かめてください。' });
    expect(checkValues(orderResource, { tracking_no: '' }).ok).toBe(true);
  });
});
