/**
 * The records of other resources that point at a saved record, one tab each (the customer's
 * 受注・契約・対応履歴・営業報告 …) named with how many there are. Each tab is the generic list, narrowed
 * to this record and not persisted; its rows and 「新規登録」 open the nested routes under this record.
 */
import { useState } from 'react';
import { buildListQuery, countMoreOf, countOf, initialListState } from '@/lib/list/list-state';
import { useListController } from '@/lib/client/list/use-list-controller';
import { resourceCall } from '@/lib/protocol/calls';
import { readStored, writeStored } from '@/lib/client/state/storage';
import { listKey } from '@/lib/storage-keys';
import { detailPathOf, hasDetailRoute, newPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import { byResource } from '@/lib/resources';
import { allows, keywordHintOf, type RelatedDef, type ResourceDef } from '@/lib/resources/types';
import { Card, Tabs } from '@/components/ui';
import { RELATED_ACTIONS } from './extensions';
import { KeywordBox } from './keyword-box';
import { ListTable } from './list-table';
import { ListPagination } from './pagination';
import { resolveResource } from './resolve';
import { AppLink, useAreas } from './shell-bridge';
import { buttonClass } from './styles';
import { useCall } from '@/lib/client/data/use-call';

function RelatedList({ parent, related, id }: { parent: ResourceDef; related: RelatedDef; id: string }) {
  const def = resolveResource(related.resource);
  const Actions = byResource(byResource(RELATED_ACTIONS, parent.name) ?? {}, related.resource);
  const list = useListController(def, { persist: false, fixed: { [related.field]: id } });
  const areas = useAreas();
  const { state } = list;
  return (
    <div className="flex flex-col gap-[10px]">
      <div className="flex flex-wrap items-center justify-between gap-[10px]">
        <KeywordBox value={state.keyword} onSearch={list.setKeyword} placeholder={keywordHintOf(def)} />
        <div className="flex flex-wrap items-center gap-[10px]">
          {Actions && can(areas, def.area, 'write') && <Actions parentId={id} />}
          {can(areas, def.area, 'write') && allows(def, 'create') && (
            <AppLink to={newPathOf(def, id)} className={buttonClass('primary', 'sm')}>
              <span aria-hidden="true">＋</span>
              {related.label}を登録
            </AppLink>
          )}
        </div>
      </div>
      {list.error && (
        <p role="alert" className="text-[1.4rem] text-danger">
          {list.error}
        </p>
      )}
      <ListTable def={def} rows={list.rows} sort={state.sort} onSort={list.toggleSort} busy={list.isLoading} pathOf={hasDetailRoute(def) ? (rowId) => detailPathOf(def, rowId, id) : undefined} sums={list.sums} />
      <ListPagination list={list} />
    </div>
  );
}

/**
 * A related tab's name with how many records it holds: the same `{r}_cnt` call (and SWR key) as the
 * tab's list, so the count follows a write to those records without a call of its own.
 */
function RelatedTabLabel({ related, id }: { related: RelatedDef; id: string }) {
  const def = resolveResource(related.resource);
  const built = buildListQuery(def, initialListState(def), { fixed: { [related.field]: id } });
  const cnt = useCall(resourceCall(def, 'cnt'), built.ok ? built.count : null, { revalidateOnFocus: false });
  const total = countOf(cnt.data);
  // One text, so the tab's accessible name reads 「受注（9）」 (past the cap 「受注（10,000以上）」).
  return <>{total === undefined ? related.label : `${related.label}（${total.toLocaleString('ja-JP')}${countMoreOf(cnt.data) ? '以上' : ''}）`}</>;
}

/** Where the related tab last chosen is kept (a resource name), so coming back from a contact shows 対応履歴 again. */
const relatedTabKey = (def: ResourceDef): string => `${listKey(def.storageKey, 'tabIndex')}.related`;

export function RelatedLists({ def, id }: { def: ResourceDef; id: string }) {
  const areas = useAreas();
  const related = (def.related ?? []).filter((r) => can(areas, resolveResource(r.resource).area, 'read'));
  const [chosen, setChosen] = useState(() => readStored<string>(relatedTabKey(def), ''));
  const index = Math.max(0, related.findIndex((r) => r.resource === chosen));
  const setIndex = (i: number) => {
    const name = related[i]?.resource ?? '';
    setChosen(name);
    writeStored(relatedTabKey(def), name);
  };
  if (related.length === 0) return null;
  return (
    <div className="px-[16px]">
      <Card title="関連情報">
        <Tabs
          label={`${def.label}の関連情報`}
          index={index}
          onIndexChange={setIndex}
          keepMounted={false}
          tabs={related.map((r) => ({ key: r.resource, label: <RelatedTabLabel related={r} id={id} />, content: <RelatedList parent={def} related={r} id={id} /> }))}
        />
      </Card>
    </div>
  );
}
