/**
 * Child rows of a record as the lines editor edits them (ResourceDef.children: an order's lines, a round's
 * stops): each row is its declared fields as text, keyed for React, with the answer row it was read from.
 * The same functions read the rows from `children.call`, tell what changed, and build the save's postData.
 */
import { checkForm, childSchema } from '../../resources/schema';
import { initialValue, type ChildDef, type FieldDef } from '../../resources/types';
import type { Row } from './use-list-controller';
import { cellText } from '../../resources/checks';

export interface ChildRow {
  /** Stable React key of the row (never sent). */
  key: number;
  /** The declared fields' values as typed. */
  values: Record<string, string>;
  /** The stored row it was read from (its derived columns, e.g. `odd_amount`), absent for a new row. */
  stored?: Row;
}

let lastKey = 0;
const nextKey = (): number => ++lastKey;


/** A new, empty row: every field empty but for its `initial` (a stop's result 配達済, a line's quantity 1). */
export function emptyChildRow(child: ChildDef, initial: Record<string, string> = {}): ChildRow {
  return { key: nextKey(), values: Object.fromEntries(child.fields.map((f) => [f.name, initial[f.name] ?? initialValue(f, { today: '' })])) };
}

/**
 * Whether a stored row is one the server derives (`ChildDef.derivedFlag`: an order's fee line): never edited or sent.
 * @example isDerivedRow(orderResource.children!, { odd_fee: 1 }) // true
 */
export const isDerivedRow = (child: ChildDef, row: Row): boolean => child.derivedFlag !== undefined && Number(row[`${child.prefix}${child.derivedFlag}`] ?? 0) === 1;

/**
 * The rows of a record as its `children.call` answered them (prefixed columns → field values); the rows the server
 * derives are left out (`isDerivedRow`): the form shows them its own way and never sends them.
 * @example childRowsOf(orderResource.children, [{ odd_it_id: 3, odd_quantity: 2, … }])[0].values // { it_id: '3', quantity: '2', … }
 */
export function childRowsOf(child: ChildDef, stored: readonly Row[]): ChildRow[] {
  return stored.filter((row) => !isDerivedRow(child, row))
    .map((row) => ({ key: nextKey(), values: Object.fromEntries(child.fields.map((f) => [f.name, cellText(row[`${child.prefix}${f.name}`])])), stored: row }));
}

/** The row's first field (the item, the customer): a row without it is an unused blank row, never sent. */
const keyField = (child: ChildDef): FieldDef => child.fields.find((f) => f.required) ?? child.fields[0];

/** Whether a row is filled in (its first required field has a value). */
export const isFilled = (child: ChildDef, row: ChildRow): boolean => (row.values[keyField(child).name] ?? '').trim() !== '';

/**
 * A filled row checked as the save will check it (the declared fields and row rule, `childSchema`): field → message.
 * @example checkChildRow(orderResource.children!, row) // { quantity: '数量は整数で入力してください。' }
 */
export function checkChildRow(child: ChildDef, row: ChildRow): Record<string, string> {
  if (!isFilled(child, row)) return {};
  const checked = checkForm(childSchema(child), row.values);
  return checked.ok ? {} : checked.fields;
}

/** The banner of a save stopped by its rows' own check. */
export const invalidRowsMessage = (child: ChildDef): string => `${child.label}に誤りがあります。赤く表示された項目を確認してください。`;

/** The rows a save sends (filled rows, their declared fields as typed), in order. */
export function childPayload(child: ChildDef, rows: readonly ChildRow[]): Record<string, string>[] {
  return rows.filter((row) => isFilled(child, row)).map((row) => ({ ...row.values }));
}

/** What a save would write of the rows: equal keys mean nothing changed (the leave guard, a save before a status move). */
export const childRowsKey = (child: ChildDef, rows: readonly ChildRow[]): string => JSON.stringify(childPayload(child, rows));

/**
 * The row messages of a refusal (keyed by the index among the rows sent) moved onto the rows on screen,
 * by row key: blank rows are not sent, so the n-th sent row is the n-th filled one.
 */
export function messagesByRowKey(child: ChildDef, rows: readonly ChildRow[], sent: Readonly<Record<number, Record<string, string>>>): Record<number, Record<string, string>> {
  const filled = rows.filter((row) => isFilled(child, row));
  return Object.fromEntries(Object.entries(sent).flatMap(([index, messages]) => {
    const row = filled[Number(index)];
    return row ? [[row.key, messages]] : [];
  }));
}

/** The id of a row's input (the lines editor's cells; a refusal focuses the first one it names). */
export const childCellId = (rowKey: number, field: string): string => `child-${rowKey}-${field}`;

/** Moves the row at `from` to `to` (clamped), answering a new array. */
export function moveRow<T>(rows: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(rows.length - 1, to));
  if (from === target || from < 0 || from >= rows.length) return [...rows];
  const next = [...rows];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved);
  return next;
}
