/**
 * Headless logic of the role matrix (/user/role/): the roles from `role_lst`, the user's unsaved
 * edits on top (levels, names, added roles), saving each changed role with `role_save` and the
 * `modified` it was loaded with (a stale edit is refused with 409), deleting with `role_del`.
 * The screen (components/screens/user/role-matrix.tsx) only draws.
 */
import { useCallback, useMemo, useState } from 'react';
import { call } from '../api/fetcher';
import { refusalOf } from '../list/save-refusal';
import { messageOf } from '../list/use-list-controller';
import { ADMIN_ROLE, normalizeAreas, type Area, type Level } from '../../permissions';
import { LIMITS, MESSAGES } from '../../protocol';
import { useCall } from '../data/use-call';
import { cellText } from '../../resources/checks';

export interface MatrixRole {
  /** Stable key of the row: `id:{role_id}` or `new:{n}`. */
  key: string;
  id: number | null;
  /** The name being edited ('' for a new role not named yet). */
  name: string;
  /** The name as saved ('' for a new role). */
  savedName: string;
  areas: Record<Area, Level>;
  modified: string;
  /** 管理: every area at write, fixed name, never deleted. */
  fixed: boolean;
  changed: boolean;
}

interface Draft {
  name?: string;
  areas?: Partial<Record<Area, Level>>;
}

export type MatrixOutcome =
  | { ok: true; saved: number }
  | { ok: false; kind: 'conflict' | 'error'; message: string; role: string; fields?: Record<string, string> };

export interface RoleMatrix {
  roles: MatrixRole[];
  isLoading: boolean;
  error: string | undefined;
  dirty: boolean;
  setLevel: (key: string, area: Area, level: Level) => void;
  rename: (key: string, name: string) => void;
  /** Adds an unsaved role row with no areas; answers its key. */
  add: () => string;
  /** Deletes a saved role on the server, or drops an unsaved one. */
  remove: (key: string) => Promise<{ ok: true } | { ok: false; message: string }>;
  /** Saves every changed role in order; stops at the first refusal. */
  save: () => Promise<MatrixOutcome>;
  /** Drops every unsaved edit and reloads the roles. */
  reload: () => Promise<void>;
}

const QUERY = { n: LIMITS.maxPageSize, p: 1 };

/**
 * @example const m = useRoleMatrix(); m.setLevel('id:3', 'client', 'write'); await m.save();
 */
export function useRoleMatrix(): RoleMatrix {
  const lst = useCall('role_lst', QUERY, { revalidateOnFocus: false });
  const { mutate } = lst;
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [added, setAdded] = useState<string[]>([]);
  const [counter, setCounter] = useState(0);

  const roles = useMemo(() => {
    const saved = (lst.data ?? []).map((row): MatrixRole => {
      const key = `id:${String(row.role_id)}`;
      const draft = drafts[key] ?? {};
      const savedName = cellText(row.role_name ?? '');
      const stored = normalizeAreas(row.role_areas);
      const areas = { ...stored, ...draft.areas };
      const name = draft.name ?? savedName;
      const changed = name !== savedName || (Object.keys(areas) as Area[]).some((a) => areas[a] !== stored[a]);
      return { key, id: row.role_id, name, savedName, areas, modified: cellText(row.modified ?? ''), fixed: savedName === ADMIN_ROLE, changed };
    });
    const fresh = added.map((key): MatrixRole => {
      const draft = drafts[key] ?? {};
      return { key, id: null, name: draft.name ?? '', savedName: '', areas: { ...normalizeAreas({}), ...draft.areas }, modified: '', fixed: false, changed: true };
    });
    return [...saved, ...fresh];
  }, [lst.data, drafts, added]);

  const edit = useCallback((key: string, change: (draft: Draft) => Draft) => setDrafts((all) => ({ ...all, [key]: change(all[key] ?? {}) })), []);
  const setLevel = useCallback((key: string, area: Area, level: Level) => edit(key, (d) => ({ ...d, areas: { ...d.areas, [area]: level } })), [edit]);
  const rename = useCallback((key: string, name: string) => edit(key, (d) => ({ ...d, name })), [edit]);
  const forget = useCallback((key: string) => {
    setDrafts(({ [key]: _dropped, ...rest }) => rest);
    setAdded((keys) => keys.filter((k) => k !== key));
  }, []);

  const add = useCallback(() => {
    const key = `new:${counter + 1}`;
    setCounter((n) => n + 1);
    setAdded((keys) => [...keys, key]);
    return key;
  }, [counter]);

  const remove = useCallback(
    async (key: string): Promise<{ ok: true } | { ok: false; message: string }> => {
      const role = roles.find((r) => r.key === key);
      if (!role) return { ok: false, message: MESSAGES.notFound };
      if (role.id === null) {
        forget(key);
        return { ok: true };
      }
      try {
        await call('role_del', { id: role.id });
      } catch (e) {
        return { ok: false, message: messageOf(e) ?? MESSAGES.internal };
      }
      forget(key);
      await mutate();
      return { ok: true };
    },
    [roles, forget, mutate],
  );

  const save = useCallback(async (): Promise<MatrixOutcome> => {
    const done: string[] = [];
    try {
      for (const role of roles.filter((r) => r.changed)) {
        const postData = { name: role.name, areas: JSON.stringify(role.areas), ...(role.id !== null ? { modified: role.modified } : {}) };
        try {
          const [row] = await call('role_save', role.id !== null ? { id: role.id, postData } : { postData });
          if (!row) return { ok: false, kind: 'error', message: MESSAGES.network, role: role.name };
        } catch (e) {
          const label = role.name || role.savedName || '新しい権限';
          const refusal = refusalOf(e);
          return { ok: false, kind: refusal.kind === 'conflict' ? 'conflict' : 'error', message: refusal.message, role: label, fields: refusal.fields };
        }
        done.push(role.key);
      }
      return { ok: true, saved: done.length };
    } finally {
      // Reload first, then drop the saved edits: the rows never flash their old values.
      if (done.length > 0) {
        await mutate();
        done.forEach(forget);
      }
    }
  }, [roles, forget, mutate]);

  const reload = useCallback(async () => {
    setDrafts({});
    setAdded([]);
    await mutate();
  }, [mutate]);

  return {
    roles,
    isLoading: lst.isLoading,
    error: lst.error ? messageOf(lst.error) : undefined,
    dirty: roles.some((r) => r.changed),
    setLevel, rename, add, remove, save, reload,
  };
}
