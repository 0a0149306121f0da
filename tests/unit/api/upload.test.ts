/**
 * The fetcher's `upload` (lib/api/fetcher.ts) against a stand-in XMLHttpRequest that the test drives: it
 * posts to the runtime config's URL as multipart with the parameters and auth key before the file, reports
 * the browser's upload progress, resolves the answer array, throws a `[{error}]` answer as `CallError`
 * (logging out on the auth-key error), and a cancel aborts the request and resolves null without a notice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { setConfig } from '@/lib/client/api/config';
import { CallError, configureFetcher, onAuthError, onNotice, upload } from '@/lib/client/api/fetcher';
import { AUTH_KEY_ERROR, MESSAGES } from '@/lib/protocol';
import type { ParamsOf } from '@/lib/protocol/calls';

/** The parameters of `import_preview`: what a test sends is cast to them (the fetcher sends any parameters as they are). */
type ImportParams = ParamsOf<'import_preview'>;

/** The XMLHttpRequest surface `upload` uses, with hooks for the test to answer or fail it. */
class FakeXhr {
  static last: FakeXhr | undefined;
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  method = '';
  url = '';
  body: FormData | undefined;
  status = 0;
  responseText = '';
  aborted = false;

  constructor() {
    FakeXhr.last = this;
  }
  addEventListener(type: string, listener: EventListener): void {
    this.events.addEventListener(type, listener);
  }
  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }
  send(body: FormData): void {
    this.body = body;
  }
  abort(): void {
    this.aborted = true;
    this.events.dispatchEvent(new Event('abort'));
  }
  /** The browser reports bytes sent. */
  progress(loaded: number, total: number): void {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }));
  }
  /** The server answers. */
  answer(status: number, body: unknown): void {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.events.dispatchEvent(new Event('load'));
  }
  /** The connection fails. */
  fail(): void {
    this.events.dispatchEvent(new Event('error'));
  }
}

const xhr = (): FakeXhr => {
  if (!FakeXhr.last) throw new Error('no request was made');
  return FakeXhr.last;
};
const file = new File(['コード,会社名\r\n1,山田商店\r\n'], '顧客.csv', { type: 'text/csv' });

beforeEach(() => {
  FakeXhr.last = undefined;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  setConfig({ ...DEFAULT_CONFIG, dbApi: 'https://api.example.jp/dev/api/db/' });
  configureFetcher({ authKey: () => 'key-123' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  configureFetcher({ authKey: () => null });
});

describe('upload', () => {
  it('posts the parameters, the auth key and then the file to the configured URL, reports progress and resolves the answer', async () => {
    const progress: [number, number][] = [];
    const answered = upload('import_preview', { kind: 'client', mapping: { 会社名: 'co_name' } }, file, { onProgress: (sent, total) => progress.push([sent, total]) });
    const request = xhr();
    expect([request.method, request.url]).toEqual(['POST', 'https://api.example.jp/dev/api/db/import_preview']);
    const entries = [...request.body!.entries()];
    expect(entries.map(([key]) => key)).toEqual(['kind', 'mapping', 'authKey', 'file']);
    expect(entries[1][1]).toBe('{"会社名":"co_name"}');
    expect(entries[2][1]).toBe('key-123');
    const sent = entries[3][1] as File;
    expect([sent.name, await sent.text()]).toEqual(['顧客.csv', await file.text()]);
    request.progress(100, 400);
    request.progress(400, 400);
    request.answer(200, [{ import_id: 5 }]);
    await expect(answered).resolves.toEqual([{ import_id: 5 }]);
    expect(progress).toEqual([[100, 400], [400, 400]]);
  });

  it('sends the file under the field the call reads', async () => {
    const answered = upload('item_image' as 'import_preview', { id: 3 } as unknown as ImportParams, file, { field: 'image' });
    expect([...xhr().body!.keys()].at(-1)).toBe('image');
    xhr().answer(200, []);
    await expect(answered).resolves.toEqual([]);
  });

  it('cancels: the request is aborted and the upload resolves null without a notice', async () => {
    const notices: string[] = [];
    const off = onNotice((message) => notices.push(message));
    const controller = new AbortController();
    const progress = vi.fn();
    const answered = upload('import_preview', { kind: 'client' }, file, { signal: controller.signal, onProgress: progress });
    xhr().progress(10, 400);
    controller.abort();
    await expect(answered).resolves.toBeNull();
    expect(xhr().aborted).toBe(true);
    expect(progress).toHaveBeenCalledTimes(1);
    expect(notices).toEqual([]);
    // Already cancelled: nothing is sent.
    FakeXhr.last = undefined;
    await expect(upload('import_preview', {} as ImportParams, file, { signal: controller.signal })).resolves.toBeNull();
    expect(FakeXhr.last).toBeUndefined();
    off();
  });

  it('throws a refusal with the server\'s message and status; logs out on the auth-key error', async () => {
    const tooLarge = upload('import_preview', {} as ImportParams, file);
    xhr().answer(413, [{ error: MESSAGES.uploadTooLarge(20 * 1024 * 1024) }]);
    await expect(tooLarge).rejects.toEqual(new CallError('ファイルが大きすぎます（上限 20 MB）。', 413));
    await expect(tooLarge).rejects.toHaveProperty('status', 413);
    const loggedOut = vi.fn();
    const off = onAuthError(loggedOut);
    const expired = upload('import_preview', {} as ImportParams, file);
    xhr().answer(401, [{ error: AUTH_KEY_ERROR }]);
    await expect(expired).rejects.toBeInstanceOf(CallError);
    expect(loggedOut).toHaveBeenCalledTimes(1);
    off();
  });

  it('a network failure notifies and resolves null', async () => {
    const notices: string[] = [];
    const off = onNotice((message) => notices.push(message));
    const failed = upload('import_preview', {} as ImportParams, file);
    xhr().fail();
    await expect(failed).resolves.toBeNull();
    expect(notices).toEqual([MESSAGES.uploadFailed]);
    off();
  });
});
