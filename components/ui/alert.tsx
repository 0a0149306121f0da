'use client';
/**
 * The ONE alert/toast. `useAlert()` (or `showAlert()` outside React) shows a short message such as
 * MESSAGES.saved; `<Toaster/>` (mounted once by the shell) draws them at the bottom right and
 * dismisses them by themselves. Errors are announced assertively (`role="alert"`), everything else
 * politely inside the 「お知らせ」 status region.
 */
import clsx from 'clsx';
import { useEffect, useSyncExternalStore } from 'react';
import { createSignal } from './signal';

export type AlertKind = 'success' | 'info' | 'warning' | 'error';

export interface AlertItem {
  id: number;
  message: string;
  kind: AlertKind;
  /** Milliseconds before it goes away by itself; 0 keeps it until closed. */
  timeout: number;
}

const DEFAULT_TIMEOUT: Record<AlertKind, number> = { success: 4000, info: 5000, warning: 8000, error: 10000 };

let items: AlertItem[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const { emit, subscribe } = createSignal();
const snapshot = () => items;
const empty: AlertItem[] = [];

/** Removes one message. */
export function dismissAlert(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  items = items.filter((item) => item.id !== id);
  emit();
}

function arm(item: AlertItem): void {
  const old = timers.get(item.id);
  if (old) clearTimeout(old);
  if (item.timeout > 0) timers.set(item.id, setTimeout(() => dismissAlert(item.id), item.timeout));
}

/**
 * Shows a message. The same message shown again restarts its timer instead of stacking.
 * @example showAlert(MESSAGES.saved)            // success, 4 s
 * @example showAlert(error.message, 'error')    // role="alert", 10 s
 */
export function showAlert(message: string, kind: AlertKind = 'success', options: { timeout?: number } = {}): number {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT[kind];
  const same = items.find((item) => item.message === message && item.kind === kind);
  if (same) {
    arm(same);
    return same.id;
  }
  const item: AlertItem = { id: nextId++, message, kind, timeout };
  items = [...items.slice(-4), item];
  arm(item);
  emit();
  return item.id;
}

/** The alert function for components (stable): `const alert = useAlert(); alert(MESSAGES.saved);` */
export function useAlert(): (message: string, kind?: AlertKind, options?: { timeout?: number }) => number {
  return showAlert;
}

const LOOK: Record<AlertKind, { box: string; mark: string }> = {
  success: { box: 'border-success/40 bg-success-soft text-success', mark: '✓' },
  info: { box: 'border-brand/30 bg-brand-soft text-brand-strong', mark: 'i' },
  warning: { box: 'border-warning/40 bg-warning-soft text-warning', mark: '!' },
  error: { box: 'border-danger/40 bg-danger-soft text-danger', mark: '!' },
};

function AlertView({ item }: { item: AlertItem }) {
  const look = LOOK[item.kind];
  return (
    <div
      className={clsx('pointer-events-auto flex min-w-[260px] max-w-[420px] items-start gap-[10px] rounded-[6px] border px-[14px] py-[10px] shadow-[0_6px_18px_rgba(16,40,56,0.14)]', look.box)}
    >
      <span aria-hidden="true" className="mt-[1px] inline-flex size-[18px] shrink-0 items-center justify-center rounded-full border border-current text-[1.1rem] font-bold">
        {look.mark}
      </span>
      <p className="flex-1 text-[1.35rem] leading-[1.6] text-ink">{item.message}</p>
      <button
        type="button"
        onClick={() => dismissAlert(item.id)}
        aria-label="閉じる"
        className="-mr-[4px] inline-flex size-[22px] shrink-0 items-center justify-center rounded-[4px] text-ink-soft hover:bg-black/5"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** Draws the messages (mounted once by the shell). */
export function Toaster() {
  const list = useSyncExternalStore(subscribe, snapshot, () => empty);
  useEffect(
    () => () => {
      timers.forEach((t) => clearTimeout(t));
      timers.clear();
    },
    [],
  );
  const errors = list.filter((item) => item.kind === 'error');
  const others = list.filter((item) => item.kind !== 'error');
  return (
    <div className="pointer-events-none fixed bottom-[16px] right-[16px] z-[80] flex flex-col items-end gap-[8px]">
      {errors.length > 0 && (
        <div role="alert" className="flex flex-col items-end gap-[8px]">
          {errors.map((item) => (
            <AlertView key={item.id} item={item} />
          ))}
        </div>
      )}
      <div role="status" aria-live="polite" aria-label="お知らせ" className="flex flex-col items-end gap-[8px]">
        {others.map((item) => (
          <AlertView key={item.id} item={item} />
        ))}
      </div>
    </div>
  );
}
