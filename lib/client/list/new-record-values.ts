/**
 * A new record's starting values in the browser: they read what local storage remembers (`remember`).
 */
import { todayJst } from '../../format';
import { toForm, type FormRecord } from '../../list/record-mapper';
import type { ResourceDef } from '../../resources/types';
import { initialValue } from '../../resources/types';
import { readStored } from '../state/storage';

/**
 * The form values a new record starts with: a remembered value (the last one saved), else the
 * field's `initial` (`today`, `me` = the logged-in user, or a literal), else empty; then `fixed`.
 * @example newRecordValues(contactResource, { userId: 3, fixed: { cl_id: '12' } }).usr_id // '3'
 */
export function newRecordValues(
  def: ResourceDef,
  { userId, fixed = {}, today = todayJst() }: { userId?: number | null; fixed?: Record<string, string>; today?: string },
): FormRecord {
  const out = toForm(def, undefined);
  for (const field of def.fields) {
    const remembered = field.remember ? readStored<unknown>(field.remember, '') : '';
    if (typeof remembered === 'string' && remembered !== '') out[field.name] = remembered;
    else if (field.initial !== undefined) out[field.name] = initialValue(field, { userId, today });
  }
  return { ...out, ...fixed };
}
