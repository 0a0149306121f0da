/**
 * 月次サーバーレンタル (issue 12): the month's rental slips (区分 レンタル) from the agreements live in the month and
 * the servers installed at their customers. A customer's installed servers with a monthly fee (`sv_rental_fee`) are
 * billed on its newest agreement of the month, one line each from the later of the agreement's start and the
 * server's installation; an agreement without such servers bills its own 月額 (`ag_rental_fee`). A start
 * (利用開始日, else 契約日) or a cancel (解約日) inside the month charges its days: fee × days / days of the month,
 * rounded once with the customer's `kin_kiri` (lib/sales/rental `prorate`). Fees are tax-exclusive and taxed at the
 * standard rate of the slip date (the month's last day), × (100 + rate)/100 for 内税 customers as a delivery fee is.
 *
 * One slip per agreement and month (`sl_ag_id`, `sl_ym`: checked, and a partial unique index of migration 0035 stands
 * behind it), so a second run creates nothing twice; runs of one month take turns (`serialize`, and the job's
 * one-running-per-scope). The slips go through the sales resource's own save as ONE batch (`saveBatch`: pricing,
 * numbers, totals per rate, audit rows, the 売掛残高), in one transaction, stamped with the job's id.
 */
import type { Kysely, Transaction } from 'kysely';
import { monthLabel } from '../../lib/format';
import { moneyTermsOf } from '../../lib/money/totals';
import { feePrice } from '../../lib/orders/totals';
import { clientResource } from '../../lib/resources/client';
import { salesResource } from '../../lib/resources/sales';
import { titleOf } from '../../lib/resources/types';
import { chargedPeriod, prorate, type RentalGenerateResult, type RentalMonth, type RentalPreview, type RentalPreviewRow } from '../../lib/sales/rental';
import { rateOn } from '../../lib/tax';
import { serialize } from '../db/concurrency';
import { deferKeywordIndexing, mergeDeferredKeywordIndexes } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { refusalOf, saveBatch, type BulkEntry, type WriteContext } from '../resources';
import { taxPeriods } from '../tax';

type Db = Kysely<Database>;
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** One agreement's slip of the month: its charges and the customer's row (terms, name). */
interface PlannedSlip {
  ag_id: number;
  agreement_no: string;
  client: ResourceRow;
  label: string;
  rows: RentalPreviewRow[];
  existed: boolean;
}

/**
 * The month's charges per agreement, in customer then agreement order (four queries); in a write, `db` is its
 * transaction.
 * @example (await rentalPlan(db, rentalMonth('202605')!))[0].rows // [{ server: 'SV-0001', days: 22, amount: 2129, … }]
 */
export async function rentalPlan(db: Db, month: RentalMonth): Promise<PlannedSlip[]> {
  const [agreements, servers, billed] = await Promise.all([
    db.selectFrom('agreement').innerJoin('client', 'client.cl_id', 'agreement.ag_cl_id')
      .select(['ag_id', 'ag_cl_id', 'ag_agreement_no', 'ag_status', 'ag_contract_date', 'ag_start_date', 'ag_cancel_date', 'ag_rental_fee',
        'cl_co_name', 'cl_name', 'cl_kin_kiri', 'cl_zei_kiri', 'cl_zei_ten', 'cl_tanka_type', 'cl_kake_ritu'])
      .where('agreement.deleted', '=', 0).where('client.deleted', '=', 0)
      .where('ag_contract_date', '<=', month.to)
      .where((eb) => eb.or([eb('ag_status', 'in', ['1', '2']), eb.and([eb('ag_status', '=', '9'), eb('ag_cancel_date', '>=', month.from)])]))
      .orderBy('ag_cl_id').orderBy('ag_id')
      .execute(),
    db.selectFrom('water_server').select(['sv_id', 'sv_cl_id', 'sv_serial_no', 'sv_install_date', 'sv_rental_fee'])
      .where('deleted', '=', 0).where('sv_status', '=', 'installed').where('sv_rental_fee', '>', 0).where('sv_install_date', '<=', month.to)
      .orderBy('sv_cl_id').orderBy('sv_serial_no').orderBy('sv_id')
      .execute(),
    db.selectFrom('sales').select('sl_ag_id').where('sl_ym', '=', month.ym).where('deleted', '=', 0).execute(),
  ]);
  const existed = new Set(billed.map((r) => Number(r.sl_ag_id)));
  const serversOf = new Map<number, ResourceRow[]>();
  for (const s of servers) serversOf.set(Number(s.sv_cl_id), [...(serversOf.get(Number(s.sv_cl_id)) ?? []), s]);
  // The customer's newest agreement of the month carries its servers.
  const newest = new Map<number, ResourceRow>();
  for (const a of agreements) {
    const held = newest.get(Number(a.ag_cl_id));
    const later = held && (text(a.ag_contract_date) === text(held.ag_contract_date) ? Number(a.ag_id) > Number(held.ag_id) : text(a.ag_contract_date) > text(held.ag_contract_date));
    if (!held || later) newest.set(Number(a.ag_cl_id), a);
  }

  const plan: PlannedSlip[] = [];
  for (const a of agreements) {
    const start = text(a.ag_start_date) || text(a.ag_contract_date);
    const end = text(a.ag_status) === '9' ? text(a.ag_cancel_date) : '';
    const period = chargedPeriod(month, start, end);
    if (!period) continue;
    const kinKiri = moneyTermsOf(a).kinKiri;
    const label = titleOf(clientResource, a);
    const base = { ag_id: Number(a.ag_id), agreement_no: text(a.ag_agreement_no), cl_id: Number(a.ag_cl_id), cl_label: label, month_days: month.days, existed: existed.has(Number(a.ag_id)) };
    const rows: RentalPreviewRow[] = [];
    const own = newest.get(Number(a.ag_cl_id)) === a ? serversOf.get(Number(a.ag_cl_id)) ?? [] : [];
    for (const s of own) {
      const charged = chargedPeriod(month, text(s.sv_install_date) > period.from ? text(s.sv_install_date) : period.from, period.to);
      if (!charged) continue;
      const fee = Number(s.sv_rental_fee);
      rows.push({ ...base, server: text(s.sv_serial_no), ...charged, fee, amount: prorate(fee, charged.days, month.days, kinKiri) });
    }
    if (rows.length === 0 && Number(a.ag_rental_fee) > 0) {
      const fee = Number(a.ag_rental_fee);
      rows.push({ ...base, server: '', ...period, fee, amount: prorate(fee, period.days, month.days, kinKiri) });
    }
    if (rows.length > 0) plan.push({ ag_id: base.ag_id, agreement_no: base.agreement_no, client: a, label, rows, existed: base.existed });
  }
  return plan;
}

