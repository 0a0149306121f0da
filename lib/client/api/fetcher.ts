/**
 * The one form-POST fetcher (DESIGN §3/§4). Adds `authKey`, reads the `[{error}]` shape, logs out
 * on the auth-key error, and turns network failures into an empty result plus a notice. `download`
 * does the same for calls that answer a file, `upload` for calls that take one.
 */
import { AUTH_KEY_ERROR, MESSAGES, type ErrorAnswer, type LoginErrorAnswer, type LoginUser, type UsedBy } from '../../protocol';
import type { AnswerOf, CallName, FileCallName, ParamsOf, WireParams } from '../../protocol/calls';
import { getConfig } from './config';

export type Params = WireParams;

/** A call's parameters as arguments: optional when the call needs none. */
export type ParamsArg<N extends CallName> = Record<never, never> extends ParamsOf<N> ? [params?: ParamsOf<N>] : [params: ParamsOf<N>];

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
 * Calls `{dbApi}/{call}` and returns the answer array, typed by the call map (lib/protocol/calls.ts). A `[{error}]`
 * answer throws `CallError` (and logs out on the auth-key error); a network failure notifies and returns `[]`.
 * @example const rows = await call('client_lst', { n: 10, p: 1 })
 */
export async function call<N extends CallName>(name: N, ...[params]: ParamsArg<N>): Promise<AnswerOf<N>[]> {
  let res: Response;
  try {
    res = await post(name, params ?? {});
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
  throwIfError(answer, res.status);
  return Array.isArray(answer) ? (answer as AnswerOf<N>[]) : [];
}

/** A `[{error}]` answer throws `CallError` (after logging out on the auth-key error). */
function throwIfError(answer: unknown, status: number): void {
  if (!Array.isArray(answer) || !isError(answer[0], status >= 200 && status < 300)) return;
  const message = answer[0].error;
  if (message === AUTH_KEY_ERROR) logoutListeners.forEach((l) => l());
  const { fields, usedBy } = answer[0] as { fields?: unknown; usedBy?: unknown };
  throw new CallError(message, status, fields && typeof fields === 'object' ? (fields as Record<string, string>) : undefined, Array.isArray(usedBy) ? (usedBy as UsedBy[]) : undefined);
}

/** `{dbApi}/{call}`, from the runtime config. */
const callUrl = (name: CallName): string => `${getConfig().dbApi.replace(/\/$/, '')}/${name}`;

const post = (name: CallName, params: Params, signal?: AbortSignal): Promise<Response> =>
  fetch(callUrl(name), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: encode({ ...params, authKey: authKeyProvider() ?? '' }),
    signal,
  });

/**
 * The file name a download is saved under: `filename*` (UTF-8), else `filename`.
 * @example fileNameOf("attachment; filename=\"a.csv\"; filename*=UTF-8''%E5%8F%97.csv") // '受.csv'
 */
export function fileNameOf(disposition: string | null, fallback = 'download'): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A broken encoding: the plain name below.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition ?? '')?.[1] ?? fallback;
}

export interface DownloadOptions {
  /** Aborting it cancels the download (nothing is saved; `download` resolves null). */
  signal?: AbortSignal;
  /** Each received piece, with the bytes so far and the answer's headers (counts a file announces). */
  onChunk?: (chunk: Uint8Array, received: number, headers: Headers) => void;
}

export interface Downloaded {
  fileName: string;
  blob: Blob;
  headers: Headers;
}

/**
 * Calls a file-answering call (`{r}_csv` …), reads its stream with progress, and saves the file through a
 * Blob URL under the server's file name. A `[{error}]` answer throws `CallError`; a network failure
 * notifies and resolves null, as does a cancel.
 * @example await download('order_csv', { kw: '山田', enc: 'cp932' }, { signal, onChunk: (_, n) => setBytes(n) })
 */
export async function download<N extends FileCallName>(name: N, params: ParamsOf<N>, { signal, onChunk }: DownloadOptions = {}): Promise<Downloaded | null> {
  const chunks: Uint8Array[] = [];
  let res: Response;
  try {
    res = await post(name, params, signal);
    if (/json/i.test(res.headers.get('content-type') ?? '')) {
      throwIfError(await res.json(), res.status);
      notify(MESSAGES.internal);
      return null;
    }
    const reader = res.body?.getReader();
    let received = 0;
    for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
      chunks.push(next.value);
      received += next.value.byteLength;
      onChunk?.(next.value, received, res.headers);
    }
  } catch (error) {
    if (error instanceof CallError) throw error;
    if (!signal?.aborted) notify(MESSAGES.downloadFailed);
    return null;
  }
  const blob = new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? 'application/octet-stream' });
  const fileName = fileNameOf(res.headers.get('content-disposition'));
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return { fileName, blob, headers: res.headers };
}

export interface UploadOptions {
  /** The bytes of the request sent so far and its total (the file and its parameters), as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborting it stops the upload (`upload` resolves null, without a notice). */
  signal?: AbortSignal;
  /** The multipart field the call reads the file from (its `upload.field`); default 'file'. */
  field?: string;
}

/**
 * Sends a file to a call that takes one (server `UploadDef`), as `multipart/form-data`: the parameters and
 * the auth key first (the server checks them before it reads the file), then the file. XMLHttpRequest, as
 * only it reports upload progress. Answers like `call`: the array, a `[{error}]` answer thrown as
 * `CallError` (logging out on the auth-key error); a network failure notifies and resolves null, as does a cancel.
 * @example const [preview] = (await upload('import_preview', { kind: 'client' }, file, { onProgress: (sent, total) => setShare(sent / total), signal })) ?? []
 */
export function upload<N extends CallName>(name: N, params: ParamsOf<N>, file: File, { onProgress, signal, field = 'file' }: UploadOptions = {}): Promise<AnswerOf<N>[] | null> {
  type T = AnswerOf<N>;
  const form = new FormData();
  for (const [key, value] of encode({ ...params, authKey: authKeyProvider() ?? '' })) form.append(key, value);
  form.append(field, file, file.name);
  return new Promise<T[] | null>((resolve, reject) => {
    if (signal?.aborted) return resolve(null);
    const xhr = new XMLHttpRequest();
    const aborted = () => xhr.abort();
    const settle = (outcome: () => T[] | null) => {
      signal?.removeEventListener('abort', aborted);
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    };
    xhr.upload.addEventListener('progress', (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size));
    xhr.addEventListener('load', () => settle(() => {
      let answer: unknown;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        notify(MESSAGES.internal);
        return null;
      }
      throwIfError(answer, xhr.status);
      return Array.isArray(answer) ? (answer as T[]) : [];
    }));
    xhr.addEventListener('error', () => settle(() => {
      notify(MESSAGES.uploadFailed);
      return null;
    }));
    xhr.addEventListener('abort', () => settle(() => null));
    signal?.addEventListener('abort', aborted);
    xhr.open('POST', callUrl(name));
    xhr.send(form);
  });
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
    await call('logout');
  } catch {
    // Already invalid: nothing to delete.
  }
}
