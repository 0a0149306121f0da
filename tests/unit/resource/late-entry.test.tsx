/**
 * The late-entry notice under the sales slip and payment forms (issue 19) against mock answers (msw): a customer and a
 * date in a closed period show what `closing_late` says before saving; an open day, no customer or a record an invoice
 * holds show nothing.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { LateEntryNotice } from '@/components/resource/extensions/late-entry';
import type { FormRecord } from '@/lib/list/record-mapper';
import { salesResource } from '@/lib/resources/sales';
import { mockCalls, shell, unknownCall } from '../support/mock-calls';

const MESSAGE = '11月20日締めは締め処理済みです。次回（12月20日締め）の請求に含めます。';

const { called } = mockCalls((name, body) => {
  if (name !== 'closing_late') return unknownCall();
  return HttpResponse.json(body.date <= '2026-11-20' ? [{ closed: '2026-11-20', next: '2026-12-20', message: MESSAGE }] : []);
});

function Form({ values }: { values: FormRecord }) {
  const { control, register } = useForm<FormRecord>({ defaultValues: values });
  return (
    <form>
      <input aria-label="売上日" {...register('date')} />
      <LateEntryNotice def={salesResource} control={control} record={undefined} />
    </form>
  );
}

describe('LateEntryNotice', () => {
  it('says before saving that a day of a closed period is billed by the next closing, and nothing for an open day', async () => {
    shell(<Form values={{ cl_id: '12', date: '2026-11-19', bli_id: '' }} />);
    expect(await screen.findByRole('status', { name: '締め処理済みの期間' })).toHaveTextContent(MESSAGE);
    expect(called('closing_late')[0].body).toMatchObject({ cl_id: '12', date: '2026-11-19' });
    fireEvent.change(screen.getByLabelText('売上日'), { target: { value: '2026-11-21' } });
    await waitFor(() => expect(screen.queryByRole('status', { name: '締め処理済みの期間' })).toBeNull());
  });

  it('asks nothing without a customer or for a record an invoice holds', () => {
    shell(<Form values={{ cl_id: '', date: '2026-11-19', bli_id: '' }} />);
    shell(<Form values={{ cl_id: '12', date: '2026-11-19', bli_id: '7' }} />);
    expect(called('closing_late')).toEqual([]);
    expect(screen.queryByRole('status', { name: '締め処理済みの期間' })).toBeNull();
  });
});
