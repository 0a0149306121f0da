/**
 * Paging of a list: 「前へ」「次へ」, page numbers, page size and the total. Drawn above the table and again
 * below it (`placement="bottom"`: the page buttons only, in a navigation of its own name; the total and the
 * page size stay above), so the next page is one click away at either end of a long page.
 */
import clsx from 'clsx';
import { useId, type ReactNode } from 'react';
import type { ListController } from '@/lib/client/list/use-list-controller';
import { PAGE_SIZES, pageWindow } from '@/lib/list/list-state';
import type { ResourceName } from '@/lib/protocol/calls';
import { ExactCount } from './exact-count';
import { buttonClass, inputClass } from './styles';

/**
 * The paging of a list controller: its total — 「10,000件以上」 with 「正確に数える」 while the total is the cap of a
 * longer list — page buttons (the next page open while rows go on) and page size.
 */
export function ListPagination({ list, placement = 'top' }: { list: ListController; placement?: 'top' | 'bottom' }) {
  const { state, countQuery, setExactTotal } = list;
  const counter = list.totalMore && countQuery && placement === 'top'
    ? <ExactCount key={JSON.stringify(countQuery)} resource={list.def.name as ResourceName} query={countQuery} onCount={(count) => setExactTotal(countQuery, count)} />
    : undefined;
  return (
    <Pagination page={state.page} pageCount={list.pageCount} perPage={state.perPage} total={list.total} more={list.totalMore} counter={counter}
      onPage={list.setPage} onPerPage={list.setPerPage} placement={placement} />
  );
}

export function Pagination({
  page,
  pageCount,
  perPage,
  total,
  more = false,
  counter,
  onPage,
  onPerPage,
  placement = 'top',
}: {
  page: number;
  pageCount: number;
  perPage: number;
  total: number | undefined;
  /** `total` is the cap of a longer list: shown as 「10,000件以上」. */
  more?: boolean;
  /** Drawn after the total (「正確に数える」). */
  counter?: ReactNode;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
  placement?: 'top' | 'bottom';
}) {
  const sizeId = useId();
  const sizes: number[] = PAGE_SIZES.includes(perPage as (typeof PAGE_SIZES)[number]) ? [...PAGE_SIZES] : [...PAGE_SIZES, perPage].sort((a, b) => a - b);
  const bottom = placement === 'bottom';
  return (
    <div className={clsx('flex flex-wrap items-center gap-[10px] text-[14px]', bottom ? 'justify-end print:hidden' : 'justify-between')}>
      {!bottom && (
        <div className="flex flex-wrap items-center gap-[8px]">
          <p className="text-ink-soft" aria-live="polite">
            {total === undefined ? '\u00a0' : more ? `${total.toLocaleString('ja-JP')}件以上` : `全 ${total.toLocaleString('ja-JP')} 件`}
            {total !== undefined && total > 0 && (
              <span className="ml-[8px] text-muted">
                （{((page - 1) * perPage + 1).toLocaleString('ja-JP')}〜{(more ? page * perPage : Math.min(total, page * perPage)).toLocaleString('ja-JP')} 件目）
              </span>
            )}
          </p>
          {counter}
        </div>
      )}
      <nav aria-label={bottom ? 'ページ送り（表の下）' : 'ページ送り'} className="flex items-center gap-[4px]">
        <button type="button" className={buttonClass('secondary')} onClick={() => onPage(page - 1)} disabled={page <= 1}>
          前へ
        </button>
        {pageWindow(page, pageCount).map((n, i) =>
          n === null ? (
            <span key={`gap-${i}`} aria-hidden="true" className="px-[4px] text-muted">
              …
            </span>
          ) : (
            <button
              key={n}
              type="button"
              aria-label={`${n}ページ`}
              aria-current={n === page ? 'page' : undefined}
              onClick={() => onPage(n)}
              className={clsx('h-[30px] min-w-[30px] rounded-[4px] border px-[6px] tabular-nums', n === page ? 'border-brand bg-brand text-white' : 'border-line-strong bg-white text-ink hover:bg-subtle')}
            >
              {n}
            </button>
          ),
        )}
        <button type="button" className={buttonClass('secondary')} onClick={() => onPage(page + 1)} disabled={page >= pageCount}>
          次へ
        </button>
        {!bottom && (
          <>
            <label htmlFor={sizeId} className="ml-[12px] text-[13px] text-ink-soft">
              表示件数
            </label>
            <select id={sizeId} value={perPage} onChange={(e) => onPerPage(Number(e.target.value))} className={clsx(inputClass, 'w-[80px]')}>
              {sizes.map((n) => (
                <option key={n} value={n}>
                  {n}件
                </option>
              ))}
            </select>
          </>
        )}
      </nav>
    </div>
  );
}

/**
 * 前へ／次へ of a preview table whose rows a call answers a page at a time (/orders/hod, /sales/rental);
 * nothing when everything fits on one page.
 */
export function PreviewPager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="ページ" className="flex items-center gap-[8px] text-[1.4rem]">
      <button type="button" className={buttonClass('secondary', 'sm')} disabled={page <= 1} onClick={() => onPage(page - 1)}>前へ</button>
      <span>{page} / {pages} ページ（{total.toLocaleString('ja-JP')}件）</span>
      <button type="button" className={buttonClass('secondary', 'sm')} disabled={page >= pages} onClick={() => onPage(page + 1)}>次へ</button>
    </nav>
  );
}
