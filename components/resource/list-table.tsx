/**
 * The table of a resource list: header cells from the declaration, sortable headers, 40px rows.
 * A row opens its record's detail where the resource has one; a resource with a row detail
 * (extensions ROW_DETAILS) gets a toggle per row that unfolds it below the row. The table scrolls in a
 * box no taller than the window, so its header (and the money total row of the filtered set, where the
 * resource declares `list.totals`) stays in sight over a long page of rows.
 */
import clsx from 'clsx';
import { Fragment, useState, type MouseEvent, type ReactNode } from 'react';
import type { ListSort } from '@/lib/list/list-state';
import { detailPathOf, hasDetailRoute, parentIdOf } from '@/lib/list/resource-paths';
import type { Row } from '@/lib/client/list/use-list-controller';
import { formatMoney } from '@/lib/format';
import { byResource } from '@/lib/resources';
import { columnOf, idColumn, titleOf, type ColumnDef, type ResourceDef } from '@/lib/resources/types';
import { CellValue } from './cells';
import { ROW_DETAILS } from './extensions';
import { AppLink, navigate } from './shell-bridge';

const ariaSort = (sort: ListSort, col: string): 'ascending' | 'descending' | 'none' =>
  sort.col !== col ? 'none' : sort.odr === 'asc' ? 'ascending' : 'descending';

const alignOf = (column: ColumnDef, def: ResourceDef): string =>
  column.format === 'money' || column.name === idColumn(def) ? 'text-right' : 'text-left';

function SortIcon({ state }: { state: 'ascending' | 'descending' | 'none' }) {
  return (
    <span aria-hidden="true" className={clsx('inline-block w-[10px] text-[10px]', state === 'none' ? 'text-line-strong' : 'text-brand')}>
      {state === 'ascending' ? '▲' : state === 'descending' ? '▼' : '⇅'}
    </span>
  );
}

/** A header cell that stays at the top of the scrolling table box (a shadow draws its line: collapsed borders scroll away). */
const STICKY_HEAD = 'sticky top-0 z-[1] bg-subtle shadow-[inset_0_-1px_0_var(--color-line)] print:static';
/** A cell of the total row, kept at the bottom of the scrolling table box. */
const STICKY_FOOT = 'sticky bottom-0 z-[1] bg-brand-soft shadow-[inset_0_1px_0_var(--color-line-strong)] print:static';

/** The total row of the filtered set: the count under the first column, each declared money total under its column. */
function TotalRow({ def, sums, leading, trailing }: { def: ResourceDef; sums: Record<string, number>; leading: number; trailing: number }) {
  const totals = def.list.totals ?? [];
  return (
    <tfoot>
      <tr className="h-row font-semibold text-ink">
        {leading > 0 && <td colSpan={leading} className={STICKY_FOOT} />}
        {def.list.columns.map((column, i) => (
          <td key={column.name} className={clsx(STICKY_FOOT, 'whitespace-nowrap px-[10px]', alignOf(column, def), totals.includes(column.name) && 'tabular-nums')}>
            {i === 0 ? <span>絞り込んだ {Number(sums.count ?? 0).toLocaleString('ja-JP')} 件の合計</span> : totals.includes(column.name) ? formatMoney(sums[column.name] ?? 0) : null}
          </td>
        ))}
        {trailing > 0 && <td colSpan={trailing} className={STICKY_FOOT} />}
      </tr>
    </tfoot>
  );
}

/**
 * A column header that sorts by its column (when the resource allows it), with aria-sort.
 * @example <SortableHeader def={def} column="mo_text" label="名称" sort={sort} onSort={onSort} />
 */
/**
 * A row named as its cells show it: the first title field that is a list column, drawn by its cell (an operation of the
 * log by its Japanese name, never its code), else the title's value, else the id.
 */
function RowTitle({ def, row, id }: { def: ResourceDef; row: Row; id: string }) {
  const titleColumn = def.titleFields.map((name) => columnOf(def, name)).find((name) => def.list.columns.some((c) => c.name === name));
  const column = def.list.columns.find((c) => c.name === titleColumn);
  return column ? <CellValue def={def} column={column} row={row} /> : <>{titleOf(def, row) || id}</>;
}

export function SortableHeader({ def, column, label, sort, onSort, className = '' }: {
  def: ResourceDef;
  column: string;
  label: ReactNode;
  sort: ListSort;
  onSort: (col: string) => void;
  className?: string;
}) {
  const sortable = def.list.sortable.includes(column);
  const state = ariaSort(sort, column);
  return (
    <th scope="col" aria-sort={sortable ? state : undefined} className={clsx(STICKY_HEAD, 'whitespace-nowrap px-[10px] font-medium', className)}>
      {sortable ? (
        <button type="button" onClick={() => onSort(column)} className="inline-flex items-center gap-[4px] hover:text-brand-strong">
          {label}
          <SortIcon state={state} />
        </button>
      ) : (
        label
      )}
    </th>
  );
}

