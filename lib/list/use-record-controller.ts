/**
 * Headless detail logic of one record: loads `{r}_dtl`, saves with `{r}_save` (carrying the
 * `modified` it was loaded with, so a stale edit is refused instead of overwriting), deletes
 * with `{r}_del`. The detail form only draws and reacts to the outcomes.
 */
import { useCallback } from 'react';
import { useAtomValue } from 'jotai';
import useSWR, { useSWRConfig } from 'swr';
import { call, CallError } from '../api/fetcher';
import { callName, MESSAGES, type UsedBy } from '../protocol';
import { fillPath, ROUTES, type ResourceScreen, type RouteDef } from '../routes';
import type { ResourceDef } from '../resources/types';
import { sessionAtom } from '../state/atoms';
import { writeStored } from '../state/storage';
import { filterOf, type RawFilters } from './list-state';
import { fromForm, idOf, newRecordValues, toForm, type FormRecord } from './record-mapper';
import { refusalOf, type Refusal } from './save-refusal';
import { callFetcher, messageOf, type Row } from './use-list-controller';

export type SaveOutcome = { ok: true; row: Row; id: string; created: boolean } | ({ ok: false } & Refusal);

/** A refused delete names the records that use this one (`usedBy`), when the server answers them. */
export type DeleteOutcome = { ok: true } | { ok: false; message: string; usedBy?: readonly UsedBy[] };

export interface RecordController {
  /** The answer row, or undefined for a new record or while loading. */
  record: Row | undefined;
  /** The record as form values (empty values for a new record). */
  formValues: FormRecord | undefined;
  /**
   * The record's child rows as `children.call` answers them (ResourceDef.children; `[]` for a new record),
   * undefined while loading or for a resource without children.
   */
  children: Row[] | undefined;
  isLoading: boolean;
  error: string | undefined;
  notFound: boolean;
  /** Saves the form's values and, for a resource with children, the rows to write with them (`children.key`). */
  save: (values: Record<string, unknown>, rows?: readonly Record<string, unknown>[]) => Promise<SaveOutcome>;
  remove: () => Promise<DeleteOutcome>;
  /** Reloads the record (and its child rows) from the server (after a conflict) and returns the latest row. */
  reload: () => Promise<Row | undefined>;
}

const NO_ROWS: Row[] = [];

/** The routes drawing a resource's screens of one kind (top-level first, then nested). */
function resourceRoutes(def: ResourceDef, kind: ResourceScreen['kind']): { route: RouteDef; screen: ResourceScreen }[] {
  return ROUTES.flatMap((route) =>
    route.screen.kind === kind && 'resource' in route.screen && route.screen.resource === def.name ? [{ route, screen: route.screen }] : [],
  ).sort((a, b) => Number(Boolean(a.screen.parent)) - Number(Boolean(b.screen.parent)));
}

/**
 * Whether the resource has a detail screen for its records (the audit log has none): a generic one,
 * or a screen of its own at `{basePath}/detail/…` (orders), where `detailPathOf` leads by default.
 */
export const hasDetailRoute = (def: ResourceDef): boolean =>
  resourceRoutes(def, 'detail').length > 0 || ROUTES.some((r) => r.path.startsWith(`${def.basePath}/detail/`));

/** A top-level route, or the nested one when a parent id is given (or when only a nested one exists). */
function pick(def: ResourceDef, kind: ResourceScreen['kind'], parentId: string | undefined) {
  const routes = resourceRoutes(def, kind);
  return (parentId ? routes.find((r) => r.screen.parent) : undefined) ?? routes.find((r) => !r.screen.parent) ?? routes[0];
}

/**
 * The list a record belongs to: under its parent's detail when it has one, else the resource's list route.
 * @example listPathOf(contactResource) // '/contact/list'; listPathOf(contactResource, '12') // '/client/detail/12'
 */
export function listPathOf(def: ResourceDef, parentId?: string): string {
  if (def.single !== undefined) return detailPathOf(def, def.single);
  const nested = parentId ? resourceRoutes(def, 'detail').find((r) => r.screen.parent) : undefined;
  if (nested?.route.parent && nested.screen.parent) return fillPath(nested.route.parent, { [nested.screen.parent.param]: parentId! });
  const route = resourceRoutes(def, 'list')[0];
  const detailParent = (resourceRoutes(def, 'detail')[0]?.route ?? ROUTES.find((r) => r.path.startsWith(`${def.basePath}/detail/`)))?.parent;
  return route?.route.path ?? detailParent ?? `${def.basePath}/list`;
}

/**
 * The list showing the records some filters find (a refusal's 「受注（3件）」 link): the resource's list
 * route with the filters in its query (`?filter={…}`), which the list applies on opening
 * (`linkedFilters`). Undefined when the resource has no list route of its own or does not take a filter.
 * @example filteredListPathOf(orderResource, { cl_id: '12' }) // '/orders/list/search?filter=%7B%22cl_id%22%3A%2212%22%7D'
 */
export function filteredListPathOf(def: ResourceDef, filters: RawFilters): string | undefined {
  const path = listPathOf(def);
  if (path.includes(':') || !ROUTES.some((r) => r.path === path) || !Object.keys(filters).every((name) => filterOf(def, name))) return undefined;
  return `${path}?${new URLSearchParams({ filter: JSON.stringify(filters) }).toString()}`;
}

/**
 * Where a record opens: its own detail route, or the one under its parent when a parent id is
 * given (or when the resource lives only under a parent).
 * @example detailPathOf(contactResource, 5) // '/contact/detail/5'; detailPathOf(contactResource, 5, '12') // '/client/detail/12/contact/5'
 */
