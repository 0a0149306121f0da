/**
 * Yamato's tracking numbers (伝票番号): 12 digits, written with or without hyphens, whose last digit is the number of
 * the first 11 digits mod 7 (the check digit). Read by the import of B2 Cloud's issued data (送り状取込).
 */

/** The number as stored: hyphens and spaces removed (full-width digits made half-width). */
export const trackingDigits = (value: string): string => value.normalize('NFKC').replace(/[-\s‐－ー―]/g, '');

/**
 * Whether a Yamato tracking number is 12 digits with a right check digit (hyphens allowed).
 * @example isValidTrackingNo('4444-1375-8703') // true
 * @example isValidTrackingNo('444413758704') // false
 */
export function isValidTrackingNo(value: string): boolean {
  const digits = trackingDigits(value);
  if (!/^\d{12}$/.test(digits)) return false;
  return Number(digits.slice(0, 11)) % 7 === Number(digits[11]);
}
