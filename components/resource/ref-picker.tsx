/**
 * A `ref` field's input: a combobox that finds records of the referenced resource by keyword
 * (`{ref}_lst`, 10 at a time) and shows the chosen record by name. Typing searches after a short
 * pause, never inside an IME composition; ↑/↓ move, Enter picks, Esc closes.
 */
import clsx from 'clsx';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { type Row } from '@/lib/client/list/use-list-controller';
import { useRecordTitle } from '@/lib/client/list/use-record-title';
import { resourceCall } from '@/lib/protocol/calls';
import { idColumn, keywordHintOf, titleOf, type FieldDef } from '@/lib/resources/types';
import { formatCell } from './cells';
import { resolveResource } from './resolve';
import { inputClass } from './styles';
import { useCall } from '@/lib/client/data/use-call';
import { cellText } from '../../lib/resources/checks';

export interface RefPickerProps {
  field: FieldDef;
  inputId: string;
  value: string;
  /** The chosen record's name as the detail answered it (`{column}_label`). */
  label?: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

/**
 * The name a `ref` value shows: the one known (the detail's `{column}_label`, the record just picked), else the target
 * record's title looked up (`{ref}_dtl`), else 「ID n」 — the picker's and a read-only cell's one answer.
 */
export function useRefName(field: FieldDef, value: string, known: string | undefined): string {
  const lookup = useRecordTitle(known ? undefined : resolveResource(field.ref ?? ''), value || undefined);
  return value ? (known || lookup.title || `ID ${value}`) : '';
}

export function RefPicker({ field, inputId, value, label, onChange, disabled, invalid, describedBy }: RefPickerProps) {
  const target = resolveResource(field.ref ?? '');
  const listId = useId();
  const [text, setText] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [composing, setComposing] = useState(false);
  const [active, setActive] = useState(0);
  const [picked, setPicked] = useState<{ id: string; name: string }>();

  // The name of a value that came without one (a fixed parent, a value set by code).
  const shown = useRefName(field, value, picked?.id === value ? picked.name : label);

  useEffect(() => {
    if (text === null || composing) return undefined;
    const timer = setTimeout(() => setQuery(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text, composing]);

  const open = text !== null && query !== '';
  const search = useCall(
    resourceCall(target, 'lst'),
    open ? { n: 10, p: 1, kw: query, col: target.list.defaultSort.col, odr: target.list.defaultSort.odr, postData: {} } : null,
    { revalidateOnFocus: false, keepPreviousData: true },
  );
  const options = open ? (search.data ?? []) : [];

  const choose = (row: Row) => {
    const id = String(row[idColumn(target)]);
    setPicked({ id, name: titleOf(target, row) });
    onChange(id);
    setText(null);
    setQuery('');
  };
  const close = () => {
    setText(null);
    setQuery('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing || composing) return;
    if (event.key === 'ArrowDown' && options.length) {
      event.preventDefault();
      setActive((i) => (i + 1) % options.length);
    } else if (event.key === 'ArrowUp' && options.length) {
      event.preventDefault();
      setActive((i) => (i - 1 + options.length) % options.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (options[active]) choose(options[active]);
      else if (text !== null) setQuery(text.trim());
    } else if (event.key === 'Escape' && text !== null) {
      event.preventDefault();
      close();
    }
  };

  return (
    <div className="relative flex max-w-[420px] items-center gap-[4px]">
      <input
        id={inputId}
        type="text"
        role="combobox"
        aria-expanded={open && options.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-required={field.required || undefined}
        autoComplete="off"
        disabled={disabled}
        placeholder={`${target.label}を検索（${keywordHintOf(target)}）`}
        value={text ?? shown}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onCompositionStart={() => setComposing(true)}
        onCompositionEnd={(e) => {
          setComposing(false);
          setText(e.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(close, 150)}
        className={clsx(inputClass, 'w-full')}
      />
      {value && !disabled && !field.required && (
        <button type="button" aria-label={`${field.label}をクリア`} onClick={() => onChange('')} className="px-[6px] text-[1.4rem] text-muted hover:text-danger">
          ×
        </button>
      )}
      {open && (
        <ul id={listId} role="listbox" aria-label={`${target.label}の候補`} className="absolute left-0 top-[34px] z-20 max-h-[260px] w-full overflow-y-auto rounded-[4px] border border-line-strong bg-surface shadow-lg">
          {options.length === 0 ? (
            <li className="px-[10px] py-[8px] text-[1.3rem] text-muted">{search.isLoading ? '検索しています…' : '該当する候補がありません。'}</li>
          ) : (
            options.map((row, i) => (
              <li
                key={String(row[idColumn(target)])}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(row)}
                className={clsx('flex cursor-pointer justify-between gap-[8px] px-[10px] py-[6px] text-[1.4rem]', i === active && 'bg-brand-soft')}
              >
                {target.picker?.lead && <span className="tabular shrink-0 text-[1.2rem] text-muted">{cellText(row[target.picker.lead] ?? '')}</span>}
                <span className="flex-1 truncate">{titleOf(target, row) || '（名称なし）'}</span>
                {target.picker ? (
                  target.picker.details.map((column) => (
                    <span key={column.name} title={column.label} className="tabular shrink-0 text-[1.2rem] text-muted">{formatCell(column, row[column.name])}</span>
                  ))
                ) : (
                  <span className="tabular shrink-0 text-[1.2rem] text-muted">ID {String(row[idColumn(target)])}</span>
                )}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
