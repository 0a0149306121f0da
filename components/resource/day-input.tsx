/**
 * A day typed as text, one Tab stop (a browser's date input is three: year, month, day): 2026-11-25,
 * 2026/11/25, 20261125, 11/25 or 1125 (this year), full-width digits too. A full YYYY-MM-DD applies as it is
 * typed, anything else when the box is left or Enter is pressed; a text that is no day is marked and kept.
 * The calendar button (not a Tab stop) opens the browser's date picker for the mouse.
 */
import clsx from 'clsx';
import { useEffect, useId, useRef, useState } from 'react';
import { parseDay, todayJst } from '@/lib/format';
import { inputClass } from './styles';

const FULL_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function DayInput({ value, onChange, label, min, max, className = '', invalid = false, describedBy, keyShortcuts }: {
  value: string;
  onChange: (day: string) => void;
  /** The accessible name, e.g. 登録日（開始）. */
  label: string;
  min?: string;
  max?: string;
  className?: string;
  /** Marked wrong by its owner (a date-range picker's end before its start), beside its own check of the text. */
  invalid?: boolean;
  /** The id of the owner's message about it. */
  describedBy?: string;
  /** Keys its owner handles while it has the focus (`aria-keyshortcuts`), e.g. Alt+ArrowDown. */
  keyShortcuts?: string;
}) {
  const [text, setText] = useState(value);
  const [bad, setBad] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const problemId = useId();
  useEffect(() => {
    setText(value);
    setBad(false);
  }, [value]);

  const apply = (typed: string) => {
    const day = parseDay(typed, todayJst());
    if (day === undefined) {
      setBad(true);
      return;
    }
    setBad(false);
    setText(day);
    if (day !== value) onChange(day);
  };

  return (
    <span className={clsx('relative inline-flex items-center', className)}>
      <input
        type="text"
        inputMode="numeric"
        autoComplete="off"
        aria-label={label}
        aria-invalid={bad || invalid || undefined}
        aria-describedby={[bad ? problemId : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined}
        aria-keyshortcuts={keyShortcuts}
        placeholder="YYYY-MM-DD"
        maxLength={12}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (FULL_DAY.test(e.target.value)) apply(e.target.value);
        }}
        onBlur={() => apply(text)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) apply(text);
        }}
        className={clsx(inputClass, 'w-[126px] pr-[28px] tabular-nums')}
      />
      {/* For the mouse only (typing is the keyboard's way): no Tab stop, hidden from assistive technology. */}
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        title="カレンダーから選ぶ"
        onClick={() => picker.current?.showPicker?.()}
        className="absolute right-[4px] flex h-[22px] w-[22px] items-center justify-center text-[13px] text-muted hover:text-brand"
      >
        <span aria-hidden="true">▦</span>
      </button>
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        value={value}
        min={min}
        max={max}
        onChange={(e) => apply(e.target.value)}
        className="pointer-events-none absolute bottom-0 right-0 h-0 w-0 opacity-0"
      />
      {bad && (
        <span id={problemId} role="alert" className="absolute left-0 top-full z-[2] mt-[2px] whitespace-nowrap rounded-[4px] bg-danger-soft px-[6px] text-[12px] text-danger">
          「{label}」は 2026-11-25 や 1125 の形で入力してください。
        </span>
      )}
    </span>
  );
}
