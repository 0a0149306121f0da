/**
 * 請求 (invoice): written only by closing (server/closing/run.ts, through the one write path as the system) and
 * removed only by its restore. Its number is `BL` + the closing month + the id, like a slip's (lib/orders/number).
 */
import { formatOrderNumber } from '../../lib/orders/number';
import type { ResourcePolicy } from '../resources';

/** The invoice number: `BL{yyyy}{mm}-{id:6}` of the closing date's month, e.g. BL202505-000123. */
export const BILLING_NUMBER_FORMAT = 'BL{yyyy}{mm}-{id:6}';

export const billingPolicy: ResourcePolicy = {
  identify(event) {
    return { bl_number: formatOrderNumber(BILLING_NUMBER_FORMAT, String(event.row.bl_closing_date), event.id) };
  },
};
