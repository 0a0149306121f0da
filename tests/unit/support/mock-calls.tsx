/**
 * The component tests' one set-up for screens that talk to the server: msw answers `POST {API}/:call` through the
 * test's `answer(name, body)` (the form body decoded), every call is recorded, and before each test the runtime config,
 * the auth key and write access to every area are set and Blob URLs stubbed (downloads). `shell` renders an element
 * with a fresh SWR cache, the confirm dialog and the toasts.
 */
import { render, type RenderResult } from '@testing-library/react';
import { getDefaultStore } from 'jotai';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { ConfirmHost, Toaster } from '@/components/ui';
import { setConfig } from '@/lib/client/api/config';
import { permissionsAtom } from '@/lib/client/state/atoms';
import { ALL_WRITE } from '@/lib/permissions';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { KEYS } from '@/lib/storage-keys';

export const API = 'http://test.local/api/db';

export interface RecordedCall {
  name: string;
  body: Record<string, string>;
}

/** An unknown call: the server's refusal, so a test never passes on a call it did not expect. */
export const unknownCall = (): Response => HttpResponse.json([{ error: '存在しない呼び出しです。' }], { status: 400 });

/**
 * Registers the mock server and its hooks for the test file; answers the calls made so far (emptied before each test).
 * @example const calls = mockCalls((name) => (name === 'job_lst' ? HttpResponse.json([]) : unknownCall()));
 */
export function mockCalls(answer: (name: string, body: Record<string, string>) => Response | Promise<Response>): { calls: RecordedCall[]; called: (name: string) => RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const server = setupServer(
    http.post(`${API}/:call`, async ({ request, params }) => {
      const name = String(params.call);
      const body = Object.fromEntries(new URLSearchParams(await request.text()));
      calls.push({ name, body });
      return answer(name, body);
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  beforeEach(() => {
    calls.length = 0;
    setConfig({ ...DEFAULT_CONFIG, dbApi: API });
    localStorage.setItem(KEYS.authKey, JSON.stringify('k'));
    getDefaultStore().set(permissionsAtom, { authKey: 'k', areas: ALL_WRITE });
    URL.createObjectURL = vi.fn(() => 'blob:test');
    URL.revokeObjectURL = vi.fn();
  });
  return { calls, called: (name) => calls.filter((c) => c.name === name) };
}

/** Renders a screen with a fresh SWR cache, the confirm dialog and the toasts. */
export const shell = (element: ReactNode): RenderResult => render(
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
    {element}
    <ConfirmHost />
    <Toaster />
  </SWRConfig>,
);
