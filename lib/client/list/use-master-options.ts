/**
 * Options of a master table (`master_lst` with `table`), shared through SWR so every select of
 * the same table asks once.
 */
import type { MasterOption } from '../../protocol';
import type { Option } from '../../resources/types';
import { useCall } from '../data/use-call';

export interface MasterOptions {
  options: Option[];
  isLoading: boolean;
  error: unknown;
}

/** Turns master rows into select options (value and text as strings). */
export function masterToOptions(rows: readonly Partial<MasterOption>[] | undefined): Option[] {
  return (rows ?? [])
    .filter((r) => r && r.value !== undefined && r.value !== null)
    .map((r) => ({ value: String(r.value), text: String(r.text ?? r.value) }));
}

/**
 * @example const { options } = useMasterOptions('mt_pmt_method');
 */
export function useMasterOptions(table: string | undefined): MasterOptions {
  const { data, isLoading, error } = useCall('master_lst', table ? { table } : null, {
    revalidateOnFocus: false,
    dedupingInterval: 60_000,
  });
  return { options: masterToOptions(data), isLoading, error };
}