export function detailPathOf(def: ResourceDef, id: string | number, parentId?: string): string {
  const chosen = pick(def, 'detail', parentId);
  if (!chosen) return `${def.basePath}/detail/${id}`;
  const params: Record<string, string> = { [chosen.screen.idParam ?? 'id']: String(id) };
  if (chosen.screen.parent) params[chosen.screen.parent.param] = parentId ?? '';
  return fillPath(chosen.route.path, params);
}

/** Where a new record is entered (under its parent when a parent id is given). */
export function newPathOf(def: ResourceDef, parentId?: string): string {
  const chosen = pick(def, 'new', parentId);
  if (!chosen) return `${def.basePath}/new`;
  return fillPath(chosen.route.path, chosen.screen.parent ? { [chosen.screen.parent.param]: parentId ?? '' } : {});
}

/** The parent id of a row for a resource that lives only under a parent (agreements under a customer). */
export function parentIdOf(def: ResourceDef, row: Record<string, unknown>): string | undefined {
  const routes = resourceRoutes(def, 'detail');
  if (routes.some((r) => !r.screen.parent)) return undefined;
  const field = routes[0]?.screen.parent?.field;
  const value = field ? row[`${def.prefix}${field}`] : undefined;
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/**
 * @example const rec = useRecordController(clientResource, '12'); const outcome = await rec.save(values);
 */
export function useRecordController(def: ResourceDef, id: string | undefined, options: { fixed?: Record<string, string> } = {}): RecordController {
  const { mutate: mutateGlobal } = useSWRConfig();
  const userId = useAtomValue(sessionAtom)?.userId;
  const fixedKey = JSON.stringify(options.fixed ?? {});
  const key = id ? ([callName(def.name, 'dtl'), { id }] as const) : null;
  const dtl = useSWR(key, callFetcher<Row>, { revalidateOnFocus: false, revalidateIfStale: true });
  const record = dtl.data?.[0];
  const { mutate } = dtl;
  const child = def.children;
  const rowsKey = child && id ? ([child.call, { [child.parentField]: id }] as const) : null;
  const rows = useSWR(rowsKey, callFetcher<Row>, { revalidateOnFocus: false, revalidateIfStale: true });
  const mutateRows = rows.mutate;
  const hasRows = rowsKey !== null;

  /**
   * Every answer of the resource's calls is stale after a write: its lists and counts, other records
   * a server rule re-computed (a ledger's balances), and summaries such as `bottle_balance` — all but
   * this record's own detail, which the save answered (or the delete removed). So are the masters, some
   * of which list records (warehouses, staff, the customers marked 代理店).
   */
  const refreshLists = useCallback(
    () =>
      mutateGlobal((k) => {
        if (!Array.isArray(k) || typeof k[0] !== 'string') return false;
        if (k[0] === 'master_lst') return true;
        if (!k[0].startsWith(`${def.name}_`)) return false;
        return !(k[0] === callName(def.name, 'dtl') && String((k[1] as { id?: unknown } | undefined)?.id) === id);
      }),
    [mutateGlobal, def.name, id],
  );

  const save = useCallback(
    async (values: Record<string, unknown>, childRows?: readonly Record<string, unknown>[]): Promise<SaveOutcome> => {
      const postData: Record<string, unknown> = fromForm(def, { ...values, ...(JSON.parse(fixedKey) as Record<string, string>) });
      if (child && childRows) postData[child.key] = childRows;
      try {
        const [row] = await call<Row>(callName(def.name, 'save'), id ? { id, postData } : { postData });
        const newId = idOf(def, row) ?? id;
        if (!row || !newId) return { ok: false, kind: 'error', message: MESSAGES.internal, fields: {} };
        if (id) await mutate([row], { revalidate: false });
        if (id && child && childRows) await mutateRows();
        for (const field of def.fields) if (field.remember && typeof values[field.name] === 'string') writeStored(field.remember, values[field.name]);
        void refreshLists();
        return { ok: true, row, id: newId, created: !id };
      } catch (e) {
        return { ok: false, ...refusalOf(e) };
      }
    },
    [def, id, child, mutate, mutateRows, refreshLists, fixedKey],
  );

  const remove = useCallback(async (): Promise<DeleteOutcome> => {
    if (!id) return { ok: false, message: MESSAGES.badId };
    try {
      await call(callName(def.name, 'del'), { id });
      void refreshLists();
      return { ok: true };
    } catch (e) {
      return { ok: false, message: messageOf(e) ?? MESSAGES.internal, usedBy: e instanceof CallError ? e.usedBy : undefined };
    }
  }, [def.name, id, refreshLists]);

  const reload = useCallback(async () => {
    const [latest] = await Promise.all([mutate(), hasRows ? mutateRows() : undefined]);
    return latest?.[0];
  }, [mutate, mutateRows, hasRows]);

  // Missing: answered 404, or answered without a row.
  const notFound = (dtl.error instanceof CallError && dtl.error.status === 404) || (Boolean(id) && !dtl.error && dtl.data !== undefined && !record);
  return {
    record,
    formValues: id ? (record ? toForm(def, record) : undefined) : newRecordValues(def, { userId, fixed: JSON.parse(fixedKey) as Record<string, string> }),
    children: child ? (id ? rows.data : NO_ROWS) : undefined,
    isLoading: Boolean(id) && (dtl.isLoading || rows.isLoading),
    error: dtl.error ? messageOf(dtl.error) : !id || dtl.isLoading || record ? undefined : dtl.data ? MESSAGES.notFound : undefined,
    notFound,
    save,
    remove,
    reload,
  };
}
