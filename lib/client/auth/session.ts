/**
 * The session: log in, log out, and who may open which route. State lives in the jotai atoms of
 * lib/state/atoms.ts (persisted under KEYS); these functions work on a store so the fetcher's
 * auth-error callback can log out from outside React.
 */
import { getDefaultStore, useAtomValue, useStore } from 'jotai';
import { useCallback } from 'react';
import { call, logoutCall } from '../api/fetcher';
import { can, isAdmin, isAdminOnlyArea, type RoleAreas } from '../../permissions';
import type { LoginUser } from '../../protocol';
import { HEADER_MENUS, matchRoute, type Match, type MenuEntry } from '../../routes';
import { navigate } from '../router/location';
import {
  authKeyAtom, detailSearchOpenAtom, permissionsAtom, RESET_STORED, sessionAtom, sideMenuOpenAtom,
  userEmailAtom, userIdAtom, userNameAtom, userRoleAtom, type SessionState,
} from '../state/atoms';
import { clearStored } from '../state/storage';

export type Store = ReturnType<typeof getDefaultStore>;

const logoutListeners = new Set<() => void>();

/**
 * Runs `listener` after every logout (user data already cleared): drop in-memory caches here.
 * @example useEffect(() => onLogout(() => mutate(() => true, undefined, { revalidate: false })), [])
 */
export function onLogout(listener: () => void): () => void {
  logoutListeners.add(listener);
  return () => {
    logoutListeners.delete(listener);
  };
}

/** Stores a user record returned by the login call (atoms and local storage). */
export function applyLogin(user: LoginUser, store: Store = getDefaultStore()): void {
  store.set(userNameAtom, user.user_name ?? '');
  store.set(userRoleAtom, user.user_role ?? '');
  store.set(userIdAtom, typeof user.user_id === 'number' ? user.user_id : Number(user.user_id) || null);
  store.set(userEmailAtom, user.user_email ?? '');
  // Last: the shell switches from the login page to the app when the key appears.
  store.set(authKeyAtom, user.auth_key);
}

/**
 * Loads the session's role and areas from the server (`role_mine`) into the atoms; answers whether
 * they arrived (false on a network failure; an auth-key error logs out through the fetcher).
 * @example if (!(await loadPermissions())) showRetry()
 */
export async function loadPermissions(store: Store = getDefaultStore()): Promise<boolean> {
  const authKey = store.get(authKeyAtom);
  if (!authKey) return false;
  const [mine] = await call('role_mine');
  if (!mine || store.get(authKeyAtom) !== authKey) return false;
  if (store.get(userRoleAtom) !== mine.user_role) store.set(userRoleAtom, mine.user_role);
  if (store.get(userNameAtom) !== mine.user_name) store.set(userNameAtom, mine.user_name);
  store.set(permissionsAtom, { authKey, areas: mine.areas });
  return true;
}

let pending: Promise<void> | null = null;

export interface LogoutOptions {
  /** Tell the server to delete the auth key (default). False when the key is already invalid. */
  remote?: boolean;
  store?: Store;
}

/**
 * Logs out: asks the server to delete the auth key, clears every stored user datum and list
 * preference, resets the atoms and routes to `/` (the login page). Concurrent calls share one run,
 * so an auth-key error answered to the logout call itself cannot loop.
 */
export function logout(options: LogoutOptions = {}): Promise<void> {
  if (pending) return pending;
  const store = options.store ?? getDefaultStore();
  pending = (async () => {
    try {
      if (options.remote !== false && store.get(authKeyAtom)) await logoutCall();
    } finally {
      clearStored();
      store.set(authKeyAtom, RESET_STORED);
      store.set(userNameAtom, RESET_STORED);
      store.set(userRoleAtom, RESET_STORED);
      store.set(userIdAtom, RESET_STORED);
      store.set(userEmailAtom, RESET_STORED);
      store.set(sideMenuOpenAtom, RESET_STORED);
      store.set(detailSearchOpenAtom, RESET_STORED);
      store.set(permissionsAtom, null);
      logoutListeners.forEach((listener) => {
        try {
          listener();
        } catch {
          // One cache failing to clear must not keep the user logged in.
        }
      });
      await navigate('/', { replace: true, force: true });
      // Screens unmount after this; anything they persisted on the way out goes too.
      setTimeout(() => {
        if (!store.get(authKeyAtom)) clearStored();
      }, 0);
      pending = null;
    }
  })();
  return pending;
}

