/**
 * One form field drawn from its declaration: the widget follows the field type, the Japanese
 * label is the accessible name, the validation message sits under the input (aria-describedby).
 */
import clsx from 'clsx';
import { useEffect, useState, type ClipboardEvent } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { FormRecord } from '@/lib/list/record-mapper';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { monthLabel } from '@/lib/format';
import { formatDateTime, formatMoney } from '@/lib/format';
import { convertsInput, halfWidthOf, maxLength } from '@/lib/resources/schema';
import type { FieldDef } from '@/lib/resources/types';
import { resourceNamed } from '@/lib/resources';
import { RefValue } from './cells';
import { ImageField } from './image-field';
import { RefPicker } from './ref-picker';
import { ZipInput } from './zip-input';
import { inputClass, labelClass, valueClass } from './styles';

export interface FieldInputProps {
  field: FieldDef;
  form: UseFormReturn<FormRecord>;
  /** The whole form is read-only (the role may not write). */
  disabled?: boolean;
  /** This field is fixed by the route (the customer a contact is entered under). */
  locked?: boolean;
  /** The name of the stored value as the detail answered it (`{column}_label`): a `ref`'s record, a master value's text. */
  refLabel?: string;
  /** The form enters a new record (a secret is then set, not changed). */
  creating?: boolean;
}

const fieldId = (name: string) => `field-${name}`;
const errorId = (name: string) => `field-${name}-error`;
const hintId = (name: string) => `field-${name}-hint`;
const countId = (name: string) => `field-${name}-count`;

/** Free text shows its limit and how much of it is used (formats such as phone or e-mail are bounded by their form). */
const showsLength = (field: FieldDef): boolean => !field.readOnly && (field.type === 'text' || field.type === 'kana' || field.type === 'textarea');

/** Whether a field is shown as its value rather than an input: derived, or not editable by this user (a picture stays a picture). */
const shownAsValue = (field: FieldDef, disabled: boolean | undefined): boolean => Boolean(field.readOnly) || (Boolean(disabled) && field.type !== 'image');

/** The texts that describe an input: its error (when invalid), its hint and its length limit. */
const describedBy = (field: FieldDef, invalid: boolean): string | undefined =>
  [invalid ? errorId(field.name) : '', field.hint ? hintId(field.name) : '', showsLength(field) ? countId(field.name) : ''].filter(Boolean).join(' ') || undefined;

/**
 * How many pasted characters the input's `maxLength` will drop (the browser cuts a paste silently).
 * @example overflowOfPaste({ value: 'abc', selectionStart: 3, selectionEnd: 3 }, 'defg', 5) // 2
 */
export function overflowOfPaste(input: { value: string; selectionStart: number | null; selectionEnd: number | null }, pasted: string, max: number): number {
  const selected = (input.selectionEnd ?? input.value.length) - (input.selectionStart ?? input.value.length);
  return Math.max(0, input.value.length - selected + pasted.length - max);
}

/** 「12/200文字」: the limit of a free-text field and how much of it is used. */
function LengthCounter({ field, length }: { field: FieldDef; length: number }) {
  const max = maxLength(field);
  return (
    <span id={countId(field.name)} className={clsx('tabular ml-auto text-[12px]', length > max ? 'text-danger' : length === max ? 'text-ink-soft' : 'text-muted')}>
      {length}/{max}文字
    </span>
  );
}

const INPUT_TYPE: Partial<Record<FieldDef['type'], string>> = {
  tel: 'tel',
  email: 'email',
  url: 'url',
  date: 'date',
  secret: 'password',
};

const isNumeric = (field: FieldDef) => field.type === 'number' || field.type === 'money' || field.type === 'decimal';

/** What a select shows for a stored value its options lack (a retired master value, an imported code). */
export const missingOptionText = (shown: string, loading: boolean): string => (loading ? shown : `${shown}（現在の選択肢にありません）`);

/**
 * A select drawn from its value, not from the DOM: the stored value is shown whenever its options
 * arrive (a master after the record, a reload), and a value no option has is shown by the name the
 * detail answered (`{column}_label`) or its code, never blanked.
 */
function SelectInput({ field, form, aria, disabled, storedLabel }: {
  field: FieldDef;
  form: UseFormReturn<FormRecord>;
  aria: Record<string, unknown>;
  disabled?: boolean;
  storedLabel?: string;
}) {
  const master = useMasterOptions(field.options ? undefined : field.master);
  const options = field.options ?? master.options;
  return (
    <Controller
      control={form.control}
      name={field.name}
      render={({ field: f }) => {
        const value = String(f.value ?? '');
        const missing = value !== '' && !options.some((o) => o.value === value);
        return (
          <select {...aria} ref={f.ref} name={f.name} value={value} onChange={(e) => f.onChange(e.target.value)} onBlur={f.onBlur} disabled={disabled} className={clsx(inputClass, 'w-full')}>
            <option value="">{master.isLoading && !value ? '読み込み中…' : '（未選択）'}</option>
            {missing && <option value={value}>{missingOptionText(storedLabel || value, master.isLoading)}</option>}
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.text}
              </option>
            ))}
          </select>
        );
      }}
    />
  );
}

