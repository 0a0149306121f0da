/**
 * useJob (lib/client/api/use-job.ts) against mock answers: a running job of the kind is followed from the start, its
 * progress read until it ends and `onEnd` given the ended job once; a failed job's `error` column is data (the
 * fetcher refuses only `[{ error }]` answers); a start refused is thrown with the server's message.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, CallError } from '@/lib/client/api/fetcher';
import { setConfig } from '@/lib/client/api/config';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { useJob } from '@/lib/client/api/use-job';
import type { JobInfo } from '@/lib/jobs';

const API = 'http://test.local/api/db';
const base: JobInfo<{ created: number }> = {
  job_id: 7, kind: 'hod_generate', scope: '2026-12-01..2026-12-31', params: {}, state: 'running', done: 0, total: 3000,
  result: null, error: '', cancelling: false, started: '2026-11-25T01:00:00.000Z', finished: '', user_id: 2, user_name: '山田 花子',
};
let states: JobInfo<{ created: number }>[] = [];
let polls = 0;

const server = setupServer(
  http.post(`${API}/:call`, async ({ params }) => {
    const name = String(params.call);
    if (name === 'job_lst') return HttpResponse.json(states.length ? [base] : []);
    if (name === 'job_dtl') return HttpResponse.json([states[Math.min(polls++, states.length - 1)]]);
    if (name === 'hod_generate') return HttpResponse.json([{ error: '定期配送の受注作成（2026-12-01〜2026-12-31）は実行中です（山田 花子さんが 2026-11-25 10:00 に開始）。終わってから、もう一度実行してください。', job_id: 7 }], { status: 409 });
    return HttpResponse.json([{ error: '存在しない呼び出しです。' }], { status: 400 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  polls = 0;
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
});
afterEach(() => server.resetHandlers());

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>
);

describe('useJob', () => {
  it('follows the running job of its kind found on opening, until it ends; onEnd once with the result', async () => {
    states = [{ ...base, done: 1000 }, { ...base, done: 2000 }, { ...base, state: 'done', done: 3000, result: { created: 3000 }, finished: '2026-11-25T01:00:09.000Z' }];
    const onEnd = vi.fn();
    const { result } = renderHook(() => useJob<{ created: number }>('hod_generate', onEnd), { wrapper });
    await waitFor(() => expect(result.current.job?.done).toBe(1000));
    expect(result.current.running).toBe(true);
    await waitFor(() => expect(result.current.job?.state).toBe('done'), { timeout: 3000 });
    expect(result.current.running).toBe(false);
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect((onEnd.mock.calls[0][0] as { result: unknown }).result).toEqual({ created: 3000 });
  });

  it('reads a failed job as data: its error is the job\'s, not a refused call', async () => {
    states = [{ ...base, state: 'failed', done: 2000, error: 'サーバーが処理の途中で停止したため中断しました。' }];
    const onEnd = vi.fn();
    const { result } = renderHook(() => useJob('hod_generate', onEnd), { wrapper });
    await waitFor(() => expect(onEnd).toHaveBeenCalledTimes(1));
    expect(result.current.job?.state).toBe('failed');
    expect(result.current.job?.error).toMatch(/中断しました/);
  });

  it('throws a refused start with its message', async () => {
    states = [];
    const { result } = renderHook(() => useJob('hod_generate', () => undefined), { wrapper });
    let refusal: unknown;
    await act(async () => {
      await result.current.start('hod_generate', { from: '2026-12-01', to: '2026-12-31' }).catch((error: unknown) => { refusal = error; });
    });
    expect(refusal).toBeInstanceOf(CallError);
    expect((refusal as CallError).status).toBe(409);
    expect((refusal as CallError).message).toMatch(/山田 花子さんが 2026-11-25 10:00 に開始/);
    expect(result.current.job).toBeNull();
    await expect(call('nothing' as 'logout')).rejects.toThrow('存在しない呼び出しです。');
  });
});
