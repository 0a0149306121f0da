/**
 * The one mapping between a resource's answer rows (prefixed columns: `cl_co_name`) and its form
 * values (unprefixed names: `co_name`), for every resource (DESIGN §3). Screens never map by hand.
 */
import type { FieldDef, ResourceDef } from '../resources/types';
import { currentKey, idColumn } from '../resources/types';
import { cellText } from '../resources/checks';

/** Form values: every field as the text its input shows, plus the `modified` the record was loaded with. */
export type FormRecord = Record<string, string>;

function toText(field: FieldDef, value: unknown): string {
  if (field.type === 'flag') return value === true || value === 1 || value === '1' ? '1' : '0';
  if (value === null || value === undefined || field.type === 'secret') return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return value;
  return cellText(value);
}

/**
 * Form values of an answer row. A secret (password) is never prefilled; a flag becomes '1' or '0'.
 * @example toForm(clientResource, { cl_id: 3, cl_co_name: 'アクア', modified: '…' }) // { co_name: 'アクア', …, modified: '…' }
 */
export function toForm(def: ResourceDef, row: Record<string, unknown> | undefined | null): FormRecord {
  const out: FormRecord = {};
  for (const field of def.fields) {
    const column = `${def.prefix}${field.name}`;
    out[field.name] = toText(field, row ? (column in row ? row[column] : row[field.name]) : undefined);
  }
  out.modified = row && typeof row.modified === 'string' ? row.modified : '';
  return out;
}

/**
 * The `postData` of a save: the writable fields under their unprefixed names, plus `modified`
 * when the record was loaded. Read-only fields are left out, and so is an empty secret
 * (an untouched password field must not erase the stored one). A confirmed secret's current value
 * (`current_password`, ResourceDef.owner) is kept.
 * @example fromForm(clientResource, { co_name: 'アクア', uri_zan: '100', pw: '' }) // { co_name: 'アクア' }
 */
export function fromForm(def: ResourceDef, values: Record<string, unknown>): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const field of def.fields) {
    if (field.readOnly || !(field.name in values)) continue;
    const value = values[field.name];
    if (field.type === 'secret' && (value === '' || value === null || value === undefined)) continue;
    if (field.type === 'flag') out[field.name] = value === true || value === 1 || value === '1' ? 1 : 0;
    else if (value === undefined) continue;
    else if (value === null || typeof value === 'number' || typeof value === 'string') out[field.name] = value;
    else out[field.name] = cellText(value);
  }
  // The current value of a confirmed secret (`current_password`) travels with the save when given.
  for (const name of def.owner?.confirm ?? []) {
    const current = values[currentKey(name)];
    if (typeof current === 'string' && current !== '') out[currentKey(name)] = current;
  }
  if (typeof values.modified === 'string' && values.modified) out.modified = values.modified;
  return out;
}

/** The id of an answer row (`{prefix}id`), as text. */
export function idOf(def: ResourceDef, row: Record<string, unknown> | undefined | null): string | undefined {
  const value = row?.[idColumn(def)] ?? row?.id;
  return value === undefined || value === null || value === '' ? undefined : cellText(value);
}
