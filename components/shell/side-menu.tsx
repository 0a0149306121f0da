'use client';
import clsx from 'clsx';
import { useAtom } from 'jotai';
import { useMemo } from 'react';
import { entryOpens, useSession } from '@/lib/client/auth';
import { Link, splitPath, useRoute } from '@/lib/client/router';
import { breadcrumbs, SIDE_MENU } from '@/lib/routes';
import { sideMenuOpenAtom } from '@/lib/client/state/atoms';

const entryClass =
  'flex h-[30px] items-center rounded-[4px] border-l-[3px] pl-[34px] pr-[8px] text-[1.35rem] hover:bg-subtle hover:text-ink aria-[current=page]:border-brand aria-[current=page]:bg-brand-soft aria-[current=page]:font-semibold aria-[current=page]:text-brand-strong';

function Icon({ children, active }: { children: string; active?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={[
        'inline-flex size-[24px] shrink-0 items-center justify-center rounded-[5px] text-[1.25rem] font-bold',
        active ? 'bg-brand text-white' : 'bg-brand-soft text-brand',
      ].join(' ')}
    >
      {children}
    </span>
  );
}

/**
 * The left menu (`<nav aria-label="メニュー">`): 180px with every entry the role may open, or 40px
 * with one icon per group (named by `aria-label` and `title`). The open flag persists (KEYS.sideMenuOpen).
 */
export function SideMenu() {
  const [open, setOpen] = useAtom(sideMenuOpenAtom);
  const { match, pathname } = useRoute();
  const { role, areas } = useSession();
  const groups = useMemo(
    () => SIDE_MENU.map((group) => ({ ...group, entries: group.entries.filter((e) => entryOpens(e, { role, areas })) })).filter((g) => g.entries.length > 0),
    [role, areas],
  );

  // Path names on the way to the current screen: a list stays highlighted while one of its records is open.
  const trail = useMemo(() => {
    const paths = new Set<string>([pathname]);
    if (match) breadcrumbs(match).forEach((c) => c.path && paths.add(splitPath(c.path).pathname));
    return paths;
  }, [match, pathname]);
  const inTrail = (path: string) => path !== '/' && trail.has(splitPath(path).pathname);

  return (
    <nav
      aria-label="メニュー"
      className={[
        'flex shrink-0 flex-col overflow-y-auto overflow-x-hidden border-r border-line bg-surface transition-[width] duration-150',
        open ? 'w-menu' : 'w-menu-folded',
      ].join(' ')}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-label={open ? 'メニューを閉じる' : 'メニューを開く'}
        title={open ? 'メニューを閉じる' : 'メニューを開く'}
        onClick={() => setOpen(!open)}
        className="flex h-row w-full shrink-0 items-center gap-[8px] border-b border-line px-[8px] text-ink-soft hover:bg-subtle"
      >
        <span aria-hidden="true" className="inline-flex size-[24px] items-center justify-center text-[1.6rem]">
          {open ? '«' : '»'}
        </span>
        {open && <span className="text-[1.25rem]">メニューを閉じる</span>}
      </button>

      {open ? (
        <ul className="flex flex-col gap-[6px] px-[4px] py-[8px]">
          {groups.map((group) => {
            const single = group.entries.length === 1 && group.entries[0].label === group.label;
            if (single) {
              return (
                <li key={group.label}>
                  <Link
                    to={group.entries[0].path}
                    className="flex h-[32px] items-center gap-[8px] rounded-[4px] border-l-[3px] border-transparent px-[4px] text-[1.35rem] font-semibold text-ink hover:bg-subtle aria-[current=page]:border-brand aria-[current=page]:bg-brand-soft aria-[current=page]:text-brand-strong"
                  >
                    <Icon>{group.icon}</Icon>
                    {group.label}
                  </Link>
                </li>
              );
            }
            const headingId = `side-group-${group.label}`;
            return (
              <li key={group.label}>
                <div id={headingId} className="flex h-[30px] items-center gap-[8px] px-[7px] text-[1.3rem] font-semibold text-ink">
                  <Icon active={group.entries.some((e) => inTrail(e.path))}>{group.icon}</Icon>
                  {group.label}
                </div>
                <ul aria-labelledby={headingId}>
                  {group.entries.map((entry) => (
                    <li key={entry.path}>
                      <Link
                        to={entry.path}
                        className={clsx(entryClass, inTrail(entry.path) ? 'border-brand/40 font-medium text-brand-strong' : 'border-transparent text-ink-soft')}
                      >
                        <span className="truncate">{entry.label}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      ) : (
        <ul className="flex flex-col items-center gap-[4px] py-[8px]">
          {groups.map((group) => {
            const active = group.entries.some((e) => inTrail(e.path)) || (group.entries[0].path === '/' && pathname === '/');
            return (
              <li key={group.label}>
                <Link
                  to={group.entries[0].path}
                  aria-label={group.label}
                  title={group.label}
                  className="flex size-[34px] items-center justify-center rounded-[5px] hover:bg-subtle"
                >
                  <Icon active={active}>{group.icon}</Icon>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
