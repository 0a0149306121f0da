import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setConfig } from '@/lib/client/api/config';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { useRecordController } from '@/lib/client/list/use-record-controller';
import { listPathOf } from '@/lib/list/resource-paths';
import { MESSAGES } from '@/lib/protocol';
import { clientResource as def } from '@/lib/resources/client';
import { hodReportResource } from '@/lib/resources/hod-report';
import { orderResource } from '@/lib/resources/order';

const API = 'http://test.local/api/db';
let row: Record<string, unknown>;
let calls: { name: string; body: Record<string, string> }[] = [];

const server = setupServer(
  http.post(`${API}/:call`, async ({ request, params }) => {
    const name = String(params.call);
    const body = Object.fromEntries(new URLSearchParams(await request.text()));
    calls.push({ name, body });
    if (name === 'client_dtl') return body.id === '1' ? HttpResponse.json([row]) : HttpResponse.json([{ error: MESSAGES.notFound }], { status: 404 });
    if (name === 'client_save') {
      const post = JSON.parse(body.postData) as Record<string, unknown>;
      if (post.tel_1 === 'bad') return HttpResponse.json([{ error: MESSAGES.badRequest, fields: { tel_1: '電話番号1の形式が正しくありません。' } }], { status: 400 });
      if (body.id && post.modified !== row.modified) return HttpResponse.json([{ error: MESSAGES.conflict }], { status: 409 });
      const saved = { ...row, cl_id: body.id ? Number(body.id) : 2, cl_co_name: post.co_name, modified: new Date().toISOString() };
      if (body.id) row = saved;
      return HttpResponse.json([saved]);
    }
    if (name === 'hodreport_dtl') return HttpResponse.json([{ hr_id: 5, hr_date: '2026-10-15', modified: 'm1' }]);
    if (name === 'hodreport_stop_lst') return HttpResponse.json([{ hrs_id: 1, hrs_hr_id: Number(body.hr_id), hrs_cl_id: 7, hrs_cash: 100 }]);
    if (name === 'hodreport_save') {
      const post = JSON.parse(body.postData) as { stops?: { cash: string }[] };
      if (post.stops?.[0]?.cash === 'x') return HttpResponse.json([{ error: '1件目: 集金額は…', fields: { 'stops.0.cash': '集金額は…' } }], { status: 400 });
      return HttpResponse.json([{ hr_id: 5, hr_date: '2026-10-15', modified: 'm2' }]);
    }
    if (name === 'client_del') return HttpResponse.json([{ id: Number(body.id) }]);
    return HttpResponse.json([{ error: MESSAGES.unknownCall }], { status: 400 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  calls = [];
  row = { cl_id: 1, cl_co_name: '株式会社アクア', cl_tel_1: '03-1234-5678', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-02T00:00:00.000Z' };
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
});

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>
);

describe('useRecordController', () => {
  it('loads a record and gives its form values', async () => {
    const { result } = renderHook(() => useRecordController(def, '1'), { wrapper });
    await waitFor(() => expect(result.current.record).toBeDefined());
    expect(result.current.formValues).toMatchObject({ co_name: '株式会社アクア', tel_1: '03-1234-5678', modified: row.modified });
  });

  it('reports a missing record', async () => {
    const { result } = renderHook(() => useRecordController(def, '99'), { wrapper });
    await waitFor(() => expect(result.current.notFound).toBe(true));
    expect(result.current.error).toBe(MESSAGES.notFound);
  });

  it('saves with id, unprefixed postData and the loaded modified', async () => {
    const { result } = renderHook(() => useRecordController(def, '1'), { wrapper });
    await waitFor(() => expect(result.current.record).toBeDefined());
    let outcome: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      outcome = await result.current.save({ ...result.current.formValues, co_name: '株式会社アクア東京' });
    });
    expect(outcome).toMatchObject({ ok: true, id: '1', created: false });
    const body = calls.find((c) => c.name === 'client_save')!.body;
    expect(body.id).toBe('1');
    const post = JSON.parse(body.postData) as Record<string, unknown>;
    expect(post).toMatchObject({ co_name: '株式会社アクア東京', modified: '2026-01-02T00:00:00.000Z' });
    expect(Object.keys(post).some((k) => k.startsWith('cl_'))).toBe(false);
    await waitFor(() => expect(result.current.record?.cl_co_name).toBe('株式会社アクア東京'));
  });

  it('turns a 409 into a conflict outcome', async () => {
    const { result } = renderHook(() => useRecordController(def, '1'), { wrapper });
    await waitFor(() => expect(result.current.record).toBeDefined());
    let outcome: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      outcome = await result.current.save({ ...result.current.formValues, modified: 'stale' });
    });
    expect(outcome).toEqual({ ok: false, kind: 'conflict', message: MESSAGES.conflict, fields: {} });
  });

  it('loads a record\'s child rows by the declared call and saves them with the record under the declared key', async () => {
    const { result } = renderHook(() => useRecordController(hodReportResource, '5'), { wrapper });
    await waitFor(() => expect(result.current.children).toHaveLength(1));
    expect(calls.find((c) => c.name === 'hodreport_stop_lst')?.body.hr_id).toBe('5');
    let outcome: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      outcome = await result.current.save({ ...result.current.formValues }, [{ cl_id: '7', cash: 'x' }]);
    });
    expect(outcome).toEqual({ ok: false, kind: 'fields', message: '1件目: 集金額は…', fields: { 'stops.0.cash': '集金額は…' } });
    await act(async () => {
      outcome = await result.current.save({ ...result.current.formValues }, [{ cl_id: '7', cash: '200' }]);
    });
    expect(outcome?.ok).toBe(true);
    const saved = calls.filter((c) => c.name === 'hodreport_save').at(-1);
    expect(JSON.parse(saved?.body.postData ?? '{}')).toMatchObject({ date: '2026-10-15', modified: 'm1', stops: [{ cl_id: '7', cash: '200' }] });
    // The rows are read again after the save.
    expect(calls.filter((c) => c.name === 'hodreport_stop_lst').length).toBeGreaterThanOrEqual(2);
  });

  it('passes the field messages of a 400', async () => {
    const { result } = renderHook(() => useRecordController(def, '1'), { wrapper });
    await waitFor(() => expect(result.current.record).toBeDefined());
    let outcome: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      outcome = await result.current.save({ ...result.current.formValues, tel_1: 'bad' });
    });
    expect(outcome).toMatchObject({ ok: false, kind: 'fields', fields: { tel_1: '電話番号1の形式が正しくありません。' } });
  });

  it('creates a new record without id and returns its id', async () => {
    const { result } = renderHook(() => useRecordController(def, undefined), { wrapper });
    expect(result.current.formValues?.co_name).toBe('');
    let outcome: Awaited<ReturnType<typeof result.current.save>> | undefined;
    await act(async () => {
      outcome = await result.current.save({ co_name: '新規', tel_1: '03-0000-0000', status: '1' });
    });
    expect(outcome).toMatchObject({ ok: true, id: '2', created: true });
    expect('id' in calls.find((c) => c.name === 'client_save')!.body).toBe(false);
  });

  it('deletes by id', async () => {
    const { result } = renderHook(() => useRecordController(def, '1'), { wrapper });
    await act(async () => {
      expect(await result.current.remove()).toEqual({ ok: true });
    });
    expect(calls.some((c) => c.name === 'client_del' && c.body.id === '1')).toBe(true);
  });

  it('finds the list route from the route table', () => {
    expect(listPathOf(def)).toBe('/client/list');
    expect(listPathOf(orderResource)).toBe('/orders/list/search');
  });
});
