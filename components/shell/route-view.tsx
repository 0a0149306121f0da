'use client';
import { useAtomValue } from 'jotai';
import { Suspense } from 'react';
import { forgetScreen, screenElement } from '@/components/screens/registry';
import { Spinner } from '@/components/ui/spinner';
import { routeAccess } from '@/lib/client/auth';
import { useRoute } from '@/lib/client/router';
import { sessionAtom } from '@/lib/client/state/atoms';
import { ScreenBoundary } from './screen-boundary';
import { Forbidden, NotFound } from './status-screens';

function ScreenPending() {
  return (
    <div className="hod-delayed-fade flex items-center gap-[10px] p-[24px] text-ink-soft">
      <Spinner size={20} />
      <span>画面を読み込んでいます…</span>
    </div>
  );
}

/** The screen of the current route: not found, not allowed, or the lazily loaded screen. */
export function RouteView() {
  const { pathname, match } = useRoute();
  const session = useAtomValue(sessionAtom);
  if (!match) return <NotFound />;
  if (routeAccess(match, session) === 'forbidden') return <Forbidden route={match.route} />;
  const screen = match.route.screen;
  return (
    <ScreenBoundary
      key={pathname}
      title={match.route.title}
      onRetry={() => forgetScreen(screen)}
      render={() => <Suspense fallback={<ScreenPending />}>{screenElement(match)}</Suspense>}
    />
  );
}
