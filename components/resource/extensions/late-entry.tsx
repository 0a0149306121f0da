/**
 * Under the sales slip and payment forms (issue 19): once a customer and a date are chosen, says before saving when the
 * day lies in a period already closed for the customer — the slip or payment is accepted and billed by the next
 * closing (`closing_late`, server/closing/closed.ts): 「11月20日締めは締め処理済みです。次回（12月20日締め）の請求に
 * 含めます。」. Nothing is shown for an open day, or for a record an invoice holds already.
 */
import { useWatch } from 'react-hook-form';
import { isDay } from '@/lib/day';
import type { FormPanelProps } from './types';
import { useLateEntry } from '@/lib/client/data/closing';
import { useCanCall } from '@/lib/client/auth/use-can-call';

export function LateEntryNotice({ control }: FormPanelProps) {
  const clientId = String(useWatch({ control, name: 'cl_id' }) ?? '');
  const date = String(useWatch({ control, name: 'date' }) ?? '');
  const billed = String(useWatch({ control, name: 'bli_id' }) ?? '');
  const readable = useCanCall('closing_late');
  const query = readable && clientId && isDay(date) && !billed ? { cl_id: clientId, date } : null;
  const { data } = useLateEntry(query);
  const late = query ? data?.[0] : undefined;
  if (!late) return null;
  return (
    <p role="status" aria-label="締め処理済みの期間" className="rounded-[6px] border border-warning bg-surface px-[16px] py-[10px] text-[1.4rem] text-warning">
      {late.message}
    </p>
  );
}
