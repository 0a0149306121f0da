/** Small modal dialog asking the name of a search to save. */
import { useEffect, useId, useRef, useState } from 'react';
import { useImeSafeEnter } from '@/lib/client/list/keyword-input';
import { ModalDialog } from '@/components/ui/modal-dialog';
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
  const inputId = useId();
  const [name, setName] = useState(initialName);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const submit = () => {
    if (name.trim() && !busy) onSave(name.trim());
  };
  const enter = useImeSafeEnter(submit);
  return (
    <ModalDialog title="検索条件を保存" onClose={onClose}>
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
    </ModalDialog>
  );
}
