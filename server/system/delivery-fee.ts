/**
 * The delivery fees of the prefectures (/system/deliveryfee) as the database holds them, for orders and
 * anything else that charges shipping; the lookup rules are lib/orders/delivery-fee.
 */
import type { Kysely } from 'kysely';
import { deliveryFeesOf, feeIn, type DeliveryFee } from '../../lib/orders/delivery-fee';
import type { Database } from '../db/schema';

/** Every live fee by prefecture code (one query): load once, then look up with `feeIn` (lib/orders/delivery-fee). */
export async function liveDeliveryFees(db: Kysely<Database>): Promise<Map<string, DeliveryFee>> {
  return deliveryFeesOf(await db.selectFrom('delivery_fee').select(['df_pref_code', 'df_pref_name', 'df_fee', 'df_remote_fee', 'df_note']).where('deleted', '=', 0).execute());
}

/**
 * The current fee of a prefecture (`feeIn` over the live fees).
 * @example await deliveryFeeFor(db, '沖縄県') // { prefCode: '47', prefName: '沖縄県', fee: 1320, … }
 */
export const deliveryFeeFor = async (db: Kysely<Database>, prefCodeOrName: string | number): Promise<DeliveryFee | undefined> =>
  feeIn(await liveDeliveryFees(db), prefCodeOrName);
