/**
 * The one place that turns a failed save into what a form shows: the banner's message, whether it was
 * a stale edit (409: offer to reload), and the field messages sorted to where they belong — the form's
 * own inputs (`co_name`, or prefixed `cl_co_name`) or a child row's cell (`lines.0.quantity`, `stops.3.cash`;
 * ResourceDef.children). A bulk save's `{id}.{field}` keys (`recordFieldKey`) are read as sent.
 * Every screen that saves reads a refusal through `refusalOf` and places it with `placeRefusal`.
 */
import { CallError } from '../api/fetcher';
import { MESSAGES } from '../../protocol';
import type { ChildDef } from '../../resources/types';
import type { ChildRowsState, RowMessages } from './child-rows-state';

export type { RowMessages } from './child-rows-state';

export interface Refusal {
  /** `conflict`: someone saved the record first (409); `fields`: a 400 naming fields; `error`: anything else. */
  kind: 'conflict' | 'fields' | 'error';
  message: string;
  /** The answer's field messages as sent (keys as the server names them). */
  fields: Record<string, string>;
}

/**
 * What a failed call means for a form.
 * @example refusalOf(new CallError('数量は整数で…', 400, { 'lines.0.quantity': '数量は整数で…' })) // { kind: 'fields', … }
 */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof CallError && error.status === 409) return { kind: 'conflict', message: MESSAGES.conflict, fields: {} };
  if (error instanceof CallError) {
    const fields = error.fields ?? {};
    return { kind: error.status === 400 && Object.keys(fields).length > 0 ? 'fields' : 'error', message: error.message, fields };
  }
  return { kind: 'error', message: MESSAGES.internal, fields: {} };
}

export interface PlacedRefusal {
  /** Messages of the form's own inputs, by unprefixed field name, in the order the server named them. */
  form: Record<string, string>;
  /** Messages of the child rows' cells (only with `child`). */
  rows: RowMessages;
}

/**
 * Sorts a refusal's field messages: `names` are the form's inputs (a key may carry the resource's `prefix`),
 * `child` the record's rows. Keys naming nothing on the form are dropped (the banner still says them).
 * @example placeRefusal({ 'lines.1.price': '…', date: '…' }, { names: ['date'], child: orderResource.children }) // { form: { date }, rows: { 1: { price } } }
 */
export function placeRefusal(
  fields: Readonly<Record<string, string>>,
  { names, prefix = '', child }: { names: readonly string[]; prefix?: string; child?: ChildDef },
): PlacedRefusal {
  const placed: PlacedRefusal = { form: {}, rows: {} };
  for (const [key, message] of Object.entries(fields)) {
    const row = child ? new RegExp(`^${child.key}\\.(\\d+)\\.(\\w+)$`).exec(key) : null;
    if (row && child?.fields.some((f) => f.name === row[2])) {
      const index = Number(row[1]);
      placed.rows[index] = { ...placed.rows[index], [row[2]]: message };
      continue;
    }
    const name = prefix && key.startsWith(prefix) ? key.slice(prefix.length) : key;
    if (names.includes(name)) placed.form[name] = message;
  }
  return placed;
}

/**
 * Puts a record save's refusal on its form: the form's messages on their inputs (react-hook-form's
 * `setError`, type `server`), the child rows' at their cells. Answers the inputs named (so the screen can show
 * the first one's tab and focus it) and the first row cell named (its element id).
 */
export function markRefusal(
  refusal: Refusal,
  { setError, names, prefix, rows }: { setError: (name: string, error: { type: string; message: string }) => void; names: readonly string[]; prefix?: string; rows?: ChildRowsState },
): { names: string[]; cell?: string } {
  const placed = placeRefusal(refusal.fields, { names, prefix, child: rows?.child });
  for (const [name, message] of Object.entries(placed.form)) setError(name, { type: 'server', message });
  return { names: Object.keys(placed.form), cell: rows?.showMessages(placed.rows) };
}
