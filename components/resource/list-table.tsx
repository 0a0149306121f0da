/** The table of a resource list: header cells from the declaration, sortable headers, 40px rows. */
import type { MouseEvent } from 'react';
import type { ListSort } from '@/lib/list/list-state';
import { detailPathOf, parentIdOf } from '@/lib/list/use-record-controller';
import type { Row } from '@/lib/list/use-list-controller';
import { idColumn, type ColumnDef, type ResourceDef } from '@/lib/resources/types';
import { CellValue } from './cells';
import { AppLink, navigate } from './shell-bridge';

const ariaSort = (sort: ListSort, col: string): 'ascending' | 'descending' | 'none' =>
  sort.col !== col ? 'none' : sort.odr === 'asc' ? 'ascending' : 'descending';

const alignOf = (column: ColumnDef, def: ResourceDef): string =>
  column.format === 'money' || column.name === idColumn(def) ? 'text-right' : 'text-left';

function SortIcon({ state }: { state: 'ascending' | 'descending' | 'none' }) {
  return (
    <span aria-hidden="true" className={`inline-block w-[10px] text-[10px] ${state === 'none' ? 'text-line-strong' : 'text-brand'}`}>
      {state === 'ascending' ? '▲' : state === 'descending' ? '▼' : '⇅'}
    </span>
  );
}

export function ListTable({
  def,
  rows,
  sort,
  onSort,
  busy,
  pathOf,
}: {
  def: ResourceDef;
  rows: Row[];
  sort: ListSort;
  onSort: (col: string) => void;
  busy?: boolean;
  /** Where a row opens (default: the record's own detail route). */
  pathOf?: (id: string, row: Row) => string;
}) {
  const idCol = idColumn(def);
  const linkColumn = def.list.columns[0]?.name;
  const rowPath = (row: Row) => {
    const id = String(row[idCol]);
    return pathOf ? pathOf(id, row) : detailPathOf(def, id, parentIdOf(def, row));
  };
  const open = (event: MouseEvent<HTMLTableRowElement>, row: Row) => {
    if ((event.target as Element).closest('a,button,input,select,label')) return;
    if (window.getSelection()?.toString()) return;
    navigate(rowPath(row));
  };
  return (
    <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
      <table className="w-full border-collapse text-[14px]" aria-busy={busy || undefined}>
        <caption className="visually-hidden">{def.label}一覧</caption>
        <thead className="bg-subtle text-ink-soft">
          <tr className="h-[36px]">
            {def.list.columns.map((column) => {
              const sortable = def.list.sortable.includes(column.name);
              const state = ariaSort(sort, column.name);
              return (
                <th
                  key={column.name}
                  scope="col"
                  aria-sort={sortable ? state : undefined}
                  className={`whitespace-nowrap border-b border-line px-[10px] font-medium ${alignOf(column, def)}`}
                >
                  {sortable ? (
                    <button type="button" onClick={() => onSort(column.name)} className="inline-flex items-center gap-[4px] hover:text-brand-strong">
                      {column.label}
                      <SortIcon state={state} />
                    </button>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr className="h-[80px]">
              <td colSpan={def.list.columns.length} className="text-center text-muted">
                {busy ? '読み込み中…' : '該当するデータはありません。'}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const id = row[idCol];
              return (
                <tr key={String(id)} onClick={(e) => open(e, row)} className="h-[40px] cursor-pointer border-b border-line last:border-b-0 odd:bg-white even:bg-subtle hover:bg-brand-soft">
                  {def.list.columns.map((column) => (
                    <td key={column.name} className={`max-w-[320px] truncate px-[10px] ${alignOf(column, def)} ${column.format === 'money' || column.format === 'datetime' || column.format === 'date' ? 'tabular-nums whitespace-nowrap' : ''}`}>
                      {column.name === linkColumn ? (
                        <AppLink to={rowPath(row)} className="font-medium text-brand underline-offset-2 hover:underline">
                          <CellValue def={def} column={column} row={row} />
                        </AppLink>
                      ) : (
                        <CellValue def={def} column={column} row={row} />
                      )}
                    </td>
                  ))}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
