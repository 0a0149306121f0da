/**
 * The few things the resource screens take from the app shell (dialogs, router, loading overlay,
 * session), gathered in one place so the screens do not depend on the shell's exact shapes.
 */
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import type { RoleAreas } from '@/lib/permissions';
import { entryOpens } from '@/lib/client/auth/session';
import { areasAtom, sessionAtom, useTrack } from '@/lib/client/state/atoms';

export { useAlert, useConfirm, usePrompt } from '@/components/ui';
export { Link as AppLink, navigate, useLeaveGuard } from '@/lib/client/router';
export { RecordNotFound } from '@/components/shell/status-screens';

/** Shows the shell's loading overlay while `active` is true. */
export function useLoadingWhile(active: boolean): void {
  const track = useTrack();
  useEffect(() => {
    if (!active) return undefined;
    let done: () => void = () => undefined;
    void track(
      new Promise<void>((resolve) => {
        done = resolve;
      }),
    );
    return () => done();
  }, [active, track]);
}

/** The logged-in user's role areas as the server answered them (null until loaded). */
export function useAreas(): RoleAreas | null {
  return useAtomValue(areasAtom);
}

/** The logged-in user's id (null when logged out). */
export function useUserId(): number | null {
  return useAtomValue(sessionAtom)?.userId ?? null;
}

/** The logged-in user's e-mail address ('' when logged out). */
export function useSessionEmail(): string {
  return useAtomValue(sessionAtom)?.email ?? '';
}

/** Whether the logged-in user may open a path (the route's area and level, 管理 for admin-only ones), as the menus decide. */
export function useOpens(): (path: string) => boolean {
  const session = useAtomValue(sessionAtom);
  return (path) => entryOpens({ label: '', path }, session);
}
