/**
 * Headless detail logic of one record: loads `{r}_dtl`, saves with `{r}_save` (carrying the
 * `modified` it was loaded with, so a stale edit is refused instead of overwriting), deletes
 * with `{r}_del`. The detail form only draws and reacts to the outcomes.
 */
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { call, CallError } from '../api/fetcher';
import { callName, MESSAGES } from '../protocol';
import { ROUTES } from '../routes';
import type { ResourceDef } from '../resources/types';
import { fromForm, idOf, toForm, type FormRecord } from './record-mapper';
import { callFetcher, messageOf, type Row } from './use-list-controller';

export type SaveOutcome =
  | { ok: true; row: Row; id: string; created: boolean }
  | { ok: false; kind: 'conflict' | 'fields' | 'error'; message: string; fields?: Record<string, string> };

export type DeleteOutcome = { ok: true } | { ok: false; message: string };

export interface RecordController {
  /** The answer row, or undefined for a new record or while loading. */
  record: Row | undefined;
  /** The record as form values (empty values for a new record). */
  formValues: FormRecord | undefined;
  isLoading: boolean;
  error: string | undefined;
  notFound: boolean;
  save: (values: Record<string, unknown>) => Promise<SaveOutcome>;
  remove: () => Promise<DeleteOutcome>;
  /** Reloads the record from the server (after a conflict) and returns the latest row. */
  reload: () => Promise<Row | undefined>;
}

/** The list route of a resource: its list route, else its detail's breadcrumb parent, else `{basePath}/list`. */
export function listPathOf(def: ResourceDef): string {
  const route = ROUTES.find((r) => r.screen.kind === 'list' && 'resource' in r.screen && r.screen.resource === def.name);
  const detailParent = ROUTES.find((r) => r.path.startsWith(`${def.basePath}/detail/`) && r.parent)?.parent;
  return route?.path ?? detailParent ?? `${def.basePath}/list`;
}

export const detailPathOf = (def: ResourceDef, id: string | number): string => `${def.basePath}/detail/${id}`;
export const newPathOf = (def: ResourceDef): string => `${def.basePath}/new`;

/**
 * @example const rec = useRecordController(clientResource, '12'); const outcome = await rec.save(values);
 */
export function useRecordController(def: ResourceDef, id: string | undefined): RecordController {
  const { mutate: mutateGlobal } = useSWRConfig();
  const key = id ? ([callName(def.name, 'dtl'), { id }] as const) : null;
  const dtl = useSWR(key, callFetcher<Row>, { revalidateOnFocus: false, revalidateIfStale: true });
  const record = dtl.data?.[0];
  const { mutate } = dtl;

  /** Lists of the resource are stale after a write. */
  const refreshLists = useCallback(
    () => mutateGlobal((k) => Array.isArray(k) && (k[0] === callName(def.name, 'lst') || k[0] === callName(def.name, 'cnt'))),
    [mutateGlobal, def.name],
  );

  const save = useCallback(
    async (values: Record<string, unknown>): Promise<SaveOutcome> => {
      const postData = fromForm(def, values);
      try {
        const [row] = await call<Row>(callName(def.name, 'save'), id ? { id, postData } : { postData });
        const newId = idOf(def, row) ?? id;
        if (!row || !newId) return { ok: false, kind: 'error', message: MESSAGES.internal };
        if (id) await mutate([row], { revalidate: false });
        void refreshLists();
        return { ok: true, row, id: newId, created: !id };
      } catch (e) {
        if (e instanceof CallError && e.status === 409) return { ok: false, kind: 'conflict', message: MESSAGES.conflict };
        if (e instanceof CallError && e.status === 400 && e.fields && Object.keys(e.fields).length > 0) {
          return { ok: false, kind: 'fields', message: e.message, fields: e.fields };
        }
        return { ok: false, kind: 'error', message: messageOf(e) ?? MESSAGES.internal };
      }
    },
    [def, id, mutate, refreshLists],
  );

  const remove = useCallback(async (): Promise<DeleteOutcome> => {
    if (!id) return { ok: false, message: MESSAGES.badId };
    try {
      await call(callName(def.name, 'del'), { id });
      void refreshLists();
      return { ok: true };
    } catch (e) {
      return { ok: false, message: messageOf(e) ?? MESSAGES.internal };
    }
  }, [def.name, id, refreshLists]);

  const reload = useCallback(async () => (await mutate())?.[0], [mutate]);

  const notFound = dtl.error instanceof CallError && dtl.error.status === 404;
  return {
    record,
    formValues: id ? (record ? toForm(def, record) : undefined) : toForm(def, undefined),
    isLoading: Boolean(id) && dtl.isLoading,
    error: dtl.error ? messageOf(dtl.error) : !id || dtl.isLoading || record ? undefined : dtl.data ? MESSAGES.notFound : undefined,
    notFound,
    save,
    remove,
    reload,
  };
}
