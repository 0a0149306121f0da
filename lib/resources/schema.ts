/**
 * The valibot schema of a resource, built from its field declarations. The same schema validates
 * the form (react-hook-form resolver) and the server's save call.
 */
import * as v from 'valibot';
import { isDay } from '../day';
import { LIMITS, NAMED_MESSAGES } from '../protocol';
import { ZIP_PATTERN, zipFormatMessage } from '../postal';
import { hasUnacceptedCharacter, toHalfWidth, toHalfWidthNumber, toStoredKana, toStoredText } from '../text';
import { toZenginKana, zenginUnheld } from '../zengin/format';
import { trackingNoProblem } from '../orders/tracking';
import { columnKind, type ChildDef, type FieldDef, type ResourceDef } from './types';

/** Largest data URL accepted for a picture (about 3 MB). */
export const MAX_IMAGE_CHARS = 4_000_000;
const MAX_LONG_TEXT = 4000;

const TEL = /^[0-9]{2,5}-?[0-9]{1,4}-?[0-9]{3,4}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^https?:\/\/\S+$/;
const IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

/** Text input as the form or the API sends it: a string or a number, trimmed. */
const textIn = v.pipe(
  v.union([v.string(), v.number(), v.null()], '文字列で指定してください。'),
  v.transform((x) => (x === null ? '' : String(x).trim())),
);

/** The default maximum length of a text field of this kind. */
export function maxLength(field: FieldDef): number {
  if (field.max) return field.max;
  if (field.type === 'image') return MAX_IMAGE_CHARS;
  if (field.type === 'textarea') return MAX_LONG_TEXT;
  return LIMITS.maxText;
}

/** Whether the field converts full-width characters to half-width. */
export const isHalfWidthField = (field: FieldDef): boolean =>
  ['tel', 'zip', 'email', 'url', 'date', 'number', 'money', 'decimal', 'ref'].includes(field.type);

/** Whether the field converts what is typed (the form when the input loses focus, the server on save). */
export const convertsInput = (field: FieldDef): boolean => isHalfWidthField(field) || field.type === 'text' || field.type === 'kana';

/**
 * The conversion a field applies to what is typed: phone and postcode half-width with their dashes
 * unified; カナ to full-width katakana (hiragana and half-width kana converted); one-line text with
 * full-width letters and digits half-width and half-width kana full-width; codes, numbers and
 * addresses half-width.
 * @example halfWidthOf({ type: 'kana', … }, 'やまだ ﾀﾛｳ') // 'ヤマダ タロウ'
 */
export function halfWidthOf(field: FieldDef, value: string): string {
  if (field.type === 'tel' || field.type === 'zip') return toHalfWidthNumber(value);
  if (field.type === 'kana') return field.zengin ? toZenginKana(value) : toStoredKana(value);
  const half = field.type === 'text' ? toStoredText(value) : isHalfWidthField(field) ? toHalfWidth(value).trim() : value;
  return field.lowerCase ? half.toLowerCase() : half;
}

/** The message of an empty required field: chosen things are 「選択」, typed things 「入力」. */
export const requiredMessage = (field: FieldDef): string =>
  `${field.label}を${field.type === 'select' || field.type === 'ref' ? '選択' : '入力'}してください。`;

/** What a number field accepts: integers, or decimals with at most `scale` digits after the point. */
const numberPattern = (field: FieldDef): RegExp =>
  field.type !== 'decimal' ? /^-?\d+$/ : field.scale === undefined ? /^-?\d+(\.\d+)?$/ : new RegExp(`^-?\\d+(\\.\\d{1,${field.scale}})?$`);

const numberMessage = (field: FieldDef): string =>
  field.type !== 'decimal' ? `${field.label}は整数で入力してください。`
    : field.scale === undefined ? `${field.label}は数値で入力してください。` : `${field.label}は小数第${field.scale}位までの数値で入力してください。`;

