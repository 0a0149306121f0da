/**
 * Headless detail logic of one record: loads `{r}_dtl`, saves with `{r}_save` (carrying the
 * `modified` it was loaded with, so a stale edit is refused instead of overwriting), deletes
 * with `{r}_del`. The form on it is the one form controller (lib/client/form `useRecordForm`);
 * the screens only draw.
 */
import { useCallback } from 'react';
import { useAtomValue } from 'jotai';
import { useSWRConfig } from 'swr';
import { call, CallError } from '../api/fetcher';
import { MESSAGES, type UsedBy } from '../../protocol';
import { childRowsCall, resourceCall } from '../../protocol/calls';
import type { ResourceDef } from '../../resources/types';
import { sessionAtom } from '../state/atoms';
import { writeStored } from '../state/storage';
import { fromForm, idOf, toForm, type FormRecord } from '../../list/record-mapper';
import { newRecordValues } from './new-record-values';
import { refusalOf, type Refusal } from './save-refusal';
import { messageOf, type Row } from './use-list-controller';
import { useCall } from '../data/use-call';

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

/**
 * @example const rec = useRecordController(clientResource, '12'); const outcome = await rec.save(values);
 */
export function useRecordController(def: ResourceDef, id: string | undefined, options: { fixed?: Record<string, string> } = {}): RecordController {
  const { mutate: mutateGlobal } = useSWRConfig();
  const userId = useAtomValue(sessionAtom)?.userId;
  const fixedKey = JSON.stringify(options.fixed ?? {});
  const dtl = useCall(resourceCall(def, 'dtl'), id ? { id } : null, { revalidateOnFocus: false, revalidateIfStale: true });
  const record = dtl.data?.[0];
  const { mutate } = dtl;
  const child = def.children;
  const rowsQuery = child && id ? { [child.parentField]: id } : null;
  const rows = useCall(childRowsCall(child ?? { call: '' }), rowsQuery, { revalidateOnFocus: false, revalidateIfStale: true });
  const mutateRows = rows.mutate;
  const hasRows = rowsQuery !== null;

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
        return !(k[0] === resourceCall(def, 'dtl') && String((k[1] as { id?: unknown } | undefined)?.id) === id);
      }),
    [mutateGlobal, def, id],
  );

  const save = useCallback(
    async (values: Record<string, unknown>, childRows?: readonly Record<string, unknown>[]): Promise<SaveOutcome> => {
      const postData: Record<string, unknown> = fromForm(def, { ...values, ...(JSON.parse(fixedKey) as Record<string, string>) });
      if (child && childRows) postData[child.key] = childRows;
      try {
        const [row] = await call(resourceCall(def, 'save'), id ? { id, postData } : { postData });
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
      await call(resourceCall(def, 'del'), { id });
      void refreshLists();
      return { ok: true };
    } catch (e) {
      return { ok: false, message: messageOf(e) ?? MESSAGES.internal, usedBy: e instanceof CallError ? e.usedBy : undefined };
    }
  }, [def, id, refreshLists]);

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