export function ListTable({
  def,
  rows,
  sort,
  onSort,
  busy,
  pathOf,
  selection,
  sums,
}: {
  def: ResourceDef;
  rows: Row[];
  sort: ListSort;
  onSort: (col: string) => void;
  busy?: boolean;
  /** Where a row opens (default: the record's own detail route). */
  pathOf?: (id: string, row: Row) => string;
  /** Rows can be chosen (a check box per row and one for the page) for a bulk action. */
  selection?: { selected: ReadonlySet<string>; onChange: (next: Set<string>) => void };
  /** The money totals of the filtered set (`{r}_sum`): drawn as the table's last row. */
  sums?: Record<string, number>;
}) {
  const idCol = idColumn(def);
  const opens = Boolean(pathOf) || hasDetailRoute(def);
  const linkColumn = opens ? def.list.columns[0]?.name : undefined;
  const RowDetail = byResource(ROW_DETAILS, def.name);
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setUnfolded((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const width = def.list.columns.length + (RowDetail ? 1 : 0) + (selection ? 1 : 0);
  const pageIds = rows.map((row) => String(row[idCol]));
  const allChosen = Boolean(selection) && pageIds.length > 0 && pageIds.every((id) => selection!.selected.has(id));
  const choose = (ids: readonly string[], on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const id of ids) if (on) next.add(id); else next.delete(id);
    selection.onChange(next);
  };
  const rowPath = (row: Row) => {
    const id = String(row[idCol]);
    return pathOf ? pathOf(id, row) : detailPathOf(def, id, parentIdOf(def, row));
  };
  const open = (event: MouseEvent<HTMLTableRowElement>, row: Row) => {
    if (!opens || (event.target as Element).closest('a,button,input,select,label')) return;
    if (window.getSelection()?.toString()) return;
    void navigate(rowPath(row));
  };
  return (
    <div className="max-h-[calc(100dvh-var(--header-height)-100px)] overflow-auto rounded-[6px] border border-line bg-white print:max-h-none print:overflow-visible">
      <table className="w-full border-collapse text-[14px]" aria-busy={busy || undefined}>
        <caption className="visually-hidden">{def.label}一覧</caption>
        <thead className="bg-subtle text-ink-soft">
          <tr className="h-[36px]">
            {selection && (
              <th scope="col" className={clsx(STICKY_HEAD, 'w-[1%] px-[10px]')}>
                <input type="checkbox" aria-label="このページをすべて選択" checked={allChosen} onChange={(e) => choose(pageIds, e.target.checked)} />
              </th>
            )}
            {def.list.columns.map((column) => (
              <SortableHeader key={column.name} def={def} column={column.name} label={column.label} sort={sort} onSort={onSort} className={alignOf(column, def)} />
            ))}
            {RowDetail && (
              <th scope="col" className={clsx(STICKY_HEAD, 'w-[1%] whitespace-nowrap px-[10px] font-medium')}>
                詳細
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr className="h-[80px]">
              <td colSpan={width} className="text-center text-muted">
                {busy ? '読み込み中…' : '該当するデータはありません。'}
              </td>
            </tr>
          ) : (
            rows.map((row, index) => {
              const id = String(row[idCol]);
              const isOpen = unfolded.has(id);
              const detailId = `row-detail-${def.name}-${id}`;
              return (
                <Fragment key={id}>
                <tr onClick={(e) => open(e, row)} className={clsx('h-row border-b border-line last:border-b-0 hover:bg-brand-soft', opens && 'cursor-pointer', index % 2 ? 'bg-subtle' : 'bg-white')}>
                  {selection && (
                    <td className="px-[10px]">
                      <input type="checkbox" aria-label={`${def.label} ${titleOf(def, row) || id} を選択`} checked={selection.selected.has(id)} onChange={(e) => choose([id], e.target.checked)} />
                    </td>
                  )}
                  {def.list.columns.map((column) => (
                    <td key={column.name} className={clsx('max-w-[320px] truncate px-[10px]', alignOf(column, def), (column.format === 'money' || column.format === 'datetime' || column.format === 'date') && 'tabular-nums whitespace-nowrap')}>
                      {column.name === linkColumn ? (
                        <AppLink to={rowPath(row)} className="font-medium text-brand underline-offset-2 hover:underline">
                          <CellValue def={def} column={column} row={row} />
                        </AppLink>
                      ) : (
                        <CellValue def={def} column={column} row={row} link />
                      )}
                    </td>
                  ))}
                  {RowDetail && (
                    <td className="whitespace-nowrap px-[10px]">
                      <button type="button" aria-expanded={isOpen} aria-controls={isOpen ? detailId : undefined} onClick={() => toggle(id)} className="text-[13px] text-brand underline-offset-2 hover:underline">
                        {isOpen ? '閉じる' : '開く'}
                        <span className="visually-hidden">（{def.label} <RowTitle def={def} row={row} id={id} /> の詳細）</span>
                      </button>
                    </td>
                  )}
                </tr>
                {RowDetail && isOpen && (
                  <tr id={detailId} className="border-b border-line bg-surface">
                    <td colSpan={width} className="px-[16px] py-[10px]">
                      <RowDetail def={def} row={row} />
                    </td>
                  </tr>
                )}
                </Fragment>
              );
            })
          )}
        </tbody>
        {sums && rows.length > 0 && def.list.totals?.length ? <TotalRow def={def} sums={sums} leading={selection ? 1 : 0} trailing={RowDetail ? 1 : 0} /> : null}
      </table>
    </div>
  );
}
