/**
 * Late entries (issue 19): a sales slip or payment dated in a period already closed for its customer is accepted, keeps
 * its real date and is billed by that customer's next closing (the plan takes every unbilled slip and payment dated on
 * or before its closing date, server/closing/plan.ts). What stays closed is what an invoice holds (`sl_bli_id`,
 * `py_bli_id`: the sales and payment policies' billed refusals). This file is the one place that says, before a save,
 * that a day is closed and which closing will bill it (`lateEntry`, the call `closing_late` the slip and payment
 * forms ask), and the named lock slip and payment writes share so that a closing running (which takes it exclusively,
 * server/closing/run.ts) stamps what it read: one saved meanwhile waits for it (PostgreSQL; SQLite runs write
 * transactions one at a time anyway) and is then either billed by it or left for the next one.
 *
 * A closing covers everything of its group up to its closing date (a group's closings go month after month), so a day
 * is closed for a customer when it is on or before the latest closing date of its billing customer's group (the top
 * of the 請求親顧客 chain, server/clients/billing-chain.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import { closingDateOf, closingDayLabel, shiftMonth } from '../../lib/closing/period';
import type { LateEntry } from '../../lib/closing/answers';
import { billingCustomersOf } from '../clients';
import { serialize } from '../db/concurrency';
import type { Database } from '../db/schema';

/** The named lock of closing: shared by slip and payment writes, exclusive for a closing and its restore. */
export const CLOSING_LOCK = 'closing';

/** Takes the closing lock shared: every slip and payment write does, first. */
export const shareClosingLock = (trx: Transaction<Database>): Promise<void> => serialize(trx, CLOSING_LOCK, 'shared');

/**
 * Whether a customer's day lies in a closed period, and then the closing that closed it and the next one, which will
 * bill it; undefined when the day is open (or the customer unknown).
 * @example await lateEntry(db, 12, '2026-11-19')
 * // { closed: '2026-11-20', next: '2026-12-20', message: '11月20日締めは締め処理済みです。次回（12月20日締め）の請求に含めます。' }
 */
export async function lateEntry(db: Kysely<Database>, clientId: number, date: string): Promise<LateEntry | undefined> {
  const billing = (await billingCustomersOf(db, [clientId])).get(clientId);
  if (billing === undefined) return undefined;
  const top = await db.selectFrom('client').select('cl_sime_gp').where('cl_id', '=', billing).executeTakeFirst();
  const gp = String(top?.cl_sime_gp ?? '');
  if (!gp) return undefined;
  const closings = await db.selectFrom('closing').select(['cls_sime_ym', 'cls_closing_date']).where('cls_sime_gp', '=', gp).orderBy('cls_closing_date').execute();
  // The group's closings by date: the first one on or after the day is the one that closed it.
  const covering = closings.find((c) => String(c.cls_closing_date) >= date);
  if (!covering) return undefined;
  const closed = String(covering.cls_closing_date);
  const next = closingDateOf(gp, shiftMonth(String(closings.at(-1)!.cls_sime_ym), 1));
  return { closed, next, message: `${closingDayLabel(closed)}は締め処理済みです。次回（${closingDayLabel(next)}）の請求に含めます。` };
}
