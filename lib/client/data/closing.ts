/** Reads of closings, invoices and the JACCS debit (sales area): one hook per call, named after what it reads. */
import type { ParamsOf } from '../../protocol/calls';
import { useCall } from './use-call';

/** Closings change under the screens (a run, a restore): every mount asks the server again. */
const FRESH = { revalidateOnFocus: false, revalidateOnMount: true, dedupingInterval: 0 } as const;
const ONCE = { revalidateOnFocus: false } as const;

/** The closings (`closing_lst`), of one closing group or all. */
export const useClosings = (params: ParamsOf<'closing_lst'> | null) => useCall('closing_lst', params, FRESH);
/** The 仮締め of a closing: its invoices as they would be (`closing_preview`). */
export const useClosingPreview = (params: ParamsOf<'closing_preview'> | null) => useCall('closing_preview', params, FRESH);
/** What to check before a closing (`closing_warnings`). */
export const useClosingWarnings = (params: ParamsOf<'closing_warnings'> | null) => useCall('closing_warnings', params, FRESH);
/** The slips and payments behind one customer's invoice of a closing (`closing_preview_items`). */
export const useClosingItems = (params: ParamsOf<'closing_preview_items'>) => useCall('closing_preview_items', params, ONCE);
/** Whether a slip dated in a closed period goes to the next invoice (`closing_late`). */
export const useLateEntry = (params: ParamsOf<'closing_late'> | null) => useCall('closing_late', params, ONCE);
/** An invoice's amounts by tax rate (`billing_rate_lst`). */
export const useBillingRates = (billingId: number | string) => useCall('billing_rate_lst', { bl_id: billingId }, ONCE);
/** The payments allocated to an invoice (`allocation_lst`). */
export const useBillingAllocations = (billingId: number | string) => useCall('allocation_lst', { bl_id: billingId }, ONCE);
/** An invoice's sends (PDF, mail) (`billing_send_lst`). */
export const useBillingSends = (billingId: number | string) => useCall('billing_send_lst', { bl_id: billingId }, ONCE);
/** Every time an archived invoice version left (`archive_delivery_lst`). */
export const useArchiveDeliveries = (archiveId: number | string) => useCall('archive_delivery_lst', { ar_id: archiveId }, ONCE);
/** The invoices a batch mail would send (`billing_mail_batch_preview`). */
export const useMailBatchPreview = (params: ParamsOf<'billing_mail_batch_preview'>) => useCall('billing_mail_batch_preview', params, ONCE);
/** The JACCS debit request of a closing (`jaccs_preview`). */
export const useJaccsPreview = (params: ParamsOf<'jaccs_preview'> | null) => useCall('jaccs_preview', params, FRESH);
/** The customers the last JACCS result did not debit (`jaccs_failure_lst`). */
export const useJaccsFailures = () => useCall('jaccs_failure_lst', {}, FRESH);