/** The schema of one field's value (also validates inputs that are not a resource's, e.g. a recipient address). */
export function fieldSchema(field: FieldDef) {
  const label = field.label;
  const required = v.check((x: string) => !field.required || x !== '', requiredMessage(field));
  if (columnKind(field) !== 'text') {
    const integer = field.type !== 'decimal';
    const min = field.type === 'ref' ? 1 : field.min;
    // What the column holds on both databases (PostgreSQL INTEGER is 32-bit), whatever the declaration says.
    const lowest = Math.max(min ?? -Infinity, integer ? LIMITS.minInteger : -LIMITS.maxDecimal);
    const highest = Math.min(field.max ?? Infinity, integer ? LIMITS.maxInteger : LIMITS.maxDecimal);
    return v.pipe(
      textIn,
      v.transform((x) => toHalfWidth(x).replace(/,/g, '').replace(/円$/, '')),
      required,
      v.check((x) => x === '' || numberPattern(field).test(x), numberMessage(field)),
      v.transform((x) => (x === '' ? null : Number(x))),
      v.check((x) => x === null || min === undefined || x >= min, field.type === 'ref' ? `${label}を選択してください。` : `${label}は${min}以上で入力してください。`),
      v.check((x) => x === null || field.max === undefined || x <= field.max, `${label}は${field.max}以下で入力してください。`),
      v.check((x) => field.type !== 'flag' || x === null || x === 0 || x === 1, `${label}は 0 か 1 で指定してください。`),
      v.check((x) => x === null || (x >= lowest && x <= highest), NAMED_MESSAGES.numberRange(label, lowest, highest)),
    );
  }
  const max = maxLength(field);
  const base = v.pipe(
    textIn,
    v.check((x) => !hasUnacceptedCharacter(x), NAMED_MESSAGES.badCharacters(label)),
    v.transform((x) => halfWidthOf(field, x)),
    required,
    v.check((x) => x === '' || field.min === undefined || x.length >= field.min, `${label}は${field.min}文字以上で入力してください。`),
    v.check((x) => x.length <= max, field.type === 'image' ? `${label}のファイルが大きすぎます。` : `${label}は${max}文字以内で入力してください。`),
  );
  switch (field.type) {
    case 'tel':
      return v.pipe(base, v.check((x) => x === '' || TEL.test(x), `${label}の形式が正しくありません（例: 03-1234-5678）。`));
    case 'zip':
      return v.pipe(
        base,
        v.check((x) => x === '' || ZIP_PATTERN.test(x), zipFormatMessage(label)),
        v.transform((x) => (x.length === 7 ? `${x.slice(0, 3)}-${x.slice(3)}` : x)),
      );
    case 'email':
      return v.pipe(base, v.check((x) => x === '' || EMAIL.test(x), `${label}の形式が正しくありません（例: info@example.jp）。`));
    case 'url':
      return v.pipe(base, v.check((x) => x === '' || URL_RE.test(x), `${label}は http:// または https:// で始まる URL を入力してください。`));
    case 'date':
      return v.pipe(
        base,
        v.transform((x) => x.replace(/\//g, '-')),
        v.check((x) => x === '' || isDay(x), `${label}は YYYY-MM-DD の形式の正しい日付で入力してください。`),
      );
    case 'kana':
      if (field.zengin) {
        return v.pipe(base, v.check((x) => zenginUnheld(x).length === 0, (issue) =>
          `${label}に口座振替で使えない文字があります（${zenginUnheld(issue.input).join('')}）。カナ・英大文字・数字・スペースと ( ) . - / で入力してください。`));
      }
      return v.pipe(base, v.check((x) => x === '' || /^[\u30A0-\u30FF\s・ー－\-（）()]+$/.test(x), `${label}はカタカナで入力してください。`));
    case 'image':
      return v.pipe(base, v.check((x) => x === '' || IMAGE.test(x), `${label}は画像ファイル（PNG・JPEG・GIF・WebP）を選んでください。`));
    case 'select':
      return v.pipe(
        base,
        v.check((x) => x === '' || !field.options || field.options.some((o) => o.value === x), `${label}の選択肢にない値です。`),
      );
    default:
      // A tracking number: 送り状取込's own check and words (the save refuses what the import would).
      if (field.trackingNo) return v.pipe(base, v.check((x) => x === '' || !trackingNoProblem(label, x), (issue) => trackingNoProblem(label, issue.input) ?? ''));
      return base;
  }
}

export type FormValues = Record<string, string | number | null>;

/** Fields a save may write (read-only fields are answered but never written). */
export const writableFields = (def: ResourceDef): FieldDef[] => def.fields.filter((f) => !f.readOnly);

/** A cross-field rule: field → message for each problem, or nothing. */
export type FormCheck = (values: Record<string, unknown>) => Record<string, string> | undefined;

/**
 * The schema of a form drawn from field declarations: every field (optional: missing keys stay
 * undefined), plus `extra` entries; unknown keys are dropped; the cross-field rule runs last and
 * reports under the fields it names. A resource's form and a form of its own (stock adjustment)
 * are both built here.
 */
export function formSchema(fields: readonly FieldDef[], check?: FormCheck, extra: Record<string, v.GenericSchema<unknown, unknown>> = {}) {
  const entries: Record<string, v.GenericSchema<unknown, unknown>> = { ...extra };
  for (const field of fields) entries[field.name] = v.optional(fieldSchema(field) as v.GenericSchema<unknown, unknown>);
  return v.pipe(
    v.object(entries),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || !check) return;
      const problems = check(dataset.value) ?? {};
      for (const [name, message] of Object.entries(problems)) {
        addIssue({ message, path: [{ type: 'object', origin: 'value', input: dataset.value, key: name, value: (dataset.value as Record<string, unknown>)[name] }] });
      }
    }),
  );
}

