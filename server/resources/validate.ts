/** Form validation on the server: the same valibot schemas the screens use, answered as a save answers a problem. */
import type * as v from 'valibot';
import { checkForm, type CheckedValues } from '../../lib/resources/schema';
import type { Cell } from '../db/schema';
import { badRequest } from '../http/api-error';

/**
 * Validates values against a form schema (lib/resources/schema `formSchema`); a failure is 400
 * with the first message and every field's message (`fields`), as a save answers it.
 * @example validateForm(stockAdjustSchema, { it_id: '3', kind: 'in', quantity: '10', reason: '仕入' })
 */
export function validateForm(schema: v.GenericSchema<unknown, unknown>, input: Record<string, unknown>): Record<string, Cell | undefined> {
  return valuesOrThrow(checkForm(schema, input));
}

/** The values of a passed check, or the 400 answer of a failed one. */
export function valuesOrThrow(checked: CheckedValues): Record<string, Cell | undefined> {
  if (checked.ok) return checked.values;
  throw badRequest(checked.message, { fields: checked.fields });
}