export interface UseSession extends Partial<SessionState> {
  loggedIn: boolean;
  session: SessionState | null;
  role: string;
  userName: string;
  userId: number | null;
  /** The role's areas loaded from the server (null until loaded). */
  areas: RoleAreas | null;
  isAdmin: boolean;
  logout: () => Promise<void>;
}

/**
 * The logged-in user and `logout`.
 * @example const { loggedIn, userName, role, userId, isAdmin, logout } = useSession();
 */
export function useSession(): UseSession {
  const session = useAtomValue(sessionAtom);
  const store = useStore();
  const doLogout = useCallback(() => logout({ store }), [store]);
  return {
    ...session,
    session,
    loggedIn: session !== null,
    role: session?.role ?? '',
    userName: session?.userName ?? '',
    userId: session?.userId ?? null,
    areas: session?.areas ?? null,
    isAdmin: isAdmin(session?.role),
    logout: doLogout,
  };
}

/** The user's own profile route (the user menu's `/user/detail/self`). */
export const profilePath = (userId: number | null): string => `/user/detail/${userId ?? ''}`;

/** Replaces a menu path's `self` segment by the user's id. */
export const resolveMenuPath = (path: string, userId: number | null): string =>
  path.replace(/\/self(?=$|[/?])/, `/${userId ?? ''}`);

export type Access = 'ok' | 'forbidden';

/**
 * Whether the session may open a route (the server enforces the same rules on every call):
 * a route of an area only 管理 holds (`ADMIN_ONLY_AREAS`) needs 管理; a route with an area needs that level in the role's
 * loaded areas.
 * A route without an area (a user's profile) is open, and the server answers for its record.
 */
export function routeAccess(match: Match, session: Pick<SessionState, 'role' | 'areas'> | null): Access {
  const { route } = match;
  if (isAdminOnlyArea(route.area) && !isAdmin(session?.role)) return 'forbidden';
  if (route.area && !can(session?.areas, route.area, route.level)) return 'forbidden';
  if (route.needs && !can(session?.areas, route.needs.area, route.needs.level)) return 'forbidden';
  return 'ok';
}

/**
 * Whether a menu entry shows for the session: the route it opens must be open to the session (`routeAccess`: 管理's
 * areas need 管理, spec §6), and so must what the entry `needs` beside it.
 * @example entryOpens({ label: '売上伝票', path: '/sales/list' }, session) // false for 配送
 */
export function entryOpens(entry: MenuEntry, session: Pick<SessionState, 'role' | 'areas'> | null): boolean {
  if (entry.needs && !can(session?.areas, entry.needs.area, entry.needs.level)) return false;
  const match = matchRoute(entry.path);
  return !match || routeAccess(match, session) === 'ok';
}

/** Who a menu is drawn for. */
type MenuSession = Pick<SessionState, 'role' | 'userId' | 'areas'>;

/**
 * Entries a session sees in a header menu (spec §6): admin-only entries need 管理 and each entry's
 * route (and what it `needs` beside it) must open for the role's loaded areas — in every menu.
 */
export function visibleEntries(entries: readonly MenuEntry[], session: MenuSession): MenuEntry[] {
  return entries
    .map((entry) => ({ ...entry, path: resolveMenuPath(entry.path, session.userId) }))
    .filter((entry) => entryOpens(entry, session));
}

/** The header's work menus (入力・売上・システム) that hold an entry the session may open, with those entries. */
export function workMenus(session: MenuSession): { key: string; label: string; holds: string; entries: MenuEntry[] }[] {
  return HEADER_MENUS.filter((menu) => menu.key !== 'user')
    .map((menu) => ({ key: menu.key, label: menu.label, holds: menu.holds ?? '', entries: visibleEntries(menu.entries, session) }))
    .filter((menu) => menu.entries.length > 0);
}

/**
 * The home page's sentence on where screens are: it names only the header menus the session has.
 * @example menuGuide([{ label: '入力', holds: '取込・出力' }, { label: 'システム', holds: '設定' }]) // 「…上部の「入力」「システム」から取込・出力・設定の画面を開けます。」
 */
export function menuGuide(menus: readonly { label: string; holds: string }[]): string {
  if (menus.length === 0) return '左のメニューで日々の業務画面を開けます。';
  return `左のメニューで日々の業務画面を、上部の${menus.map((m) => `「${m.label}」`).join('')}から${menus.map((m) => m.holds).join('・')}の画面を開けます。`;
}
