/** Reads of settings tables several screens share: one hook per call, named after what it reads. */
import { useCall } from './use-call';

const ONCE = { revalidateOnFocus: false } as const;

/** Every tax rate, oldest first (`tax_lst`): the item form's rate and a slip's pricing read the same query. */
export const useTaxRates = () => useCall('tax_lst', { n: 1000, p: 1, col: 'tx_valid_from', odr: 'asc', kw: '', postData: {} }, ONCE);
/** Every delivery fee by prefecture (`deliveryfee_lst`). */
export const useDeliveryFees = () => useCall('deliveryfee_lst', { n: 100, p: 1, col: 'df_pref_code', odr: 'asc', kw: '', postData: {} }, ONCE);
