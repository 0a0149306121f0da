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
