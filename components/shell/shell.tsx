'use client';
import { useEffect, useRef } from 'react';
import { announce } from './announcer';
import { useRoute } from '@/lib/client/router';
import { Breadcrumbs } from './breadcrumbs';
import { Header } from './header';
import { LoadingOverlay } from './loading-overlay';
import { RouteView } from './route-view';
import { SideMenu } from './side-menu';

const APP_NAME = '宅配水 業務管理';

/** The logged-in frame: header, side menu, breadcrumbs, the screen in `<main>`, the loading overlay. */
export function Shell() {
  const { pathname, match } = useRoute();
  const scrollRef = useRef<HTMLDivElement>(null);
  const mainRef = useRef<HTMLElement>(null);

  const first = useRef(true);
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
    const title = match ? match.route.title : 'ページが見つかりません';
    document.title = `${title} | ${APP_NAME}`;
    // The first screen is announced by the page load itself.
    if (first.current) first.current = false;
    else announce(title);
  }, [pathname, match]);

  return (
    // The header and the side menu stay in place: only the content's box scrolls. Every box is positioned (`relative`), so
    // what is placed absolutely inside the content (a visually hidden table caption) is held by the content's box and
    // never makes the page itself taller than the window, which would scroll the header away.
    <div className="relative flex h-dvh flex-col overflow-hidden print:h-auto print:overflow-visible">
      <button
        type="button"
        onClick={() => mainRef.current?.focus()}
        className="visually-hidden focus:not-sr-only focus:fixed focus:left-[8px] focus:top-[8px] focus:z-[90] focus:h-auto focus:w-auto focus:rounded-[4px] focus:bg-surface focus:px-[12px] focus:py-[6px] focus:text-brand focus:shadow"
      >
        本文へ移動
      </button>
      {/* Printing shows the screen alone (e.g. the delivery list's route sheet): no header, menu or breadcrumbs. */}
      <div className="contents print:hidden"><Header /></div>
      <div className="flex min-h-0 flex-1 print:block">
        <div className="contents print:hidden"><SideMenu /></div>
        <div ref={scrollRef} className="relative min-w-0 flex-1 overflow-auto print:overflow-visible">
          <div className="contents print:hidden"><Breadcrumbs /></div>
          <main ref={mainRef} id="main" tabIndex={-1} className="pb-[32px] focus:outline-none">
            <RouteView />
          </main>
        </div>
      </div>
      <LoadingOverlay />
    </div>
  );
}
