'use client';
/**
 * The client-only application: loads the runtime config, wires the fetcher to the session, and
 * shows the login page or the shell. Screens load lazily per route (components/screens/registry).
 */
import { useAtomValue, useStore } from 'jotai';
import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { ConfirmHost, confirmDialog } from '@/components/ui/confirm-dialog';
import { showAlert, Toaster } from '@/components/ui/alert';
import { LoginPage } from '@/components/screens/login';
import { loadConfig } from '@/lib/client/api/config';
import { configureFetcher, onAuthError, onNotice } from '@/lib/client/api/fetcher';
import { loadPermissions, logout, useSession } from '@/lib/client/auth';
import { navigate, setLeaveConfirm, useHashPath } from '@/lib/client/router';
import { areasAtom, authKeyAtom } from '@/lib/client/state/atoms';
import { buttonClass } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { installAnnouncer } from './announcer';
import { Shell } from './shell';

const noSubscribe = () => () => undefined;

/** Renders nothing on the server (the export pre-renders an empty page), the app in the browser. */
export default function App() {
  const inBrowser = useSyncExternalStore(noSubscribe, () => true, () => false);
  // Layout effects run before Next's passive ones: our announcer is in place before Next looks for one.
  useLayoutEffect(installAnnouncer, []);
  return inBrowser ? <ClientApp /> : null;
}

function ClientApp() {
  const store = useStore();
  // Before any screen renders: every call carries the session's auth key.
  useState(() => configureFetcher({ authKey: () => store.get(authKeyAtom) }));
  const [ready, setReady] = useState(false);
  const { loggedIn } = useSession();
  const areas = useAtomValue(areasAtom);
  const [permissionsFailed, setPermissionsFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const path = useHashPath();

  useEffect(() => {
    let live = true;
    void loadConfig().finally(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const offAuth = onAuthError(() => void logout({ remote: false, store }));
    const offNotice = onNotice((message) => showAlert(message, 'warning'));
    setLeaveConfirm((message) =>
      confirmDialog(message, { title: '保存されていない変更', confirmLabel: 'このページを離れる', cancelLabel: '編集を続ける' }),
    );
    return () => {
      offAuth();
      offNotice();
    };
  }, [store]);

  // After login and at every start-up: what the role may do, as the server checks it now.
  useEffect(() => {
    if (!ready || !loggedIn || areas) return undefined;
    let live = true;
    setPermissionsFailed(false);
    loadPermissions(store).then(
      (ok) => live && setPermissionsFailed(!ok),
      () => live && setPermissionsFailed(true),
    );
    return () => {
      live = false;
    };
  }, [ready, loggedIn, areas, store, attempt]);

  // Logged out: the only route is `/`, which shows the login page (spec §4).
  useEffect(() => {
    if (!loggedIn && path !== '/') void navigate('/', { replace: true, force: true });
  }, [loggedIn, path]);

  if (!ready) return null;
  return (
    <>
      {!loggedIn ? <LoginPage /> : areas ? <Shell /> : <PermissionsPending failed={permissionsFailed} onRetry={() => setAttempt((n) => n + 1)} />}
      <Toaster />
      <ConfirmHost />
    </>
  );
}

/** Before the shell: the role's areas are on their way (or could not be loaded). */
function PermissionsPending({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  if (!failed) {
    return (
      <div role="status" className="hod-delayed-fade flex h-dvh items-center justify-center gap-[10px] text-ink-soft">
        <Spinner size={20} />
        <span>権限を確認しています…</span>
      </div>
    );
  }
  return (
    <div role="alert" className="flex h-dvh flex-col items-center justify-center gap-[12px] text-[1.4rem]">
      <p>権限を読み込めませんでした。通信環境を確認してから、もう一度お試しください。</p>
      <div className="flex gap-[8px]">
        <button type="button" onClick={onRetry} className={buttonClass('primary')}>
          再読み込み
        </button>
        <button type="button" onClick={() => void logout()} className={buttonClass('secondary')}>
          ログアウト
        </button>
      </div>
    </div>
  );
}
