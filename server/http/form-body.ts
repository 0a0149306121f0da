/**
 * The form-encoded body parser of every call (the login API and the database API). Strict where
 * the usual parsers are lenient: a percent-encoded byte sequence that is not UTF-8 (e.g. half of a
 * surrogate pair, `%ED%A0%80`) is refused instead of being stored as U+FFFD, so what a user sent is
 * either kept exactly or refused with a message.
 */
import type { FastifyInstance } from 'fastify';
import { AUTH_KEY_PARAM, MESSAGES } from '../../lib/protocol';
import { badRequest, wrongAuthKey } from './api-error';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One percent-decoded component, or 400 badEncoding. */
function decode(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw badRequest(MESSAGES.badEncoding);
  }
}

/** The auth key's value, or 401 with the auth-key error when it does not decode. */
function decodeKey(component: string): string {
  try {
    return decode(component);
  } catch {
    throw wrongAuthKey();
  }
}

/**
 * Parses `application/x-www-form-urlencoded` text: a repeated key becomes an array (which
 * `readParams` refuses), every key and value is strictly UTF-8.
 * @example parseForm('a=1&b=%E6%B0%B4') // { a: '1', b: '水' }
 */
export function parseForm(body: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    // An auth key that is not even text (half of a surrogate pair) is a wrong key like any other.
    const value = eq < 0 ? '' : key === AUTH_KEY_PARAM ? decodeKey(pair.slice(eq + 1)) : decode(pair.slice(eq + 1));
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** Adds the strict form parser to the app (on the root, so every route has it; the body limit is the app's). */
export function formBody(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseForm(utf8.decode(body as Buffer)));
    } catch (error) {
      done(error instanceof Error && error.name === 'ApiError' ? error : badRequest(MESSAGES.badEncoding));
    }
  });
}
