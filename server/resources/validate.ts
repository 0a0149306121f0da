/** Form validation on the server: the same valibot schemas the screens use, answered as a save answers a problem. */
import * as v from 'valibot';
import type { Cell } from '../db/schema';
import { badRequest } from '../http/api-error';

/**
 * Validates values against a form schema (lib/resources/schema `formSchema`); a failure is 400
 * with the first message and every field's message (`fields`), as a save answers it.
 * @example validateForm(stockAdjustSchema, { it_id: '3', kind: 'in', quantity: '10', reason: '仕入' })
 */
export function validateForm(schema: v.GenericSchema<unknown, unknown>, input: Record<string, unknown>): Record<string, Cell | undefined> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output as Record<string, Cell | undefined>;
  const fields: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    const name = typeof key === 'string' ? key : '_';
    fields[name] ??= issue.message;
  }
  throw badRequest(result.issues[0].message, { fields });
}
