/**
 * The one editor of a record's child rows (ResourceDef.children: an order's lines, a round's stops): a
 * table with the declared fields as inputs — a `ref` is the record picker, a select its options, numbers
 * and money converted to half-width when the input loses focus — the derived columns read-only, rows added,
 * removed and moved (buttons, or Alt+↑/↓ inside a row), at most `child.max`. Messages sit at their cell:
 * the save's own check of the row, live (`childSchema`: the declared fields and row rule), and the server's
 * refusal. What differs per resource
 * (the order's live amounts, the stops' totals row) comes in as props, never as a copy of this table.
 */
import clsx from 'clsx';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { childCellId, moveRow, type ChildRow } from '@/lib/client/list/child-rows';
import type { ChildRowsState } from '@/lib/client/list/use-child-rows';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { convertsInput, halfWidthOf, maxLength } from '@/lib/resources/schema';
import type { FieldDef } from '@/lib/resources/types';
import { ValueBox, valueText } from './field-input';
import { RefPicker, useRefName } from './ref-picker';
import { buttonClass, inputClass } from './styles';
import { cellText } from '../../lib/resources/checks';

export interface LinesEditorProps {
  state: ChildRowsState;
  /** The inputs wait (a save under way). */
  disabled?: boolean;
  /** The rows are not edited here (the role may only read, the record is locked): shown as their values, no row buttons. */
  readOnly?: boolean;
  /** How a row is counted in names: 行目 (lines), 件目 (stops). */
  counter?: string;
  /** Shorter column names than the declared labels (the stop's ボトル for ボトル商品). */
  labels?: Readonly<Record<string, string>>;
  /** What the derived columns show for a row (default: the stored column, e.g. `odd_amount`). */
  derived?: (row: ChildRow) => Readonly<Record<string, ReactNode>>;
  /** An input's placeholder for a row (the customer's unit price of the line's item); a select's empty choice (the item's class). */
  placeholder?: (row: ChildRow, field: FieldDef) => string | undefined;
  /** The name a `ref` cell shows for a stored row (default: the stored `{column}_label`, else looked up). */
  refLabel?: (row: ChildRow, field: FieldDef) => string | undefined;
  /** Cells of a last row under the table (totals), drawn in `<tfoot>`. */
  footer?: ReactNode;
  /**
   * Rows the server derives (`ChildDef.derivedFlag`: an order's fee line), drawn read-only after the typed rows: each
   * column's content by field name, and what the row is (`note`, in the last column).
   */
  fixedRows?: readonly FixedRow[];
}

/** A read-only row of the lines editor (see `LinesEditorProps.fixedRows`). */
export interface FixedRow {
  key: string;
  cells: Readonly<Record<string, ReactNode>>;
  note: string;
}

const NUMERIC = new Set<FieldDef['type']>(['number', 'money', 'decimal']);
const cellId = (row: ChildRow, field: string) => childCellId(row.key, field);

