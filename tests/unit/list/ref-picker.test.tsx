import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { useState } from 'react';
import { SWRConfig } from 'swr';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefPicker } from '@/components/resource/ref-picker';
import { setConfig } from '@/lib/client/api/config';
import { DEFAULT_CONFIG } from '@/lib/protocol';
import { contactResource } from '@/lib/resources/contact';
import { salesResource } from '@/lib/resources/sales';
import type { FieldDef } from '@/lib/resources/types';
import { KEYS } from '@/lib/storage-keys';

const API = 'http://test.local/api/db';
let searches: string[] = [];
const server = setupServer(
  http.post(`${API}/:call`, async ({ request, params }) => {
    const body = Object.fromEntries(new URLSearchParams(await request.text()));
    if (params.call === 'client_lst') {
      searches.push(body.kw);
      return HttpResponse.json([
        { cl_id: 12, cl_co_name: '株式会社アクア', cl_name: '山田 太郎' },
        { cl_id: 15, cl_co_name: '', cl_name: '佐藤 花子' },
      ]);
    }
    if (params.call === 'item_lst') {
      return HttpResponse.json([
        { it_id: 3, it_code: 'W-12', it_name: '天然水 12L', it_price: 1200 },
        { it_id: 4, it_code: 'W-12B', it_name: '天然水 12L', it_price: 1100 },
      ]);
    }
    if (params.call === 'client_dtl') return HttpResponse.json([{ cl_id: Number(body.id), cl_co_name: '青葉商事', cl_name: '' }]);
    return HttpResponse.json([{ error: 'unknown' }], { status: 400 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  searches = [];
  setConfig({ ...DEFAULT_CONFIG, dbApi: API });
  localStorage.setItem(KEYS.authKey, JSON.stringify('k'));
});

const field = contactResource.fields.find((f) => f.name === 'cl_id')!;
const itemField = salesResource.children.fields.find((f) => f.name === 'it_id')!;

function Harness({ initial = '', label, picks = field }: { initial?: string; label?: string; picks?: FieldDef }) {
  const [value, setValue] = useState(initial);
  return (
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <label htmlFor="pick">{picks.label}</label>
      <RefPicker field={picks} inputId="pick" value={value} label={label} onChange={setValue} />
      <output aria-label="値">{value}</output>
    </SWRConfig>
  );
}

describe('RefPicker', () => {
  it('searches the referenced resource by keyword and picks a record with the keyboard, naming it', async () => {
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: '顧客' });
    fireEvent.change(box, { target: { value: 'アクア' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['株式会社アクアID 12', '佐藤 花子ID 15']);
    expect(searches).toEqual(['アクア']);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByLabelText('値').textContent).toBe('15');
    expect(box).toHaveValue('佐藤 花子');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('tells items of one name apart: each option shows the item’s code, name and price', async () => {
    render(<Harness picks={itemField} />);
    fireEvent.change(screen.getByRole('combobox', { name: '商品' }), { target: { value: '天然水' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['W-12天然水 12L1,200円', 'W-12B天然水 12L1,100円']);
  });

  it('does not search while an IME composition is open', async () => {
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: '顧客' });
    // The clock is moved past the search's wait instead of waiting it out.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.compositionStart(box);
      fireEvent.change(box, { target: { value: 'あくあ' } });
      await act(() => vi.advanceTimersByTimeAsync(400));
      expect(searches).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    fireEvent.compositionEnd(box, { target: { value: 'アクア' } });
    await waitFor(() => expect(searches).toEqual(['アクア']));
  });

  it('shows the name it was given, or looks the record up when it has only the id', async () => {
    const { unmount } = render(<Harness initial="12" label="株式会社アクア" />);
    expect(screen.getByRole('combobox', { name: '顧客' })).toHaveValue('株式会社アクア');
    unmount();
    render(<Harness initial="30" />);
    await waitFor(() => expect(screen.getByRole('combobox', { name: '顧客' })).toHaveValue('青葉商事'));
  });
});
