/** The server's side of lib/tax: the registered rate periods and the rate of a class on a date. */
import type { Kysely } from 'kysely';
import { rateOn, taxPeriodOf, type TaxClass, type TaxPeriod } from '../../lib/tax';
import type { Database } from '../db/schema';

/** The live rate periods (tax records), oldest first. */
export async function taxPeriods(db: Kysely<Database>): Promise<TaxPeriod[]> {
  const rows = await db.selectFrom('tax_rate').selectAll().where('deleted', '=', 0).orderBy('tx_valid_from').orderBy('tx_id').execute();
  return rows.flatMap((row) => taxPeriodOf(row) ?? []);
}

/**
 * The rate (percent) of a tax class on a transaction date, by `rateOn`; undefined when no rate is
 * registered for that date.
 * @example await taxRateFor(db, 'reduced', '2026-05-01') // 8
 */
export async function taxRateFor(db: Kysely<Database>, taxClass: TaxClass, date: string): Promise<number | undefined> {
  return rateOn(await taxPeriods(db), taxClass, date);
}