/**
 * The month's charges, counts and one page of rows (`n` per page, page `p`).
 * @example await rentalPreview(db, rentalMonth('202605')!, 100, 1) // { agreements: 2, slips: 2, existed: 0, amount: 5129, total: 3, rows: [...] }
 */
export async function rentalPreview(db: Db, month: RentalMonth, n: number, p: number): Promise<RentalPreview> {
  const plan = await rentalPlan(db, month);
  const rows = plan.flatMap((s) => s.rows);
  const coming = plan.filter((s) => !s.existed);
  return {
    ym: month.ym, from: month.from, to: month.to,
    agreements: plan.length, slips: coming.length, existed: plan.length - coming.length,
    amount: coming.reduce((sum, s) => sum + s.rows.reduce((t, r) => t + r.amount, 0), 0),
    total: rows.length, rows: rows.slice((p - 1) * n, p * n),
  };
}

/** A charge's line name: 「サーバーレンタル料 SV-0001（2026年5月分 5/10〜5/31 22日/31日）」. */
function lineName(month: RentalMonth, row: RentalPreviewRow): string {
  const what = row.server ? `サーバーレンタル料 ${row.server}` : `サーバーレンタル料（契約 ${row.agreement_no}）`;
  const part = row.days < month.days ? ` ${Number(row.from.slice(5, 7))}/${Number(row.from.slice(8))}〜${Number(row.to.slice(5, 7))}/${Number(row.to.slice(8))} ${row.days}日/${month.days}日` : '';
  return `${what}（${monthLabel(month.ym)}分${part}）`;
}

/** An agreement's slip as the sales save takes it: dated the month's last day, one standard-rate line per charge. */
const entryOf = (month: RentalMonth, slip: PlannedSlip, standardRate: number): BulkEntry => ({
  values: {
    cl_id: slip.client.ag_cl_id, date: month.to, kind: 'rental',
    biko: `${monthLabel(month.ym)}分 サーバーレンタル（契約 ${slip.agreement_no}）`,
    lines: slip.rows.map((row) => ({ name: lineName(month, row), quantity: 1, price: feePrice(row.amount, standardRate, moneyTermsOf(slip.client)), tax_class: 'standard' })),
  },
  fixed: { sl_ag_id: slip.ag_id, sl_ym: month.ym },
});

/** A refused slip, naming the customer and the agreement (the run creates nothing then). */
function aboutSlip(slip: PlannedSlip, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  return badRequest(`${slip.label}（契約 ${slip.agreement_no}）のレンタル売上を作成できません。${error.message} 売上伝票は1件も作成していません。`, error.extra);
}

/**
 * Creates the month's rental slips not yet made (one transaction), reporting progress between the batch's chunks.
 * @example await rentalGenerate(ctx, rentalMonth('202605')!) // { ym: '202605', created: 2, existed: 0, amount: 5129, slips: [41, 42] }
 */
export async function rentalGenerate(
  ctx: WriteContext, month: RentalMonth, progress: (done: number, total: number) => Promise<void> = async () => undefined,
): Promise<RentalGenerateResult> {
  try {
    const result = await ctx.db.transaction().execute(async (trx: Transaction<Database>) => {
      await serialize(trx, `rental_generate:${month.ym}`);
      await deferKeywordIndexing(trx);
      const [plan, periods] = await Promise.all([rentalPlan(trx, month), taxPeriods(trx)]);
      const coming = plan.filter((s) => !s.existed);
      const rate = rateOn(periods, 'standard', month.to);
      if (rate === undefined) throw badRequest(`${month.to} の標準税率が登録されていません。税率の設定を確認してください。`);
      await progress(0, coming.length);
      const { ids } = await saveBatch(trx, ctx, salesResource, coming.map((slip) => entryOf(month, slip, rate)), {
        answer: false, progress, name: (i, error) => aboutSlip(coming[i], error),
      });
      await progress(coming.length, coming.length);
      return {
        ym: month.ym, created: ids.length, existed: plan.length - coming.length,
        amount: coming.reduce((sum, s) => sum + s.rows.reduce((t, r) => t + r.amount, 0), 0), slips: ids,
      };
    });
    if (result.created > 0) void mergeDeferredKeywordIndexes(ctx.db, ['sales', 'audit_log']).catch(() => undefined);
    return result;
  } catch (error) {
    throw refusalOf(error);
  }
}