/**
 * The schema of a resource's form values: every writable field, plus the `modified` the record
 * was loaded with. Unknown keys are dropped. Cross-field rules come from `def.check`.
 */
export function resourceSchema(def: ResourceDef) {
  // Missing keys stay undefined: an update writes only what was sent; an insert fills '' first.
  return formSchema(writableFields(def), def.check, {
    modified: v.optional(v.pipe(textIn, v.maxLength(40, '更新日時が正しくありません。'))),
  });
}

const schemas = new WeakMap<ResourceDef, ReturnType<typeof resourceSchema>>();

export type CheckedValues =
  | { ok: true; values: Record<string, string | number | null | undefined> }
  | { ok: false; message: string; fields: Record<string, string> };

/**
 * Validates form values with the resource's schema: the parsed values, or the first message and
 * every field's first message (the server's 400 answer and a form's marks).
 * @example checkValues(itemResource, { code: '', name: '水' }) // { ok: false, message: '商品コードを入力してください。', fields: { code: '…' } }
 */
export function checkValues(def: ResourceDef, input: Record<string, unknown>): CheckedValues {
  let schema = schemas.get(def);
  if (!schema) schemas.set(def, (schema = resourceSchema(def)));
  return checkForm(schema, input);
}

const childSchemas = new WeakMap<ChildDef, ReturnType<typeof formSchema>>();

/** The schema of one child row (ResourceDef.children): its declared fields and row rule, for the save and the lines editor alike. */
export function childSchema(child: ChildDef): ReturnType<typeof formSchema> {
  let schema = childSchemas.get(child);
  if (!schema) childSchemas.set(child, (schema = formSchema(child.fields, child.check)));
  return schema;
}

/**
 * Validates values against any form schema (`formSchema`, `resourceSchema`): the parsed values, or
 * the first message and every field's first message.
 */
export function checkForm(schema: v.GenericSchema<unknown, unknown>, input: Record<string, unknown>): CheckedValues {
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, values: result.output as Record<string, string | number | null | undefined> };
  const fields: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    fields[typeof key === 'string' ? key : '_'] ??= issue.message;
  }
  return { ok: false, message: result.issues[0].message, fields };
}

/**
 * A problem of one record among several saved together, naming the record.
 * @example recordMessage('北海道', '送料は0以上で入力してください。') // '北海道：送料は0以上で入力してください。'
 */
export const recordMessage = (title: string, message: string): string => (title ? `${title}：${message}` : message);

/** The key of a field of one record among several (`{ '12.fee': message }` in a bulk answer's `fields`). */
export const recordFieldKey = (id: string | number, field: string): string => `${id}.${field}`;

/** Empty form values of a resource: '' for text kinds, '' for numbers (shown empty). */
export function emptyValues(def: ResourceDef): Record<string, string> {
  return Object.fromEntries(def.fields.map((f) => [f.name, '']));
}