/**
 * What a field shows where it is not edited (a derived field, a form the role may only read): its value as
 * people read it — an option's or a record's name (`{column}_label`, so no master is loaded for it), money with
 * separators, a flag as はい・いいえ, a time in Japan time; a secret is never shown.
 * @example valueText({ name: 'status', label: '状態', type: 'select', tab: 'basic', master: 'mt_status' }, '2', '休止中') // '休止中'
 */
export function valueText(field: FieldDef, value: string, label?: string): string {
  switch (field.type) {
    case 'flag':
      return value === '1' ? 'はい' : 'いいえ';
    case 'secret':
      return '';
    case 'money':
      return formatMoney(value);
    case 'datetime':
      return formatDateTime(value);
    case 'select':
    case 'ref':
      if (value === '') return '';
      return field.options?.find((o) => o.value === value)?.text ?? (label || value);
    default:
      return field.format === 'month' && value ? monthLabel(value) : value;
  }
}

/**
 * A value where it is not edited: a read-only text box (a textarea for long text) drawn as plain text, so it can be
 * selected and copied and keeps its accessible name — the one drawing of a form field's and a child row cell's value.
 */
export function ValueBox({ field, text, id, label, describedBy, className = '' }: { field: FieldDef; text: string; id: string; label?: string; describedBy?: string; className?: string }) {
  const props = { id, value: text, readOnly: true, 'aria-label': label, 'aria-describedby': describedBy, 'data-read-only': '' };
  if (field.type === 'textarea') return <textarea {...props} rows={Math.min(8, Math.max(1, text.split('\n').length))} className={clsx(valueClass, 'resize-none py-[4px] leading-[1.5]', className)} />;
  return <input {...props} className={clsx(valueClass, isNumeric(field) && 'text-right tabular-nums', className)} />;
}

/** A field shown as its value, not as an input (never registered: it is not part of a save). */
function ReadOnlyValue({ field, form, refLabel }: FieldInputProps) {
  const value = String(useWatch({ control: form.control, name: field.name }) ?? '');
  // A record it names (the order a slip was made from, the invoice that billed it): its name, linked — never its id.
  if (field.type === 'ref' && field.ref && value) {
    return (
      <output id={fieldId(field.name)} aria-describedby={field.hint ? hintId(field.name) : undefined} data-read-only="" className={clsx(valueClass, 'flex w-full items-center')}>
        <RefValue target={resourceNamed(field.ref)} id={value} name={refLabel || `ID ${value}`} />
      </output>
    );
  }
  return <ValueBox field={field} text={valueText(field, value, refLabel)} id={fieldId(field.name)} describedBy={field.hint ? hintId(field.name) : undefined} className={isNumeric(field) ? 'max-w-[260px]' : ''} />;
}

