/**
 * The small tables of detail panels and custom screens (stock per item, an invoice's rates, a payment's allocations,
 * a closing's preview): a caption for screen readers, header cells (right-aligned for amounts), an empty or loading
 * line in place of the rows, and the cell classes the rows use.
 */
import clsx from 'clsx';
import type { ReactNode } from 'react';

/** A body cell. */
export const cellClass = 'border-b border-line px-[10px] py-[6px]';
/** A body cell holding an amount or a count. */
export const numberCellClass = `${cellClass} text-right tabular-nums`;
/** A header cell. */
export const headCellClass = `${cellClass} whitespace-nowrap bg-subtle text-left font-medium text-ink-soft`;

/** A column: its label and whether it holds amounts (right-aligned). */
export type DataColumn = readonly [label: string, right?: boolean];

/**
 * @example <DataTable caption="商品別在庫" headers={[['商品名'], ['在庫数', true]]} empty={rows.length === 0 && 'まだ在庫の記録はありません。'}>{rows…}</DataTable>
 */
export function DataTable({ caption, headers, empty, children, foot }: { caption: string; headers: readonly DataColumn[]; empty: string | false; children: ReactNode; foot?: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
      <table className="w-full border-collapse text-[1.4rem]">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {headers.map(([label, right]) => (
              <th key={label} scope="col" className={clsx(headCellClass, right && 'text-right')}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={headers.length} className="h-[60px] text-center text-muted">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
        {foot && !empty && <tfoot>{foot}</tfoot>}
      </table>
    </div>
  );
}
