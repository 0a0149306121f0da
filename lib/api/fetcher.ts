/**
 * The one form-POST fetcher (DESIGN §3/§4). Adds `authKey`, reads the `[{error}]` shape, logs out
 * on the auth-key error, and turns network failures into an empty result plus a notice.
 */
import { AUTH_KEY_ERROR, MESSAGES, type ErrorAnswer, type LoginErrorAnswer, type LoginUser, type UsedBy } from '../protocol';
import { getConfig } from './config';

export type Params = Record<string, string | number | boolean | object | null | undefined>;

type Listener = () => void;
let authKeyProvider: () => string | null = () => null;
const logoutListeners = new Set<Listener>();
const noticeListeners = new Set<(message: string) => void>();

/** The app tells the fetcher where the auth key lives and what to do on logout. */
export function configureFetcher(options: { authKey: () => string | null }): void {
  authKeyProvider = options.authKey;
}
export function onAuthError(listener: Listener): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}
/** Non-blocking notices (network failures, server errors) for the shell to show. */
export function onNotice(listener: (message: string) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}
const notify = (message: string) => noticeListeners.forEach((l) => l(message));

/** A call that failed with a message from the server (`[{error}]`). */
export class CallError extends Error {
  /**
   * `fields`: field-level messages of a 400 answer (`[{ error, fields: { name: message } }]`); `usedBy`: the
   * records a refused delete names (`[{ error, usedBy }]`), when the server sends them.
   */
  constructor(message: string, readonly status: number, readonly fields?: Record<string, string>, readonly usedBy?: readonly UsedBy[]) {
    super(message);
  }
}

function encode(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    body.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return body;
}

const FAILURE_KEYS = new Set(['error', 'fields', 'usedBy']);

/**
 * A refusal: `[{ error }]` with a failing status — or with 200 when it holds nothing else, as a server may say it.
 * A row that merely has an `error` column (a job's, `job_dtl`) is data.
 */
const isError = (x: unknown, ok: boolean): x is ErrorAnswer =>
  typeof x === 'object' && x !== null && typeof (x as ErrorAnswer).error === 'string' && (!ok || Object.keys(x).every((key) => FAILURE_KEYS.has(key)));

/**
 * Calls `{dbApi}/{call}` and returns the answer array. A `[{error}]` answer throws `CallError`
 * (and logs out on the auth-key error); a network failure notifies and returns `[]`.
 * @example const rows = await call<ClientRow>('client_lst', { n: 10, p: 1 })
 */
export async function call<T>(name: string, params: Params = {}): Promise<T[]> {
  const authKey = authKeyProvider();
  let res: Response;
  try {
    res = await fetch(`${getConfig().dbApi.replace(/\/$/, '')}/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: encode({ ...params, authKey: authKey ?? '' }),
    });
  } catch {
    notify(MESSAGES.network);
    return [];
  }
  let answer: unknown;
  try {
    answer = await res.json();
  } catch {
    notify(MESSAGES.internal);
    return [];
  }
  if (Array.isArray(answer) && isError(answer[0], res.ok)) {
    const message = answer[0].error;
    if (message === AUTH_KEY_ERROR) logoutListeners.forEach((l) => l());
    const { fields, usedBy } = answer[0] as { fields?: unknown; usedBy?: unknown };
    throw new CallError(message, res.status, fields && typeof fields === 'object' ? (fields as Record<string, string>) : undefined, Array.isArray(usedBy) ? (usedBy as UsedBy[]) : undefined);
  }
  return Array.isArray(answer) ? (answer as T[]) : [];
}

/**
 * The login call. Resolves to the user record, or throws with the server's message.
 * A network-level failure resolves to null (the caller logs out silently, spec §8).
 */
export async function login(email: string, password: string): Promise<LoginUser | null> {
  let answer: unknown;
  try {
    const res = await fetch(`${getConfig().loginApi.replace(/\/$/, '')}/api/login/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: encode({ userEmail: email, userPassword: password }),
    });
    answer = await res.json();
  } catch {
    return null;
  }
  const first = Array.isArray(answer) ? (answer[0] as LoginUser | LoginErrorAnswer | undefined) : undefined;
  if (!first) return null;
  if ('errors' in first) throw new CallError(first.errors[0]?.message ?? MESSAGES.loginFailed, 401);
  return first;
}

/** Logout: the server deletes the auth key. Errors are ignored; the client clears itself anyway. */
export async function logoutCall(): Promise<void> {
  try {
    await call('logout', {});
  } catch {
    // Already invalid: nothing to delete.
  }
}
