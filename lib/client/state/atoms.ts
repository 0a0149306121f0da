/**
 * Client state as jotai atoms (DESIGN §4). Atoms the spec persists read and write local storage
 * under `KEYS` (lib/state/storage.ts); they read lazily on first use, so tests can seed storage
 * before rendering, and follow other tabs through the `storage` event (a logout in one tab logs
 * every tab out).
 */
import { atom, useAtomValue, useSetAtom, type WritableAtom } from 'jotai';
import { useCallback, useMemo } from 'react';
import type { RoleAreas } from '../../permissions';
import { readStored, writeStored } from './storage';
import { KEYS } from '../../storage-keys';

/** Write this to a persistent atom to drop its stored value and go back to the default. */
export const RESET_STORED: unique symbol = Symbol('reset-stored');
const SYNC: unique symbol = Symbol('sync-from-storage');

export type PersistentAction<T> = T | typeof RESET_STORED | ((prev: T) => T);
type InternalAction<T> = PersistentAction<T> | { [SYNC]: T };
export type PersistentAtom<T> = WritableAtom<T, [PersistentAction<T>], void>;

/**
 * An atom kept in local storage under `key` (JSON, via readStored/writeStored).
 * @example const perPageAtom = persistentAtom(listKey('client', 'perPage'), 10)
 */
export function persistentAtom<T>(key: string, initial: T): PersistentAtom<T> {
  const base = atom<{ value: T } | null>(null);
  const result = atom(
    (get) => {
      const held = get(base);
      return held ? held.value : readStored<T>(key, initial);
    },
    (get, set, action: InternalAction<T>) => {
      if (typeof action === 'object' && action !== null && SYNC in action) {
        set(base, { value: action[SYNC] });
        return;
      }
      if (action === RESET_STORED) {
        if (typeof window !== 'undefined') {
          try {
            window.localStorage.removeItem(key);
          } catch {
            // Storage disabled: nothing to remove.
          }
        }
        set(base, { value: initial });
        return;
      }
      const value = typeof action === 'function' ? (action as (prev: T) => T)(get(result)) : action;
      writeStored(key, value);
      set(base, { value });
    },
  );
  result.onMount = (setAtom) => {
    if (typeof window === 'undefined') return undefined;
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== window.localStorage || (event.key !== null && event.key !== key)) return;
      setAtom({ [SYNC]: readStored<T>(key, initial) });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  };
  return result;
}

// ── Session (spec §3 logged-in user; §9 persisted: auth key, user name, role, user id) ──
export const authKeyAtom = persistentAtom<string | null>(KEYS.authKey, null);
export const userNameAtom = persistentAtom<string>(KEYS.userName, '');
export const userRoleAtom = persistentAtom<string>(KEYS.userRole, '');
export const userIdAtom = persistentAtom<number | null>(KEYS.userId, null);
export const userEmailAtom = persistentAtom<string>(KEYS.userEmail, '');

/** Every atom that holds user data; logout resets them all. */
export const SESSION_ATOMS = [authKeyAtom, userNameAtom, userRoleAtom, userIdAtom, userEmailAtom] as const;

/**
 * The caller's areas as the server answered `role_mine` for one auth key (never persisted: loaded
 * after login and at every start-up, so a changed role shows on the next page load).
 */
export interface LoadedPermissions {
  authKey: string;
  areas: RoleAreas;
}
export const permissionsAtom = atom<LoadedPermissions | null>(null);

/** The areas of the current session's role, or null until they are loaded for this auth key. */
export const areasAtom = atom<RoleAreas | null>((get) => {
  const loaded = get(permissionsAtom);
  const authKey = get(authKeyAtom);
  return loaded && authKey && loaded.authKey === authKey ? loaded.areas : null;
});

export interface SessionState {
  authKey: string;
  userName: string;
  role: string;
  userId: number | null;
  email: string;
  /** What the role may do, area by area (null until `role_mine` answered). */
  areas: RoleAreas | null;
}

/** The logged-in user, or null when logged out. */
export const sessionAtom = atom<SessionState | null>((get) => {
  const authKey = get(authKeyAtom);
  if (!authKey) return null;
  return { authKey, userName: get(userNameAtom), role: get(userRoleAtom), userId: get(userIdAtom), email: get(userEmailAtom), areas: get(areasAtom) };
});

// ── UI flags (spec §3/§4) ──
/** Side menu open (180px) or closed (40px). Open by default. */
export const sideMenuOpenAtom = persistentAtom<boolean>(KEYS.sideMenuOpen, true);
/** The order search's detail-search box open flag. */
export const detailSearchOpenAtom = persistentAtom<boolean>(KEYS.detailSearchOpen, false);

// ── Loading overlay ──
/** How many tracked operations are running; the overlay shows while > 0. */
export const loadingCountAtom = atom(0);

/**
 * The loading overlay: `track(promise)` shows it until the promise settles (nested calls count).
 * @example const { track } = useLoading(); const rows = await track(call('client_lst', q));
 */
export function useLoading(): { loading: boolean; track: <T>(work: Promise<T>) => Promise<T> } {
  const count = useAtomValue(loadingCountAtom);
  const track = useTrack();
  return useMemo(() => ({ loading: count > 0, track }), [count, track]);
}

/** Only `track` from useLoading, without re-rendering when the overlay count changes. */
export function useTrack(): <T>(work: Promise<T>) => Promise<T> {
  const setCount = useSetAtom(loadingCountAtom);
  return useCallback(
    <T,>(work: Promise<T>): Promise<T> => {
      setCount((n) => n + 1);
      return work.finally(() => setCount((n) => Math.max(0, n - 1)));
    },
    [setCount],
  );
}
