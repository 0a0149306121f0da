/**
 * The generic list screen of a resource (`{basePath}/list`): keyword, filters, saved searches,
 * a sortable table, paging and 「CSV出力」 of the whole result. All logic is in `useListController`; this file only draws.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { linkedFilters } from '@/lib/list/list-state';
import { useListController, type ListControllerOptions } from '@/lib/client/list/use-list-controller';
import { newPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import { useRoute } from '@/lib/client/router';
import { allows, keywordHintOf } from '@/lib/resources/types';
import { CsvExportButton } from './csv-export-button';
import { FilterPanel } from './filter-panel';
import { KeywordBox } from './keyword-box';
import { ListTable } from './list-table';
import { ListPagination } from './pagination';
import { resolveResource, type ResourceRef } from './resolve';
import { SavedSearchBar } from './saved-search-bar';
import { AppLink, navigate, useAreas, useLoadingWhile } from './shell-bridge';
import { buttonClass } from './styles';

/** What a bulk action gets: the chosen ids, and a way to clear the choice and reload the list when done. */
export interface BulkContext {
  ids: string[];
  done: () => void;
}

export interface ResourceListScreenProps {
  resource: ResourceRef;
  params?: Record<string, string>;
  /** A heading other than `{label}一覧` (a list fixed to one status). */
  title?: string;
  /** Controller options, e.g. `fixedFilters` for a list fixed to one status. */
  options?: ListControllerOptions;
  /** Where the 詳細検索 panel's open flag is kept (FilterPanel `storageKey`). */
  filtersKey?: string;
  /** Rows become selectable; this draws the action(s) for the chosen rows. */
  bulk?: (context: BulkContext) => ReactNode;
}

export default function ResourceListScreen({ resource, title, options, filtersKey, bulk }: ResourceListScreenProps) {
  const def = resolveResource(resource);
  const { pathname, query } = useRoute();
  const linked = useMemo(() => linkedFilters(def, query), [def, query]);
  const list = useListController(def, { ...options, linked });
  // The link's filters are now the list's own (kept with the list): the address loses the query, so a
  // reload or a later visit shows the list as the user leaves it.
  useEffect(() => {
    if (linked) void navigate(pathname, { replace: true });
  }, [linked, pathname]);
  const areas = useAreas();
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  useLoadingWhile(list.isValidating);
  const { state } = list;
  const heading = title ?? `${def.label}一覧`;

  useEffect(() => {
    document.title = heading;
  }, [heading]);

  return (
    <div className="flex flex-col gap-[12px] p-[16px]">
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <h1 className="text-[20px] font-bold text-ink">{heading}</h1>
        <div className="flex flex-wrap items-center gap-[8px]">
          <CsvExportButton def={def} query={list.exportQuery} />
          {can(areas, def.area, 'write') && allows(def, 'create') && (
            <AppLink to={newPathOf(def)} className={buttonClass('primary')}>
              <span aria-hidden="true">＋</span>
              新規登録
            </AppLink>
          )}
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <KeywordBox value={state.keyword} onSearch={list.setKeyword} placeholder={keywordHintOf(def)} />
        <SavedSearchBar list={list} />
      </div>

      <FilterPanel def={def} filters={state.filters} onChange={list.setFilter} onClear={list.clearFilters} storageKey={filtersKey} fixed={Object.keys(options?.fixedFilters ?? {})} />

      {list.error && (
        <p role="alert" className="rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[14px] text-danger">
          {list.error}
        </p>
      )}

      <ListPagination list={list} />
      {bulk && (
        <div className="flex flex-wrap items-center gap-[8px]" aria-label="選択した行の操作" role="group">
          <span className="text-[14px] text-ink-soft">{selected.size} 件選択中</span>
          {bulk({ ids: [...selected], done: () => { setSelected(new Set()); list.refresh(); } })}
        </div>
      )}
      <ListTable def={def} rows={list.rows} sort={state.sort} onSort={list.toggleSort} busy={list.isLoading} selection={bulk ? { selected, onChange: setSelected } : undefined} sums={list.sums} />
      {list.rows.length > 0 && (
        <ListPagination list={list} placement="bottom" />
      )}
    </div>
  );
}
