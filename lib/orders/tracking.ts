/**
 * Yamato (ヤマト運輸) tracking numbers (伝票番号), and Sagawa's (お問い合せ送り状No.) by the same rule: 12 digits whose
 * last digit is the first 11 digits, read as one number, modulo 7 (money-and-files.md; 444413758703 validates). Hyphens
 * and spaces people type are dropped first. Shared by the waybill imports (送り状取込, both carriers), the order's
 * 送り状番号 field (`FieldDef.trackingNo`: the form and the save) and the tests that write a B2 or e飛伝 issued-data file.
 */

/**
 * The check digit of the first 11 digits of a tracking number.
 * @example trackingCheckDigit('44441375870') // 3
 */
export function trackingCheckDigit(first11: string): number {
  if (!/^\d{11}$/.test(first11)) throw new RangeError(`11 桁の数字ではありません: ${first11}`);
  // 99,999,999,999 < 2^53: the number is exact.
  return Number(first11) % 7;
}

/** A tracking number as stored: digits only (hyphens, spaces and full-width digits as typed are forgiven). */
export const normalizeTrackingNo = (value: string): string =>
  value.normalize('NFKC').replace(/[\s\-‐‑‒–—―−ー]/g, '');

/**
 * Whether a tracking number (after `normalizeTrackingNo`) is 12 digits with a right check digit.
 * @example isValidTrackingNo('4444-1375-8703') // true
 * @example isValidTrackingNo('444413758704') // false
 */
export function isValidTrackingNo(value: string): boolean {
  const digits = normalizeTrackingNo(value);
  return /^\d{12}$/.test(digits) && trackingCheckDigit(digits.slice(0, 11)) === Number(digits[11]);
}

/**
 * What is wrong with a typed tracking number, named by its column or field label — the one wording of 送り状取込 and
 * the order form; undefined when it is right.
 * @example trackingNoProblem('伝票番号', '1234-5678') // '伝票番号「1234-5678」は12桁の数字ではありません。'
 */
export function trackingNoProblem(label: string, typed: string): string | undefined {
  if (!/^\d{12}$/.test(normalizeTrackingNo(typed))) return `${label}「${typed}」は12桁の数字ではありません。`;
  if (!isValidTrackingNo(typed)) return `${label}「${typed}」のチェックデジット（最後の桁）が正しくありません。番号を確かめてください。`;
  return undefined;
}
