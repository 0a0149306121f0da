'use client';
/**
 * A header popover menu: a button (`aria-haspopup="menu"`, `aria-expanded`) and a `role="menu"`
 * of `menuitem` links. Opens with click, Enter, Space or ↓ (↑ opens on the last item); ↑/↓/Home/End
 * move, Escape closes and returns focus to the button, Tab or a click outside closes.
 */
import clsx from 'clsx';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { hashHref, isActivePath, useHashPath } from '@/lib/client/router';

export interface HeaderMenuItem {
  label: string;
  /** A hash path; or `onSelect` for an action (ログアウト). */
  path?: string;
  onSelect?: () => void;
}

export interface HeaderMenuProps {
  /** Visible button content. */
  children: ReactNode;
  /** Accessible name of the button when it differs from the visible content. */
  buttonLabel?: string;
  items: readonly HeaderMenuItem[];
  /** Shown above the items, outside the menu role (the user menu's name and role). */
  header?: ReactNode;
  align?: 'left' | 'right';
}

export function HeaderMenu({ children, buttonLabel, items, header, align = 'left' }: HeaderMenuProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const menuId = useId();
  const buttonId = useId();
  const path = useHashPath();

  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  // A navigation (also by the back button) closes the menu.
  useEffect(() => setOpen(false), [path]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = items.length - 1;
    const moves: Record<string, () => void> = {
      ArrowDown: () => setFocusIndex((i) => (i >= last ? 0 : i + 1)),
      ArrowUp: () => setFocusIndex((i) => (i <= 0 ? last : i - 1)),
      Home: () => setFocusIndex(0),
      End: () => setFocusIndex(last),
      Escape: () => close(true),
    };
    if (event.key === 'Tab') {
      setOpen(false);
      return;
    }
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      event.stopPropagation();
      move();
    }
  };

  const itemClass =
    'flex h-[34px] w-full items-center whitespace-nowrap px-[16px] text-left text-[1.4rem] text-ink outline-none hover:bg-subtle focus:bg-brand-soft focus-visible:outline-none aria-[current=page]:font-semibold aria-[current=page]:text-brand';

  return (
    <div ref={rootRef} className="relative h-full">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={buttonLabel}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
        className={[
          'flex h-full items-center gap-[6px] px-[12px] text-[1.4rem] text-header-ink hover:bg-header-hover focus-visible:outline-offset-[-2px]',
          open ? 'bg-header-hover' : '',
        ].join(' ')}
      >
        {children}
        <svg aria-hidden="true" viewBox="0 0 10 6" className={clsx('h-[6px] w-[10px] opacity-70 transition-transform', open && 'rotate-180')}>
          <path d="M1 1l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open && (
        <div
          className={clsx('absolute top-full z-50 mt-[2px] min-w-[200px] overflow-hidden rounded-[6px] border border-line bg-surface py-[4px] shadow-[0_8px_24px_rgba(16,40,56,0.18)]', align === 'right' ? 'right-0' : 'left-0')}
        >
          {header && <div className="border-b border-line px-[16px] pb-[8px] pt-[6px]">{header}</div>}
          <div id={menuId} role="menu" aria-labelledby={buttonId} onKeyDown={onMenuKeyDown}>
            {items.map((item, i) => {
              const ref = (el: HTMLElement | null) => {
                itemRefs.current[i] = el;
              };
              if (item.path !== undefined) {
                const active = isActivePath(item.path, path);
                return (
                  <a
                    key={item.label}
                    ref={ref}
                    role="menuitem"
                    tabIndex={-1}
                    href={hashHref(item.path)}
                    aria-current={active ? 'page' : undefined}
                    onClick={() => setOpen(false)}
                    className={itemClass}
                  >
                    {item.label}
                  </a>
                );
              }
              return (
                <button
                  key={item.label}
                  ref={ref}
                  role="menuitem"
                  tabIndex={-1}
                  type="button"
                  onClick={() => {
                    setOpen(false);
                    item.onSelect?.();
                  }}
                  className={clsx(itemClass, 'border-t border-line')}
                >
                  {item.label}
                </button>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
