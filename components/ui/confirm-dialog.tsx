'use client';
/**
 * The ONE confirm dialog. `useConfirm()` (or `confirmDialog()` outside React) asks a question and
 * resolves true/false; `<ConfirmHost/>` (mounted once by the shell) draws it as an `alertdialog`
 * with a title. Without a host (a component test rendering one screen) it falls back to
 * `window.confirm`, so callers never hang.
 */
import { useEffect, useId, useRef, useSyncExternalStore, type KeyboardEvent } from 'react';
import { MESSAGES } from '@/lib/protocol';
import { Button } from './button';
import { createSignal } from './signal';

export interface ConfirmOptions {
  /** Dialog title (default 「確認」). */
  title?: string;
  /** Label of the accepting button (default 「削除する」 for the delete question, else 「OK」). */
  confirmLabel?: string;
  /** Label of the refusing button (default 「キャンセル」). */
  cancelLabel?: string;
  /** Draw the accepting button as destructive (default: true for the delete question). */
  danger?: boolean;
}

interface Request extends Required<ConfirmOptions> {
  id: number;
  message: string;
  resolve: (ok: boolean) => void;
}

let queue: Request[] = [];
let nextId = 1;
let hosts = 0;
const { emit, subscribe } = createSignal();
const head = () => queue[0] ?? null;

/**
 * Asks a yes/no question in the app's dialog. Default message: MESSAGES.confirmDelete.
 * @example if (await confirmDialog()) await call('client_del', { id });
 */
export function confirmDialog(message: string = MESSAGES.confirmDelete, options: ConfirmOptions = {}): Promise<boolean> {
  if (hosts === 0) return Promise.resolve(typeof window !== 'undefined' && window.confirm(message));
  const isDelete = message === MESSAGES.confirmDelete;
  return new Promise<boolean>((resolve) => {
    queue = [
      ...queue,
      {
        id: nextId++,
        message,
        title: options.title ?? '確認',
        confirmLabel: options.confirmLabel ?? (isDelete ? '削除する' : 'OK'),
        cancelLabel: options.cancelLabel ?? 'キャンセル',
        danger: options.danger ?? isDelete,
        resolve,
      },
    ];
    emit();
  });
}

/**
 * The confirm function for components: `const confirm = useConfirm(); if (await confirm()) …`.
 * The returned function is stable.
 */
export function useConfirm(): (message?: string, options?: ConfirmOptions) => Promise<boolean> {
  return confirmDialog;
}

/** Draws the pending question (mounted once by the shell). */
export function ConfirmHost() {
  useEffect(() => {
    hosts += 1;
    return () => {
      hosts -= 1;
    };
  }, []);
  const request = useSyncExternalStore(subscribe, head, () => null);
  if (!request) return null;
  const close = (ok: boolean) => {
    queue = queue.filter((r) => r !== request);
    emit();
    request.resolve(ok);
  };
  return <ConfirmView key={request.id} request={request} onClose={close} />;
}

function ConfirmView({ request, onClose }: { request: Request; onClose: (ok: boolean) => void }) {
  const titleId = useId();
  const messageId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    // The refusing button takes focus: Enter on a destructive question never deletes by accident.
    cancelRef.current?.focus();
    return () => {
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose(false);
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = dialogRef.current?.querySelectorAll<HTMLElement>('button:not(:disabled)');
    if (!focusable || focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="fixed inset-0 z-[70] flex items-center justify-center bg-[rgba(20,35,45,0.35)] p-[16px]">
      <div
        ref={dialogRef}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onKeyDown={onKeyDown}
        className="w-full max-w-[420px] rounded-[8px] border border-line bg-surface shadow-[0_12px_32px_rgba(16,40,56,0.22)]"
      >
        <h2 id={titleId} className="border-b border-line px-[20px] py-[12px] text-[1.6rem] font-semibold">
          {request.title}
        </h2>
        <p id={messageId} className="whitespace-pre-line px-[20px] py-[18px] text-[1.4rem] leading-[1.7]">
          {request.message}
        </p>
        <div className="flex justify-end gap-[8px] border-t border-line bg-subtle px-[20px] py-[12px]">
          <Button ref={cancelRef} onClick={() => onClose(false)}>
            {request.cancelLabel}
          </Button>
          <Button variant={request.danger ? 'danger' : 'primary'} onClick={() => onClose(true)}>
            {request.confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