function Widget({ field, form, disabled, invalid, locked, refLabel, creating, onOverflow }: FieldInputProps & { invalid: boolean; onOverflow: (lost: number) => void }) {
  const { register, setValue, getValues } = form;
  const aria = {
    id: fieldId(field.name),
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy(field, invalid),
    'aria-required': field.required || undefined,
  };
  const convertOnBlur = convertsInput(field) && field.type !== 'date'
    ? () => {
        const now = String(getValues(field.name) ?? '');
        const converted = halfWidthOf(field, now);
        if (converted !== now) setValue(field.name, converted, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
      }
    : undefined;

  const onPaste = showsLength(field)
    ? (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => onOverflow(overflowOfPaste(event.currentTarget, event.clipboardData.getData('text'), maxLength(field)))
    : undefined;

  // A field this user does not edit here is shown as its value; a picture stays a picture.
  if (shownAsValue(field, disabled)) return <ReadOnlyValue field={field} form={form} refLabel={refLabel} />;
  // A reference without a master to choose from is found by keyword; one with a master is a select.
  if (field.type === 'ref' && !field.master) {
    return (
      <Controller
        control={form.control}
        name={field.name}
        render={({ field: f }) => (
          <RefPicker
            field={field}
            inputId={aria.id}
            value={f.value ?? ''}
            label={refLabel}
            onChange={f.onChange}
            disabled={disabled || locked}
            invalid={invalid}
            describedBy={aria['aria-describedby']}
          />
        )}
      />
    );
  }

  switch (field.type) {
    case 'textarea':
      return <textarea {...aria} {...register(field.name)} onPaste={onPaste} disabled={disabled} rows={4} maxLength={maxLength(field)} className={clsx(inputClass, 'h-auto min-h-[90px] w-full py-[6px] leading-[1.5]')} />;
    case 'ref':
    case 'select':
      return <SelectInput field={field} form={form} aria={aria} disabled={disabled || locked} storedLabel={refLabel} />;
    case 'flag':
      return (
        <Controller
          control={form.control}
          name={field.name}
          render={({ field: f }) => (
            <input
              {...aria}
              type="checkbox"
              ref={f.ref}
              name={f.name}
              checked={f.value === '1'}
              onChange={(e) => f.onChange(e.target.checked ? '1' : '0')}
              onBlur={f.onBlur}
              disabled={disabled}
              className="h-[18px] w-[18px] accent-brand"
            />
          )}
        />
      );
    case 'zip':
      return <ZipInput field={field} form={form} aria={aria} disabled={disabled} onBlur={convertOnBlur} />;
    case 'image':
      return (
        <Controller
          control={form.control}
          name={field.name}
          render={({ field: f, fieldState }) => (
            <ImageField label={field.label} value={f.value ?? ''} onChange={f.onChange} disabled={disabled} error={fieldState.error?.message} />
          )}
        />
      );
    case 'number':
    case 'money':
    case 'decimal':
      return (
        <div className="flex max-w-[260px] items-center gap-[4px]">
          <input
            {...aria}
            type="text"
            inputMode={field.type === 'decimal' ? 'decimal' : 'numeric'}
            {...register(field.name, { onBlur: convertOnBlur })}
            disabled={disabled}
            className={clsx(inputClass, 'w-full text-right tabular-nums')}
          />
          {field.type === 'money' && <span className="text-[13px] text-ink-soft">円</span>}
        </div>
      );
    default:
      return (
        <input
          {...aria}
          type={INPUT_TYPE[field.type] ?? 'text'}
          {...register(field.name, { onBlur: convertOnBlur })}
          onPaste={onPaste}
          disabled={disabled}
          maxLength={field.type === 'date' ? undefined : maxLength(field)}
          placeholder={field.placeholder ?? (field.type === 'secret' && !creating ? '変更するときだけ入力' : undefined)}
          autoComplete={field.type === 'secret' ? 'new-password' : 'off'}
          className={clsx(inputClass, 'w-full', field.type === 'date' && 'max-w-[180px]')}
        />
      );
  }
}

export function FieldInput(props: FieldInputProps) {
  const { field, form } = props;
  const asValue = shownAsValue(field, props.disabled);
  const error = form.formState.errors[field.name]?.message;
  const invalid = Boolean(error);
  // Characters a paste lost to the limit, said until the text is shortened.
  const [lost, setLost] = useState(0);
  const length = String(useWatch({ control: form.control, name: field.name }) ?? '').length;
  useEffect(() => {
    if (length < maxLength(field)) setLost(0);
  }, [length, field]);
  const message = error && field.type !== 'image' && (
    <p id={errorId(field.name)} role="alert" className="text-[13px] text-danger">
      {error}
    </p>
  );
  const widget = <Widget {...props} invalid={invalid} onOverflow={setLost} />;
  // A secret (a password) is set, never read: a form the user does not edit leaves it out.
  if (asValue && field.type === 'secret') return null;
  if (field.type === 'flag' && !asValue) {
    return (
      <div className={clsx('flex flex-col justify-end gap-[3px]', field.wide && 'md:col-span-2')}>
        <label htmlFor={fieldId(field.name)} className={clsx(labelClass, 'inline-flex h-[30px] items-center gap-[8px]')}>
          {widget}
          {field.label}
        </label>
        {message}
      </div>
    );
  }
  return (
    <div className={clsx('flex flex-col gap-[3px]', (field.wide || field.type === 'image') && 'md:col-span-2')}>
      {field.type === 'image' ? (
        <span className={labelClass}>{field.label}</span>
      ) : (
        <div className="flex items-baseline gap-[4px]">
          <label htmlFor={fieldId(field.name)} className={labelClass}>
            {field.label}
          </label>
          {field.required && !asValue && (
            <span aria-hidden="true" className="text-[11px] text-danger">
              必須
            </span>
          )}
          {showsLength(field) && !asValue && <LengthCounter field={field} length={length} />}
        </div>
      )}
      {widget}
      {message}
      {lost > 0 && (
        <p role="alert" className="text-[13px] text-danger">
          {field.label}：貼り付けた文字のうち{lost}文字は上限（{maxLength(field)}文字）を超えるため入力されませんでした。
        </p>
      )}
      {field.hint && (
        <p id={hintId(field.name)} className="text-[12px] leading-[1.6] text-muted">
          {field.hint}
        </p>
      )}
    </div>
  );
}
