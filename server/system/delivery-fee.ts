/**
 * The delivery fee of a prefecture (/system/deliveryfee), for orders and anything else that
 * charges shipping.
 */
import type { Kysely } from 'kysely';
import { PREFECTURES, prefectureOfAddress } from '../../lib/prefectures';
import type { Database } from '../db/schema';

export interface DeliveryFee {
  /** JIS X 0401 code, e.g. `13`. */
  prefCode: string;
  prefName: string;
  /** 送料 (yen). */
  fee: number;
  /** 離島・遠隔地加算 (yen), charged on top of the fee for remote areas. */
  remoteFee: number;
  note: string;
}

/**
 * The prefecture a code (`13`, `1`, 13) or a name or address (`東京都`, `東京都千代田区…`) names.
 * @example prefectureOf('1') // { code: '01', name: '北海道' }
 */
export function prefectureOf(codeOrName: string | number): { code: string; name: string } | undefined {
  const text = String(codeOrName).normalize('NFKC').trim();
  if (/^\d{1,2}$/.test(text)) return PREFECTURES.find((p) => p.code === text.padStart(2, '0'));
  const name = prefectureOfAddress(text);
  return name ? PREFECTURES.find((p) => p.name === name) : undefined;
}

/** Every live fee by prefecture code (one query): load once, then look up with `feeIn`. */
export async function liveDeliveryFees(db: Kysely<Database>): Promise<Map<string, DeliveryFee>> {
  const rows = await db.selectFrom('delivery_fee').select(['df_pref_code', 'df_pref_name', 'df_fee', 'df_remote_fee', 'df_note']).where('deleted', '=', 0).execute();
  return new Map(rows.map((row) => [String(row.df_pref_code), {
    prefCode: String(row.df_pref_code),
    prefName: String(row.df_pref_name),
    fee: Number(row.df_fee ?? 0),
    remoteFee: Number(row.df_remote_fee ?? 0),
    note: String(row.df_note ?? ''),
  }]));
}

/**
 * The fee of a prefecture (by JIS code, name or an address starting with it) among `fees`, or undefined
 * when the text names no prefecture or it has no fee.
 * @example feeIn(await liveDeliveryFees(db), '沖縄県') // { prefCode: '47', prefName: '沖縄県', fee: 1320, remoteFee: 1650, note: '…' }
 */
export function feeIn(fees: ReadonlyMap<string, DeliveryFee>, prefCodeOrName: unknown): DeliveryFee | undefined {
  const pref = prefCodeOrName === null || prefCodeOrName === undefined || prefCodeOrName === '' ? undefined : prefectureOf(String(prefCodeOrName));
  return pref && fees.get(pref.code);
}

/**
 * The current fee of a prefecture (`feeIn` over the live fees).
 * @example await deliveryFeeFor(db, '沖縄県') // { prefCode: '47', prefName: '沖縄県', fee: 1320, … }
 */
export const deliveryFeeFor = async (db: Kysely<Database>, prefCodeOrName: string | number): Promise<DeliveryFee | undefined> =>
  feeIn(await liveDeliveryFees(db), prefCodeOrName);
