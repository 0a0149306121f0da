/**
 * 適格請求書発行事業者の登録番号 (qualified-invoice issuer number, domain money-and-files §1): "T" and 13 digits. For a
 * corporation the digits are its 法人番号; a sole proprietor's are assigned by the 国税庁 in the same form. The first
 * of the 13 digits is a check digit over the other 12 (国税庁「法人番号の指定等に関する省令」第2条): with Pn the n-th
 * digit counted from the RIGHT of the 12 and Qn = 1 for odd n, 2 for even n, check digit = 9 − (Σ Pn × Qn mod 9).
 * Shared by the company settings form and save (lib/resources/company.ts) and the invoice PDF.
 */

/**
 * The check digit of a 法人番号's 12-digit body (the 13 digits without their first).
 * @example corporateCheckDigit('180301018771') // 1 (トヨタ自動車株式会社 1180301018771)
 * @example corporateCheckDigit('000012050002') // 7 (国税庁 7000012050002)
 */
export function corporateCheckDigit(body: string): number {
  if (!/^\d{12}$/.test(body)) throw new RangeError(`a 法人番号 body is 12 digits: ${body}`);
  let sum = 0;
  for (let n = 1; n <= 12; n += 1) sum += Number(body[12 - n]) * (n % 2 === 1 ? 1 : 2);
  return 9 - (sum % 9);
}

/** How the number is written: a capital T and 13 half-width digits. */
export const REGISTRATION_NUMBER = /^T\d{13}$/;

/** The message of a registration number that is not "T" + 13 digits. */
export const REGISTRATION_FORMAT_MESSAGE = '登録番号は T と 13 桁の数字で入力してください（例: T1180301018771）。';

/**
 * What is wrong with a registration number, or undefined when it is well formed and its check digit is right.
 * @example registrationNumberProblem('T1180301018771') // undefined
 * @example registrationNumberProblem('T2180301018771') // '登録番号の…検査用数字…'
 */
export function registrationNumberProblem(value: string): string | undefined {
  if (!REGISTRATION_NUMBER.test(value)) return REGISTRATION_FORMAT_MESSAGE;
  if (Number(value[1]) !== corporateCheckDigit(value.slice(2))) {
    return '登録番号の検査用数字（T の次の 1 桁）が残りの 12 桁と合いません。国税庁の公表サイトで番号を確かめてください。';
  }
  return undefined;
}
