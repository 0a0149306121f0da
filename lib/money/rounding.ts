/**
 * Rounding of money (domain §2), exact: every computation divides integers (yen or sen) and rounds the
 * quotient by its remainder, so no binary fraction (1.1 × 3 = 3.3000000000000003) ever decides a yen.
 *
 * Rounding is symmetric around zero: the mode applies to the absolute value and the sign is kept, so a
 * discount of -100.5 rounds like 100.5 (切捨て → -100, 切上げ → -101, 四捨五入 → -101; never half-even).
 */

/** Rounding codes of `kin_kiri` / `zei_kiri`: 0 切捨て (toward zero), 1 切上げ (away from zero), 2 四捨五入 (half away). */
export type Rounding = '0' | '1' | '2';

/** A code as stored ('' or unknown → 切捨て, the usual default). */
export const roundingOf = (value: unknown): Rounding => (value === '1' || value === 1 ? '1' : value === '2' || value === 2 ? '2' : '0');

const safe = (value: number, what: string): number => {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer: ${value}`);
  return value;
};

/**
 * numerator / denominator rounded to an integer by a mode, symmetric around zero; both integers, the
 * denominator positive.
 * @example divideRounded(1005, 10, '2') // 101 (100.5 half away from zero)
 * @example divideRounded(-1005, 10, '0') // -100
 * @example divideRounded(-1001, 10, '1') // -101
 */
export function divideRounded(numerator: number, denominator: number, mode: Rounding): number {
  safe(numerator, 'numerator');
  if (safe(denominator, 'denominator') <= 0) throw new RangeError(`denominator must be positive: ${denominator}`);
  const abs = Math.abs(numerator);
  const remainder = abs % denominator;
  const quotient = (abs - remainder) / denominator;
  const up = mode === '1' ? remainder > 0 : mode === '2' ? remainder * 2 >= denominator : false;
  const rounded = up ? quotient + 1 : quotient;
  return numerator < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * A price in yen with at most two decimals (86.40円) as integer sen. Stored prices are doubles holding two
 * decimals, so the nearest integer is exact; a value with more decimals is refused before it gets here
 * (the line's price field allows two).
 * @example toSen(86.4) // 8640
 */
export function toSen(yen: number): number {
  if (!Number.isFinite(yen)) throw new RangeError(`not a price: ${yen}`);
  return Math.round(yen * 100);
}

/** Integer sen back as yen (two decimals at most). @example fromSen(8640) // 86.4 */
export const fromSen = (sen: number): number => safe(sen, 'sen') / 100;
