/**
 * A customer's 売掛 summary (`sales_receivable`: balance, billing group, last payment, open items), for the
 * customer detail's 売掛 line and the payment screen's open items. Not asked without a customer or without read
 * access to the 売上 area. `revision` (a saved record's `modified`) asks again after a save.
 */
import useSWR from 'swr';
import { callFetcher } from '@/lib/client/data/use-call';
import type { AnswerOf, ParamsOf } from '@/lib/protocol/calls';

export function useReceivable(clientId: string | undefined, readable: boolean, revision = '') {
  const key = readable && clientId ? (['sales_receivable', { cl_id: clientId }, revision] as const) : null;
  const { data, isLoading, error } = useSWR<AnswerOf<'sales_receivable'>[], Error, typeof key>(key, ([name, params]: readonly ['sales_receivable', ParamsOf<'sales_receivable'>, string]) => callFetcher([name, params]), { revalidateOnFocus: false });
  return { summary: data?.[0], isLoading, error };
}
