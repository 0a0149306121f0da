/** Formatting of list cells from the column declaration (money, dates in Japan time, option texts). */
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { fieldOfColumn, type ColumnDef, type Option, type ResourceDef } from '@/lib/resources/types';

export { fieldOfColumn };

/** Text of a value among options (the value itself when no option matches). */
export const optionText = (options: readonly Option[] | undefined, value: unknown): string => {
  if (value === null || value === undefined || value === '') return '';
  return options?.find((o) => o.value === String(value))?.text ?? String(value);
};

/** A cell's text for the formats that need no master table. */
export function formatCell(column: ColumnDef, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (column.format) {
    case 'money':
      return formatMoney(value as number | string);
    case 'date':
      return formatDate(String(value));
    case 'datetime':
      return formatDateTime(String(value));
    case 'flag':
      return value === 1 || value === '1' || value === true ? '✓' : '';
    default:
      return String(value);
  }
}

/** Text of a value from the master table a field reads. */
export function MasterText({ table, value }: { table: string; value: unknown }) {
  const { options } = useMasterOptions(table);
  return <>{optionText(options, value)}</>;
}

/** One list cell's content. */
export function CellValue({ def, column, row }: { def: ResourceDef; column: ColumnDef; row: Record<string, unknown> }) {
  const value = row[column.name];
  if (column.format === 'ref') return <>{String(row[`${column.name}_label`] ?? (value ?? ''))}</>;
  if (column.format === 'option') {
    const field = fieldOfColumn(def, column);
    if (field?.master) return <MasterText table={field.master} value={value} />;
    return <>{optionText(field?.options, value)}</>;
  }
  return <>{formatCell(column, value)}</>;
}
