/**
 * Reading the form-encoded parameters of a call. Every parameter is text; anything else
 * (repeated keys, nested objects) is refused as bad input.
 */
import { AUTH_KEY_PARAM, LIMITS, MESSAGES, NAMED_MESSAGES, paramLabel } from '../../lib/protocol';
import { hasUnacceptedCharacter } from '../../lib/text';
import { badRequest, wrongAuthKey, type ApiError } from './api-error';

/** Call parameters by name (form fields; always strings). */
export type Params = Readonly<Record<string, string | undefined>>;

/** 400 naming the parameter or field that holds a character we never accept (lib/text hasUnacceptedCharacter). */
const badCharacters = (field: string, label: string): ApiError => {
  const message = NAMED_MESSAGES.badCharacters(label);
  return badRequest(message, { fields: { [field]: message } });
};

/**
 * Turns a parsed body into text parameters; refuses arrays and objects, and text holding a control
 * character (other than tab and line breaks) or a lone surrogate, naming the parameter.
 * @example readParams({ n: '10', p: 2 }) // { n: '10', p: '2' }
 */
export function readParams(body: unknown): Params {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest();
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(body)) {
    if (hasUnacceptedCharacter(key)) throw badRequest();
    if (typeof value === 'string') {
      // No key holds such a character: a wrong key like any other.
      if (hasUnacceptedCharacter(value)) throw key === AUTH_KEY_PARAM ? wrongAuthKey() : badCharacters(key, paramLabel(key));
      out[key] = value;
    } else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
    else if (value !== null && value !== undefined) throw badRequest();
  }
  return out;
}

/**
 * Checks every key and text of a parsed JSON value: nesting at most LIMITS.maxJsonDepth, no
 * unaccepted character (the refusal names the top-level key, by `labelOf` where it knows it).
 */
function checkJson(value: unknown, topKey: string, labelOf: (key: string) => string | undefined, depth: number): void {
  if (typeof value === 'string') {
    if (hasUnacceptedCharacter(value)) throw badCharacters(topKey, labelOf(topKey) ?? paramLabel(topKey));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > LIMITS.maxJsonDepth) throw badRequest(MESSAGES.tooDeep);
  for (const [key, item] of Object.entries(value)) {
    const top = depth === 0 ? key : topKey;
    if (hasUnacceptedCharacter(key)) throw badCharacters(top, labelOf(top) ?? paramLabel(top));
    checkJson(item, top, labelOf, depth + 1);
  }
}

/**
 * A positive integer id (1 … 2^31-1), or 400 badId.
 * @example positiveId('12') // 12
 */
export function positiveId(value: string | undefined): number {
  const text = (value ?? '').trim();
  if (!/^\d{1,10}$/.test(text)) throw badRequest(MESSAGES.badId);
  const id = Number(text);
  if (id < 1 || id > 2_147_483_647) throw badRequest(MESSAGES.badId);
  return id;
}

/** An optional id: empty or missing → undefined, else a positive id. */
export const optionalId = (value: string | undefined): number | undefined =>
  value === undefined || value.trim() === '' ? undefined : positiveId(value);

/**
 * A text parameter of at most `max` characters (default LIMITS.maxText), trimmed.
 * @example text({ name: ' a ' }, 'name') // 'a'
 */
export function text(params: Params, name: string, max: number = LIMITS.maxText, message: string = MESSAGES.badRequest): string {
  const value = (params[name] ?? '').trim();
  if (value.length > max) throw badRequest(message);
  return value;
}

/**
 * `postData`: a JSON-encoded object, or empty. Anything else is 400 badJson; text holding a control
 * character or a lone surrogate is 400 naming its key (`labelOf` gives a key's Japanese name).
 * @example jsonObject('{"created":["",""]}') // { created: ['', ''] }
 */
export function jsonObject(value: string | undefined, labelOf: (key: string) => string | undefined = () => undefined): Record<string, unknown> {
  if (value === undefined || value.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest(MESSAGES.badJson);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest(MESSAGES.badJson);
  checkJson(parsed, '', labelOf, 0);
  return parsed as Record<string, unknown>;
}

/**
 * An optional page number or size: empty → `fallback`, else an integer 1 … `max`, or 400 `message`.
 * @example pageParam('2', 20, 1000, MESSAGES.badPage) // 2
 */
export function pageParam(value: string | undefined, fallback: number, max: number, message: string): number {
  const text = (value ?? '').trim();
  if (text === '') return fallback;
  const n = /^\d{1,9}$/.test(text) ? Number(text) : 0;
  if (n < 1 || n > max) throw badRequest(message);
  return n;
}
