/**
 * The order number (受注番号) from its format: `{yyyy}` `{yy}` `{mm}` `{dd}` (of the order date) and
 * `{id}` / `{id:6}` (the order's id, zero-padded to the width given).
 */
export const DEFAULT_ORDER_NUMBER_FORMAT = 'OD{yyyy}{mm}{dd}-{id:6}';

/**
 * @example formatOrderNumber('OD{yyyy}{mm}{dd}-{id:6}', '2026-11-22', 42) // 'OD20261122-000042'
 */
export function formatOrderNumber(format: string, date: string, id: number): string {
  const [yyyy = '', mm = '', dd = ''] = date.split('-');
  return format
    .replaceAll('{yyyy}', yyyy)
    .replaceAll('{yy}', yyyy.slice(2))
    .replaceAll('{mm}', mm)
    .replaceAll('{dd}', dd)
    .replace(/\{id(?::(\d{1,2}))?\}/g, (_, width: string | undefined) => String(id).padStart(Number(width ?? 0), '0'));
}

/**
 * What is wrong with a number format, or undefined: it must hold `{id}` (or `{id:n}`), which keeps
 * every number unique, and only the known placeholders.
 * @example orderNumberFormatProblem('OD{yyyy}') // '{id} を含めてください（番号が重複しないように）。'
 */
export function orderNumberFormatProblem(format: string): string | undefined {
  if (!/\{id(?::\d{1,2})?\}/.test(format)) return '{id} を含めてください（番号が重複しないように）。';
  const unknown = format.replace(/\{(?:yyyy|yy|mm|dd|id(?::\d{1,2})?)\}/g, '').match(/\{[^}]*\}/);
  return unknown ? `${unknown[0]} は使えません。使えるのは {yyyy} {yy} {mm} {dd} {id} {id:6} です。` : undefined;
}
