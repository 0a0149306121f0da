/** Formatting of list cells from the column declaration (money, dates in Japan time, option texts). */
import { monthLabel } from '@/lib/format';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { refPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import { resourceNamed } from '@/lib/resources';
import { fieldOfColumn, type ColumnDef, type Option, type ResourceDef } from '@/lib/resources/types';
import { AppLink, useAreas } from './shell-bridge';
import { cellText } from '../../lib/resources/checks';

export { fieldOfColumn };

/** Text of a value among options (the value itself when no option matches). */
export const optionText = (options: readonly Option[] | undefined, value: unknown): string => {
  if (value === null || value === undefined || value === '') return '';
  return options?.find((o) => o.value === cellText(value))?.text ?? cellText(value);
};

/** A cell's text for the formats that need no master table. */
export function formatCell(column: ColumnDef, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (column.format) {
    case 'money':
      return formatMoney(value as number | string);
    case 'date':
      return formatDate(cellText(value));
    case 'datetime':
      return formatDateTime(cellText(value));
    case 'flag':
      return value === 1 || value === '1' || value === true ? '✓' : '';
    default:
      return cellText(value);
  }
}

/** Text of a value from the master table a field reads. */
export function MasterText({ table, value }: { table: string; value: unknown }) {
  const { options } = useMasterOptions(table);
  return <>{optionText(options, value)}</>;
}

/**
 * A record a row names (顧客, 担当者): its name, as a link to it where it has a screen the user may read.
 */
export function RefValue({ target, id, name }: { target: ResourceDef | undefined; id: unknown; name: string }) {
  const areas = useAreas();
  const path = target && id !== null && id !== undefined && id !== '' && areas && can(areas, target.area, 'read') ? refPathOf(target, cellText(id)) : undefined;
  return path ? <AppLink to={path} className="text-brand underline-offset-2 hover:underline">{name}</AppLink> : <>{name}</>;
}

/** One list cell's content; `link`: a `ref` column's name links to its record (not inside another link). */
export function CellValue({ def, column, row, link = false }: { def: ResourceDef; column: ColumnDef; row: Record<string, unknown>; link?: boolean }) {
  const value = row[column.name];
  if (column.format === 'ref') {
    const name = cellText(row[`${column.name}_label`] ?? (value ?? ''));
    const ref = fieldOfColumn(def, column)?.ref;
    return link && ref ? <RefValue target={resourceNamed(ref)} id={value} name={name} /> : <>{name}</>;
  }
  const shows = fieldOfColumn(def, column);
  if (shows?.format === 'month' && value !== null && value !== undefined && value !== '') return <>{monthLabel(cellText(value))}</>;
  if (column.format === 'option') {
    const field = fieldOfColumn(def, column);
    if (field?.master) return <MasterText table={field.master} value={value} />;
    return <>{optionText(field?.options, value)}</>;
  }
  return <>{formatCell(column, value)}</>;
}
