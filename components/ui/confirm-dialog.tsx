'use client';
/**
 * The ONE confirm dialog. `useConfirm()` (or `confirmDialog()` outside React) asks a question and
 * resolves true/false; `promptDialog()` asks the same way for one line of text (a reason) and
 * resolves it, or null when refused. `<ConfirmHost/>` (mounted once by the shell) draws it as an
 * `alertdialog` (a `dialog` when it asks for text) with a title. Without a host (a component test
 * rendering one screen) it falls back to `window.confirm` / `window.prompt`, so callers never hang.
 */
import { useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
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

/** What `promptDialog` asks for: a labelled text, required unless `required` is false. */
export interface PromptOptions extends ConfirmOptions {
  label: string;
  /** The message under the input when it is left empty (default 「{label}を入力してください。」); false: may be empty. */
  required?: string | false;
  /** Most characters accepted (the input refuses more). */
  max?: number;
}

interface Request extends Required<ConfirmOptions> {
  id: number;
  message: string;
  input?: { label: string; required: string | false; max?: number };
  /** The text entered ('' without an input), or null when refused. */
  resolve: (answer: string | null) => void;
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
  return ask(message, options).then((answer) => answer !== null);
}

/**
 * Asks for one text in the app's dialog (e.g. the reason of a hold): the trimmed text, or null when refused.
 * @example const reason = await promptDialog('保留にする理由を入力してください。', { title: '保留にする', label: '保留理由' });
 */
export function promptDialog(message: string, options: PromptOptions): Promise<string | null> {
  if (hosts === 0) return Promise.resolve(typeof window !== 'undefined' ? window.prompt(message)?.trim() ?? null : null);
  const { label, required, max } = options;
  return ask(message, options, { label, required: required === false ? false : required ?? `${label}を入力してください。`, max });
}

function ask(message: string, options: ConfirmOptions, input?: Request['input']): Promise<string | null> {
  const isDelete = message === MESSAGES.confirmDelete;
  return new Promise<string | null>((resolve) => {
    queue = [
      ...queue,
      {
        id: nextId++,
        message,
        input,
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

/** The prompt function for components (stable): `const prompt = usePrompt(); const reason = await prompt(…)`. */
export function usePrompt(): typeof promptDialog {
  return promptDialog;
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
  const close = (answer: string | null) => {
    queue = queue.filter((r) => r !== request);
    emit();
    request.resolve(answer);
  };
  return <ConfirmView key={request.id} request={request} onClose={close} />;
}

function ConfirmView({ request, onClose }: { request: Request; onClose: (answer: string | null) => void }) {
  const titleId = useId();
  const messageId = useId();
  const inputId = useId();
  const errorId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  const { input } = request;

  const accept = () => {
    const answer = text.trim();
    if (input?.required !== undefined && input.required !== false && answer === '') {
      setProblem(input.required);
      inputRef.current?.focus();
      return;
    }
    onClose(answer);
  };

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    // The refusing button takes focus (Enter on a destructive question never deletes by accident); a text is typed first.
    (inputRef.current ?? cancelRef.current)?.focus();
    return () => {
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose(null);
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = dialogRef.current?.querySelectorAll<HTMLElement>('textarea, button:not(:disabled)');
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
        role={input ? 'dialog' : 'alertdialog'}
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
        {input && (
          <div className="flex flex-col gap-[4px] px-[20px] pb-[16px]">
            <label htmlFor={inputId} className="text-[1.3rem] font-medium text-ink-soft">
              {input.label}
            </label>
            <textarea
              id={inputId}
              ref={inputRef}
              rows={3}
              value={text}
              maxLength={input.max}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? errorId : undefined}
              onChange={(e) => {
                setText(e.target.value);
                setProblem('');
              }}
              className="rounded-[4px] border border-line-strong px-[8px] py-[6px] text-[1.4rem] aria-[invalid=true]:border-danger"
            />
            {problem && (
              <p id={errorId} role="alert" className="text-[1.3rem] text-danger">
                {problem}
              </p>
            )}
          </div>
        )}
        <div className="flex justify-end gap-[8px] border-t border-line bg-subtle px-[20px] py-[12px]">
          <Button ref={cancelRef} onClick={() => onClose(null)}>
            {request.cancelLabel}
          </Button>
          <Button variant={request.danger ? 'danger' : 'primary'} onClick={input ? accept : () => onClose('')}>
            {request.confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