function SelectCell({ field, id, label, value, disabled, invalid, describedBy, placeholder, onChange }: {
  field: FieldDef; id: string; label: string; value: string; disabled?: boolean; invalid: boolean; describedBy?: string; placeholder?: string; onChange: (value: string) => void;
}) {
  const master = useMasterOptions(field.master);
  const options = field.master ? master.options : (field.options ?? []);
  return (
    <select id={id} aria-label={label} aria-invalid={invalid || undefined} aria-describedby={describedBy} className={inputClass} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
      {!field.required && <option value="">{placeholder ?? '—'}</option>}
      {options.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
    </select>
  );
}

/** A `ref` cell not edited here: the record's name, looked up when the row came without it. */
function RefValue({ field, value, known, ...box }: { field: FieldDef; value: string; known: string | undefined; id: string; label: string; className: string }) {
  return <ValueBox field={field} text={useRefName(field, value, known)} {...box} />;
}

export function LinesEditor({ state, disabled: busy, readOnly, counter = '行目', labels = {}, derived, placeholder, refLabel, footer, fixedRows = [] }: LinesEditorProps) {
  const disabled = busy || readOnly;
  const { child, rows } = state;
  const labelOf = (field: FieldDef) => labels[field.name] ?? field.label;
  const derivedFields = child.derived ?? [];
  const full = rows.length >= child.max;
  const focusAfter = useRef<string | null>(null);

  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  const setValue = (row: ChildRow, name: string, value: string) =>
    state.setRows(rows.map((r) => (r.key === row.key ? { ...r, values: { ...r.values, [name]: value } } : r)));
  const add = () => {
    if (full) return;
    const row = state.newRow();
    state.setRows([...rows, row]);
    focusAfter.current = cellId(row, child.fields[0].name);
  };
  const remove = (index: number) => {
    state.setRows(rows.filter((_, i) => i !== index));
    const next = rows[index + 1] ?? rows[index - 1];
    focusAfter.current = next ? cellId(next, child.fields[0].name) : `${child.key}-add`;
  };
  /** Moves a row; the focus follows it (to its other arrow when it reaches the end its button pointed to). */
  const move = (index: number, by: number, focus: string) => {
    const to = Math.max(0, Math.min(rows.length - 1, index + by));
    state.setRows(moveRow(rows, index, to));
    const row = rows[index];
    focusAfter.current = focus === `${child.key}-${row.key}-up` && to === 0 ? `${child.key}-${row.key}-down`
      : focus === `${child.key}-${row.key}-down` && to === rows.length - 1 ? `${child.key}-${row.key}-up` : focus;
  };
  const onRowKeyDown = (index: number) => (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || disabled) return;
    event.preventDefault();
    move(index, event.key === 'ArrowUp' ? -1 : 1, (event.target as HTMLElement).id);
  };

  return (
    <div className="flex flex-col gap-[8px]">
      <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
        <table className="w-full border-collapse text-[1.4rem]">
          <caption className="visually-hidden">{child.label}</caption>
          <thead className="bg-subtle text-ink-soft">
            <tr className="h-[36px]">
              <th scope="col" className="w-[32px] px-[8px] text-right">#</th>
              {child.fields.map((f) => <th key={f.name} scope="col" className={clsx('px-[8px]', NUMERIC.has(f.type) ? 'text-right' : 'text-left')}>{labelOf(f)}</th>)}
              {derivedFields.map((f) => <th key={f.name} scope="col" className="px-[8px] text-right">{labelOf(f)}</th>)}
              <th scope="col" className="px-[8px]"><span className="visually-hidden">操作</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const n = `${index + 1}${counter}`;
              const problems = state.problemsOf(row);
              const shown = derived?.(row) ?? {};
              return (
                <tr key={row.key} className="border-t border-line" onKeyDown={onRowKeyDown(index)}>
                  <td className="px-[8px] py-[10px] text-right align-top tabular-nums text-muted">{index + 1}</td>
                  {child.fields.map((field) => {
                    const id = cellId(row, field.name);
                    const label = `${n}の${labelOf(field)}`;
                    const problem = problems[field.name];
                    const errorId = problem ? `${id}-error` : undefined;
                    const value = row.values[field.name] ?? '';
                    let input: ReactNode;
                    const stored = row.stored?.[`${child.prefix}${field.name}_label`];
                    const storedLabel = refLabel?.(row, field) ?? (stored ? cellText(stored) : undefined);
                    if (readOnly) {
                      // A row the user does not edit is shown as its values, like a read-only form's fields.
                      const className = NUMERIC.has(field.type) ? 'w-[90px]' : 'min-w-[120px]';
                      input = field.type === 'ref'
                        ? <RefValue field={field} value={value} known={storedLabel} id={id} label={label} className={className} />
                        : <ValueBox field={field} text={valueText(field, value, storedLabel)} id={id} label={label} className={className} />;
                    } else if (field.type === 'ref') {
                      input = (
                        <>
                          <label htmlFor={id} className="visually-hidden">{label}</label>
                          <RefPicker field={{ ...field, label }} inputId={id} value={value} label={storedLabel}
                            onChange={(v) => setValue(row, field.name, v)} disabled={disabled} invalid={Boolean(problem)} describedBy={errorId} />
                        </>
                      );
                    } else if (field.type === 'select') {
                      input = <SelectCell field={field} id={id} label={label} value={value} disabled={disabled} invalid={Boolean(problem)} describedBy={errorId}
                        placeholder={placeholder?.(row, field)} onChange={(v) => setValue(row, field.name, v)} />;
                    } else {
                      const numeric = NUMERIC.has(field.type);
                      input = (
                        <input id={id} aria-label={label} aria-invalid={problem ? true : undefined} aria-describedby={errorId} disabled={disabled}
                          inputMode={numeric ? 'numeric' : undefined} maxLength={numeric ? undefined : maxLength(field)} placeholder={placeholder?.(row, field)}
                          className={clsx(inputClass, numeric ? `${field.type === 'money' ? 'w-[110px]' : 'w-[80px]'} text-right` : 'w-full min-w-[120px]')}
                          value={value} onChange={(e) => setValue(row, field.name, e.target.value)}
                          onBlur={(e) => {
                            const half = convertsInput(field) ? halfWidthOf(field, e.target.value) : e.target.value;
                            if (half !== e.target.value) setValue(row, field.name, half);
                          }} />
                      );
                    }
                    return (
                      <td key={field.name} className={clsx('px-[8px] py-[4px] align-top', field.type === 'ref' && 'min-w-[200px]')}>
                        {input}
                        {problem && <p id={errorId} role="alert" className="mt-[2px] max-w-[220px] text-left text-[1.2rem] text-danger">{problem}</p>}
                      </td>
                    );
                  })}
                  {derivedFields.map((field) => (
                    <td key={field.name} className="px-[8px] py-[10px] text-right align-top tabular-nums" data-testid={`line-${index + 1}-${field.name}`}>
                      {field.name in shown ? shown[field.name] : cellText(row.stored?.[`${child.prefix}${field.name}`] ?? '')}
                    </td>
                  ))}
                  <td className="whitespace-nowrap px-[8px] py-[4px] align-top">
                    {!disabled && (
                      <div className="flex gap-[4px]">
                        <button type="button" className={buttonClass('ghost', 'sm')} disabled={index === 0} onClick={() => move(index, -1, `${child.key}-${row.key}-up`)} id={`${child.key}-${row.key}-up`}
                          aria-label={`${n}を上へ`} title="上へ（Alt+↑）">↑</button>
                        <button type="button" className={buttonClass('ghost', 'sm')} disabled={index === rows.length - 1} onClick={() => move(index, 1, `${child.key}-${row.key}-down`)} id={`${child.key}-${row.key}-down`}
                          aria-label={`${n}を下へ`} title="下へ（Alt+↓）">↓</button>
                        <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => remove(index)}>
                          削除<span className="visually-hidden">（{n}）</span>
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
            {fixedRows.map((fixed) => (
              <tr key={fixed.key} className="border-t border-line bg-subtle" data-testid={`fixed-row-${fixed.key}`}>
                <td className="px-[8px] py-[10px] text-right align-top text-muted">—</td>
                {child.fields.map((field) => (
                  <td key={field.name} className={clsx('px-[8px] py-[10px] align-top', NUMERIC.has(field.type) && 'text-right tabular-nums')}>{fixed.cells[field.name] ?? ''}</td>
                ))}
                {derivedFields.map((field) => (
                  <td key={field.name} className="px-[8px] py-[10px] text-right align-top tabular-nums" data-testid={`fixed-${fixed.key}-${field.name}`}>{fixed.cells[field.name] ?? ''}</td>
                ))}
                <td className="whitespace-nowrap px-[8px] py-[10px] align-top text-[1.2rem] text-muted">{fixed.note}</td>
              </tr>
            ))}
          </tbody>
          {footer && <tfoot>{footer}</tfoot>}
        </table>
      </div>
      {!disabled && (
        <div className="flex items-center gap-[12px]">
          <button type="button" id={`${child.key}-add`} className={buttonClass('secondary', 'sm')} onClick={add} disabled={full}>＋ {child.label}を追加</button>
          {full && <span className="text-[1.2rem] text-muted">{child.label}は{child.max}件までです。</span>}
        </div>
      )}
    </div>
  );
}
