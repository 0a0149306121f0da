/**
 * Saved searches of one list, kept on the server (`search_*` calls) so they follow the user
 * to any browser. Selecting one loads it (`search_dtl`) and hands it to the list controller.
 */
import { useCallback, useMemo, useState } from 'react';
import { call } from '../api/fetcher';
import type { SavedSearch } from '../../protocol';
import type { ResourceDef } from '../../resources/types';
import type { SavedSearchPayload } from '../../list/list-state';
import { messageOf } from './use-list-controller';
import { useCall } from '../data/use-call';

export interface SavedSearchItem {
  srch_id: number;
  srch_name: string;
}

export interface SavedSearchesController {
  items: SavedSearchItem[];
  /** The selected saved search's id as the `<select>` value ('' = none). */
  selectedId: string;
  isLoading: boolean;
  busy: boolean;
  error: string | undefined;
  /** Selects a saved search: loads it and applies it to the list ('' resets the selector only). */
  select: (id: string) => Promise<void>;
  /** Saves the current conditions under a name; overwrites the selected one when the name is the same. */
  save: (name: string) => Promise<boolean>;
  /** Deletes the selected saved search, reloads the list of saved searches and resets the selector. */
  remove: () => Promise<boolean>;
}

export interface SavedSearchesOptions {
  /** Applies a loaded saved search to the list (the list controller's `applySavedSearch`). */
  onApply: (saved: Partial<SavedSearch>) => void;
  /** The list's current conditions (the list controller's `currentQueryForSave`). */
  current: () => SavedSearchPayload;
  /** Shows the "saved" alert (MESSAGES.searchSaved). */
  onSaved?: () => void | Promise<void>;
}

/**
 * @example const saved = useSavedSearches(def, { onApply: list.applySavedSearch, current: list.currentQueryForSave });
 */
export function useSavedSearches(def: ResourceDef, options: SavedSearchesOptions): SavedSearchesController {
  const lst = useCall('search_lst', { srch_tbl: def.name }, { revalidateOnFocus: false });
  const [selectedId, setSelectedId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const { onApply, current, onSaved } = options;
  const { mutate } = lst;
  const items = useMemo(() => lst.data ?? [], [lst.data]);

  const select = useCallback(
    async (id: string) => {
      setSelectedId(id);
      setError(undefined);
      if (!id) return;
      setBusy(true);
      try {
        const [saved] = await call('search_dtl', { srch_id: id });
        if (saved) onApply(saved);
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setBusy(false);
      }
    },
    [onApply],
  );

  const save = useCallback(
    async (name: string) => {
      const srchName = name.trim();
      if (!srchName) {
        setError('保存する検索条件の名前を入力してください。');
        return false;
      }
      const same = items.find((i) => String(i.srch_id) === selectedId && i.srch_name === srchName);
      setBusy(true);
      setError(undefined);
      try {
        const [saved] = await call('search_save', {
          ...(same ? { srch_id: same.srch_id } : {}),
          srch_name: srchName,
          srch_tbl: def.name,
          ...current(),
        });
        await mutate();
        if (saved?.srch_id !== undefined) setSelectedId(String(saved.srch_id));
        await onSaved?.();
        return true;
      } catch (e) {
        setError(messageOf(e));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [items, selectedId, def.name, current, mutate, onSaved],
  );

  const remove = useCallback(async () => {
    if (!selectedId) return false;
    setBusy(true);
    setError(undefined);
    try {
      await call('search_sync', { srch_id: selectedId });
      // The spec reloads the page here; reloading the saved searches and resetting the selector is the same to the user.
      setSelectedId('');
      await mutate();
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, [selectedId, mutate]);

  return {
    items,
    selectedId,
    isLoading: lst.isLoading,
    busy,
    error: error ?? messageOf(lst.error),
    select,
    save,
    remove,
  };
}
