import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { matchRoute, type Match } from '../../routes';
import { currentPath, holdLeaveGuard, splitPath, subscribePath } from './location';

const serverPath = () => '/';

/** The current hash path (`/client/list`, `/` when the hash is empty); re-renders on change. */
export function useHashPath(): string {
  return useSyncExternalStore(subscribePath, currentPath, serverPath);
}

/** The current path, its parts and the route it opens (`match` is undefined for an unknown path). */
export function useRoute(): { path: string; pathname: string; query: URLSearchParams; match: Match | undefined } {
  const path = useHashPath();
  return useMemo(() => ({ path, ...splitPath(path), match: matchRoute(path) }), [path]);
}

/**
 * Warns before leaving while `dirty`: in-app links, back/forward and typed hash URLs ask
 * MESSAGES.unsaved through the app's confirm dialog; closing or reloading the tab gets the
 * browser's own `beforeunload` prompt. Several forms may hold the guard at once.
 * @example useLeaveGuard(formState.isDirty && !formState.isSubmitSuccessful)
 */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => (dirty ? holdLeaveGuard() : undefined), [dirty]);
}
