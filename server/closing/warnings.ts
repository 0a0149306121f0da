/**
 * What to look at before 締切 (`closing_warnings`, issue 19): a group's month answers one warning per kind that applies,
 * each with how many and a link to the list of exactly those rows; an empty answer means nothing to warn about.
 * - `future`: the closing date has not come (`closing_run` then wants `early=1`).
 * - `unprocessed_orders`: orders of the customers the group bills (請求先 and sites) delivered in the period and neither
 *   処理済 nor キャンセル — no slip yet, so the invoice would not hold them.
 * - `rental_missing`: the server rentals of the month ending in the period (rental month = the month of the period's
 *   first day) not yet made into slips for those customers (server/sales/rental.ts `rentalPlan`).
 * - `unallocated_payments`: those customers' payments up to the closing date whose 消込 does not add up to the amount.
 * Orders and payments are counted by the list's own query with the filters their link carries
 * (`countMatching`, `filteredListPathOf`), so the number is the number of rows the link opens.
 */
import { sql, type Kysely } from 'kysely';
import type { ClosingWarning } from '../../lib/closing/answers';
import { closingGroupLabel, type ClosingPeriod } from '../../lib/closing/period';
import { formatMoney, monthLabel, todayJst } from '../../lib/format';
import type { RawFilters } from '../../lib/list/list-state';
import { filteredListPathOf } from '../../lib/list/resource-paths';
import { MESSAGES } from '../../lib/protocol';
import { orderResource } from '../../lib/resources/order';
import { paymentResource } from '../../lib/resources/payment';
import type { ResourceDef } from '../../lib/resources/types';
import { rentalMonth } from '../../lib/sales/rental';
import { resourceView, type Database } from '../db/schema';
import { type KeywordMatcher, countMatching, parseListParams } from '../resources';
import { rentalPlan } from '../sales';
import { groupOf } from './plan';

type Db = Kysely<Database>;

/** The order statuses still waiting for their slip (neither 処理済 nor キャンセル). */
const UNPROCESSED = ['untreated', 'pending', 'waitshipping', 'shipped'];

/** The screen of the month's server rentals. */
const RENTAL_PATH = '/sales/rental';

/**
 * The warnings of a group's month, in the order above (`today`: Japan day).
 * @example await closingWarnings(db, matcher, closingPeriod('20', '202611'), '2026-11-27') // [{ kind: 'unprocessed_orders', count: 2, message: '…', link: '/orders/list?filter=…' }]
 */
export async function closingWarnings(db: Db, matcher: KeywordMatcher, period: ClosingPeriod, today: string = todayJst()): Promise<ClosingWarning[]> {
  const view = resourceView(db);
  const group = closingGroupLabel(period.sime_gp);
  const listed = async (def: ResourceDef, filters: RawFilters) => ({
    count: await countMatching(view, def, parseListParams(def, { postData: JSON.stringify(filters) }), matcher),
    link: filteredListPathOf(def, filters) ?? null,
  });
  const month = rentalMonth(period.from.slice(0, 4) + period.from.slice(5, 7))!;
  const [orders, payments, rentals, members] = await Promise.all([
    listed(orderResource, { delivery_date: [period.from, period.to], od_status: UNPROCESSED, sime_gp: [period.sime_gp] }),
    listed(paymentResource, { date: ['', period.to], unallocated: ['1'], sime_gp: [period.sime_gp] }),
    month.to <= period.to ? rentalPlan(db, month) : Promise.resolve([]),
    sql<{ id: number }>`${groupOf(period.sime_gp)} SELECT grp.id FROM grp`.execute(db),
  ]);
  const billed = new Set(members.rows.map((r) => Number(r.id)));
  const missing = rentals.filter((slip) => !slip.existed && billed.has(Number(slip.client.ag_cl_id)));
  const amount = missing.reduce((sum, slip) => sum + slip.rows.reduce((t, r) => t + r.amount, 0), 0);

  const warnings: ClosingWarning[] = [];
  if (period.closing_date > today) warnings.push({ kind: 'future', count: 1, message: MESSAGES.closingEarly(period.closing_date, today), link: null });
  if (orders.count > 0) {
    warnings.push({
      kind: 'unprocessed_orders', count: orders.count, link: orders.link,
      message: `${group}の顧客の受注で、配送日が対象期間（${period.from}〜${period.to}）なのに処理済になっていないものが ${orders.count}件あります。処理済にするまで売上伝票がなく、この請求には含まれません。`,
    });
  }
  if (missing.length > 0) {
    warnings.push({
      kind: 'rental_missing', count: missing.length, link: `${RENTAL_PATH}?ym=${month.ym}`,
      message: `${monthLabel(month.ym)}分のサーバーレンタルの売上伝票がまだ作成されていない契約が ${missing.length}件あります（税抜 ${formatMoney(amount)}）。月次サーバーレンタルで作成すると、この請求に含まれます。`,
    });
  }
  if (payments.count > 0) {
    warnings.push({
      kind: 'unallocated_payments', count: payments.count, link: payments.link,
      message: `${group}の顧客の入金で、請求書への消込が済んでいないものが ${payments.count}件あります（入金日 ${period.to} まで）。締切のあとは、この請求で繰り越される請求書には消込できません。`,
    });
  }
  return warnings;
}
