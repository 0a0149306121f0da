/** Cross-field and format rules shared by several declarations' `check`. */

/** A value as a form or an API sent it, or a cell as stored, as text: a string as is, a number or flag in decimal, else '' (never [object Object]). */
export const cellText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : '';

/** A value as a form or an API sent it, as text ('' when absent). */
export const textOf = (values: Record<string, unknown>, name: string): string => cellText(values[name]);

/**
 * A code field (商品コード, 倉庫コード …): half-width letters, digits, hyphen and underscore only.
 * @example codeProblem({ code: 'A 1' }, 'code', '倉庫コード') // { code: '倉庫コードは半角英数字・…' }
 */
export function codeProblem(values: Record<string, unknown>, name: string, label: string): Record<string, string> | undefined {
  const code = textOf(values, name);
  return code !== '' && !/^[0-9A-Za-z_-]+$/.test(code) ? { [name]: `${label}は半角英数字・ハイフン・アンダースコアで入力してください。` } : undefined;
}

/**
 * A whole number in [min, max] from a form value (full-width digits and commas allowed), else undefined.
 * @example integerIn('１,２００', 0, 9999) // 1200
 */
export function integerIn(value: unknown, min: number, max: number): number | undefined {
  const text = cellText(value).normalize('NFKC').replaceAll(',', '').trim();
  if (!/^-?\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}
