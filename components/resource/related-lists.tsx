/**
 * The records of other resources that point at a saved record, one tab each (the customer's
 * 契約・対応履歴・営業報告). Each tab is the generic list, narrowed to this record and not
 * persisted; its rows and 「新規登録」 open the nested routes under this record.
 */
import { useState } from 'react';
import { useListController } from '@/lib/list/use-list-controller';
import { detailPathOf, newPathOf } from '@/lib/list/use-record-controller';
import { can } from '@/lib/permissions';
import { allows, type RelatedDef, type ResourceDef } from '@/lib/resources/types';
import { Card, Tabs } from '@/components/ui';
import { KeywordBox } from './keyword-box';
import { ListTable } from './list-table';
import { Pagination } from './pagination';
import { resolveResource } from './resolve';
import { AppLink, useAreas } from './shell-bridge';
import { buttonClass } from './styles';

function RelatedList({ related, id }: { related: RelatedDef; id: string }) {
  const def = resolveResource(related.resource);
  const list = useListController(def, { persist: false, fixed: { [related.field]: id } });
  const areas = useAreas();
  const { state } = list;
  return (
    <div className="flex flex-col gap-[10px]">
      <div className="flex flex-wrap items-center justify-between gap-[10px]">
        <KeywordBox value={state.keyword} onSearch={list.setKeyword} />
        {can(areas, def.area, 'write') && allows(def, 'create') && (
          <AppLink to={newPathOf(def, id)} className={buttonClass('primary', 'sm')}>
            <span aria-hidden="true">＋</span>
            {related.label}を登録
          </AppLink>
        )}
      </div>
      {list.error && (
        <p role="alert" className="text-[1.4rem] text-danger">
          {list.error}
        </p>
      )}
      <ListTable def={def} rows={list.rows} sort={state.sort} onSort={list.toggleSort} busy={list.isLoading} pathOf={(rowId) => detailPathOf(def, rowId, id)} />
      <Pagination page={state.page} pageCount={list.pageCount} perPage={state.perPage} total={list.total} onPage={list.setPage} onPerPage={list.setPerPage} />
    </div>
  );
}

export function RelatedLists({ def, id }: { def: ResourceDef; id: string }) {
  const [index, setIndex] = useState(0);
  const areas = useAreas();
  const related = (def.related ?? []).filter((r) => can(areas, resolveResource(r.resource).area, 'read'));
  if (related.length === 0) return null;
  return (
    <div className="px-[16px]">
      <Card title="関連情報">
        <Tabs
          label={`${def.label}の関連情報`}
          index={index}
          onIndexChange={setIndex}
          keepMounted={false}
          tabs={related.map((r) => ({ key: r.resource, label: r.label, content: <RelatedList related={r} id={id} /> }))}
        />
      </Card>
    </div>
  );
}
