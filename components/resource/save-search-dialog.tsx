/** Small modal dialog asking the name of a search to save. */
import { useEffect, useId, useRef, useState } from 'react';
import { useImeSafeEnter } from '@/lib/list/keyword-input';
import { buttonClass, inputClass, labelClass } from './styles';

export function SaveSearchDialog({
  initialName,
  busy,
  error,
  onSave,
  onClose,
}: {
  initialName: string;
  busy: boolean;
  error?: string;
  onSave: (name: string) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const inputId = useId();
  const [name, setName] = useState(initialName);
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    input.current?.focus();
    input.current?.select();
    return () => (opener.current as HTMLElement | null)?.focus?.();
  }, []);
  const submit = () => {
    if (name.trim() && !busy) onSave(name.trim());
  };
  const enter = useImeSafeEnter(submit);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-ink/30" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="w-[360px] rounded-[8px] bg-white p-[18px] shadow-xl"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId} className="mb-[12px] text-[16px] font-bold text-ink">
          検索条件を保存
        </h2>
        <div className="flex flex-col gap-[4px]">
          <label htmlFor={inputId} className={labelClass}>
            検索条件の名前
          </label>
          <input
            id={inputId}
            ref={input}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            {...enter}
          />
          {error && (
            <p id={`${inputId}-error`} role="alert" className="text-[13px] text-danger">
              {error}
            </p>
          )}
        </div>
        <div className="mt-[16px] flex justify-end gap-[8px]">
          <button type="button" className={buttonClass('secondary')} onClick={onClose}>
            キャンセル
          </button>
          <button type="button" className={buttonClass('primary')} onClick={submit} disabled={!name.trim() || busy}>
            保存
          </button>
        </div>
      </div>
    </div>
  );
}
