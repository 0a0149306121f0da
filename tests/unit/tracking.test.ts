/**
 * Yamato tracking numbers (lib/orders/tracking.ts): the domain's example validates; for any 11 digits, exactly one last
 * digit — the 11 digits mod 7 — makes a valid number (fast-check), with or without hyphens and full-width digits; any
 * length but 12 digits is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTrackingNo, trackingDigits } from '@/lib/orders/tracking';

const eleven = fc.stringMatching(/^\d{11}$/);

describe('isValidTrackingNo', () => {
  it('accepts the documented example 4444-1375-8703 and refuses its neighbours', () => {
    expect(isValidTrackingNo('4444-1375-8703')).toBe(true);
    expect(isValidTrackingNo('444413758703')).toBe(true);
    expect(isValidTrackingNo('444413758704')).toBe(false);
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
    expect(trackingDigits('4444-1375-8703')).toBe('444413758703');
  });
});
