/**
 * The generic list screen of a resource (`{basePath}/list`): keyword, filters, saved searches,
 * a sortable table and paging. All logic is in `useListController`; this file only draws.
 */
import { useEffect } from 'react';
import { useListController } from '@/lib/list/use-list-controller';
import { newPathOf } from '@/lib/list/use-record-controller';
import { can } from '@/lib/permissions';
import { allows } from '@/lib/resources/types';
import { FilterPanel } from './filter-panel';
import { KeywordBox } from './keyword-box';
import { ListTable } from './list-table';
import { Pagination } from './pagination';
import { resolveResource, type ResourceRef } from './resolve';
import { SavedSearchBar } from './saved-search-bar';
import { AppLink, useAreas, useLoadingWhile } from './shell-bridge';
import { buttonClass } from './styles';

export interface ResourceListScreenProps {
  resource: ResourceRef;
  params?: Record<string, string>;
}

export default function ResourceListScreen({ resource }: ResourceListScreenProps) {
  const def = resolveResource(resource);
  const list = useListController(def);
  const areas = useAreas();
  useLoadingWhile(list.isValidating);
  const { state } = list;

  useEffect(() => {
    document.title = `${def.label}一覧`;
  }, [def.label]);

  return (
    <div className="flex flex-col gap-[12px] p-[16px]">
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <h1 className="text-[20px] font-bold text-ink">{def.label}一覧</h1>
        {can(areas, def.area, 'write') && allows(def, 'create') && (
          <AppLink to={newPathOf(def)} className={buttonClass('primary')}>
            <span aria-hidden="true">＋</span>
            新規登録
          </AppLink>
        )}
      </div>

      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <KeywordBox value={state.keyword} onSearch={list.setKeyword} placeholder={def.list.keywordHint} />
        <SavedSearchBar list={list} />
      </div>

      <FilterPanel def={def} filters={state.filters} onChange={list.setFilter} onClear={list.clearFilters} />

      {list.error && (
        <p role="alert" className="rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[14px] text-danger">
          {list.error}
        </p>
      )}

      <Pagination page={state.page} pageCount={list.pageCount} perPage={state.perPage} total={list.total} onPage={list.setPage} onPerPage={list.setPerPage} />
      <ListTable def={def} rows={list.rows} sort={state.sort} onSort={list.toggleSort} busy={list.isLoading} />
    </div>
  );
}
