/**
 * The name of one record of a resource by its id (`{r}_dtl`, shared through SWR), for places that
 * hold only the id: a record picker's value set by code, a value in the audit log.
 */
import { resourceCall } from '../../protocol/calls';
import { titleOf, type ResourceDef } from '../../resources/types';
import { useCall } from '../data/use-call';

/**
 * @example const { title } = useRecordTitle(clientResource, '12'); // '山田商店' ('' while loading or when it cannot be read)
 */
export function useRecordTitle(def: ResourceDef | undefined, id: string | undefined): { title: string; isLoading: boolean } {
  const { data, isLoading } = useCall(resourceCall(def ?? { name: '' }, 'dtl'), def && id ? { id } : null, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  return { title: def ? titleOf(def, data?.[0]) : '', isLoading };
}
