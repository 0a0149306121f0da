'use client';
/**
 * The client-only application: loads the runtime config, wires the fetcher to the session, and
 * shows the login page or the shell. Screens load lazily per route (components/screens/registry).
 */
import { useStore } from 'jotai';
import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { ConfirmHost, confirmDialog } from '@/components/ui/confirm-dialog';
import { showAlert, Toaster } from '@/components/ui/alert';
import { LoginPage } from '@/components/screens/login';
import { loadConfig } from '@/lib/api/config';
import { configureFetcher, onAuthError, onNotice } from '@/lib/api/fetcher';
import { logout, useSession } from '@/lib/auth';
import { navigate, setLeaveConfirm, useHashPath } from '@/lib/router';
import { authKeyAtom } from '@/lib/state/atoms';
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

  // Logged out: the only route is `/`, which shows the login page (spec §4).
  useEffect(() => {
    if (!loggedIn && path !== '/') void navigate('/', { replace: true, force: true });
  }, [loggedIn, path]);

  if (!ready) return null;
  return (
    <>
      {loggedIn ? <Shell /> : <LoginPage />}
      <Toaster />
      <ConfirmHost />
    </>
  );
}
