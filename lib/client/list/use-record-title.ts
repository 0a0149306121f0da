/**
 * The name of one record of a resource by its id (`{r}_dtl`, shared through SWR), for places that
 * hold only the id: a record picker's value set by code, a value in the audit log.
 */
import useSWR from 'swr';
import { callName } from '../../protocol';
import { titleOf, type ResourceDef } from '../../resources/types';
import { callFetcher, type Row } from './use-list-controller';

/**
 * @example const { title } = useRecordTitle(clientResource, '12'); // '山田商店' ('' while loading or when it cannot be read)
 */
export function useRecordTitle(def: ResourceDef | undefined, id: string | undefined): { title: string; isLoading: boolean } {
  const { data, isLoading } = useSWR(def && id ? ([callName(def.name, 'dtl'), { id }] as const) : null, callFetcher<Row>, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  return { title: def ? titleOf(def, data?.[0]) : '', isLoading };
}
