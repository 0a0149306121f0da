'use client';
import { useMemo } from 'react';
import { useSession, visibleEntries, workMenus } from '@/lib/client/auth';
import { confirmLeave, Link } from '@/lib/client/router';
import { HEADER_MENUS } from '@/lib/routes';
import { Clock } from './clock';
import { HeaderMenu, type HeaderMenuItem } from './header-menu';

/** The 40px header bar: app name, the 入力 / 売上 / システム menus, the clock and the user menu. */
export function Header() {
  const { userName, role, userId, areas, logout } = useSession();

  const work = useMemo(() => workMenus({ role, userId, areas }).map((menu) => ({ ...menu, items: menu.entries.map((e): HeaderMenuItem => ({ label: e.label, path: e.path })) })), [role, userId, areas]);
  const user = useMemo(() => visibleEntries(HEADER_MENUS.find((m) => m.key === 'user')?.entries ?? [], { role, userId, areas }), [role, userId, areas]);
  const userItems: HeaderMenuItem[] = [
    ...user.map((e): HeaderMenuItem => ({ label: e.label, path: e.path })),
    {
      label: 'ログアウト',
      onSelect: () => {
        void confirmLeave().then((ok) => (ok ? logout() : undefined));
      },
    },
  ];

  return (
    <header className="relative z-40 flex h-header shrink-0 items-stretch bg-header text-header-ink shadow-[0_1px_0_rgba(0,0,0,0.25)]">
      <Link to="/" className="flex items-center gap-[8px] px-[14px] text-[1.5rem] font-semibold tracking-[0.04em] text-white hover:bg-header-hover">
        <svg aria-hidden="true" viewBox="0 0 32 32" className="size-[20px]">
          <path d="M16 4c-4.5 6.4-8 10.8-8 14.8a8 8 0 0 0 16 0C24 14.8 20.5 10.4 16 4z" fill="#6fb6d3" />
        </svg>
        宅配水 業務管理
      </Link>
      <div className="mx-[6px] my-[10px] w-px bg-white/15" aria-hidden="true" />
      {work.map((menu) => (
        <HeaderMenu key={menu.key} items={menu.items}>
          {menu.label}
        </HeaderMenu>
      ))}
      <div className="flex-1" />
      <div className="flex items-center">
        <Clock />
      </div>
      <div className="my-[10px] w-px bg-white/15" aria-hidden="true" />
      <HeaderMenu
        align="right"
        buttonLabel={`ユーザー：${userName || '（名前未設定）'}`}
        items={userItems}
        header={
          <div className="text-[1.3rem]">
            <div className="font-semibold text-ink">{userName}</div>
            <div className="text-muted">権限：{role || '—'}</div>
          </div>
        }
      >
        <span aria-hidden="true" className="inline-flex size-[22px] items-center justify-center rounded-full bg-white/15 text-[1.2rem]">
          {(userName || '？').slice(0, 1)}
        </span>
        <span className="max-w-[160px] truncate">{userName}</span>
      </HeaderMenu>
    </header>
  );
}
