/**
 * 売上伝票: the save writes the slip and its lines (`lines` in the postData, the resource's child rows) in one
 * transaction. Each line is priced at the slip date with the customer's terms (server/orders/pricing.ts
 * `priceLine`: an item gives the name, price and class left out; the rate is the class's on the slip date); the
 * totals per rate come from the one money computation (lib/money/totals `slipTotals`) and are kept in
 * `sales_rate` for closing, and each line holds its part of them and its live slip's date for the sales report
 * (`withShares`, `sld_date`), the slip the quantity of its items (`sl_quantity`); 担当者 defaults to the user named as the customer's 営業担当. Every write re-computes
 * the customer's 売掛残高 (server/sales/ledger.ts) in the same transaction. A billed slip (`sl_bli_id`, set by
 * closing) is neither changed nor deleted (`billedRefusal`: a correction is a 値引・返品 slip); one dated in a period closed
 * already is accepted and billed by the next closing (server/closing/closed.ts); a slip its processed order made goes away only by moving the order back
 * (server/orders/status.ts); a rental or deposit slip is changed only by what made it (`handRefusal`).
 */
import type { Transaction } from 'kysely';
import { formatMoney } from '../../lib/format';
import { lineShares, moneyTermsOf, slipTotals, type MoneyTerms, type MoneyTotals, type TaxedAmount } from '../../lib/money/totals';
import { formatOrderNumber } from '../../lib/orders/number';
import { salesResource } from '../../lib/resources/sales';
import { isTaxClass, rateOn, taxClassOf } from '../../lib/tax';
import { chunksOf, rowsByIds, updateIntegersEach } from '../db/bulk-write';
import { resourceView, type Database, type ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { shareClosingLock } from '../closing';
import { priceLine, pricingBook, PRICING_CLIENT_COLUMNS, type PricingBook } from '../orders';
import { recomputeReceivables } from './ledger';
import { childProblem, storedChildren, type ResourcePolicy, type SaveEvent, type WriteActor } from '../resources';

/** The slip number: `SL` + the slip date + the id, like an order's (lib/orders/number). */
export const SALES_NUMBER_FORMAT = 'SL{yyyy}{mm}{dd}-{id:6}';

const LINES = salesResource.children;

interface SalesBatch {
  book: PricingBook;
  clients: Map<number, ResourceRow>;
  /** The ids of the live, active users (the customer's 営業担当 is one of them, or no default). */
  staff: Set<number>;
}

const batchOf = (event: SaveEvent): SalesBatch => event.batch as SalesBatch;
const clientIdOf = (event: Pick<SaveEvent, 'columns' | 'current'>): number => Number(event.columns.sl_cl_id ?? event.current?.sl_cl_id);
const empty = (value: unknown): boolean => value === null || value === undefined || value === '';

/**
 * Why a slip may not change: closing billed it (the invoice `sl_bli_id`). The one place the billing issue's
 * rule lives: the slip's save and delete and the order moved back from 処理済 all ask it.
 */
export async function billedRefusal(trx: Transaction<Database>, slipId: number): Promise<Error | undefined> {
  const row = await trx.selectFrom('sales').leftJoin('billing', 'billing.bl_id', 'sales.sl_bli_id')
    .select(['sl_number', 'sl_bli_id', 'bl_number']).where('sl_id', '=', slipId).executeTakeFirst();
  if (!row || empty(row.sl_bli_id)) return undefined;
  const invoice = empty(row.bl_number) ? `ID ${String(row.sl_bli_id)}` : String(row.bl_number);
  return badRequest(`売上伝票 ${row.sl_number} は請求済みのため変更・削除できません（請求書 ${invoice}）。訂正は値引・返品の伝票を登録してください。`);
}

const taxedOf = (lines: readonly ResourceRow[]): TaxedAmount[] =>
  lines.map((l) => ({ amount: Number(l.sld_amount), taxClass: taxClassOf(l.sld_tax_class), taxRate: Number(l.sld_tax_rate) }));

/** A slip's totals from its stored or derived lines, in the customer's terms. */
export const slipMoney = (lines: readonly ResourceRow[], client: ResourceRow | undefined): MoneyTotals => slipTotals(taxedOf(lines), moneyTermsOf(client));

/**
 * The lines with their part of the slip's buckets (`sld_net`, `sld_tax`: lib/money `lineShares`), what the sales report
 * sums (server/sales/report.ts): a 内税 line's amount split into net and tax as its bucket was, the tax of a bucket shared
 * to the yen. The lines also carry their live slip's date (`sld_date`, set by the caller).
 */
function withShares(lines: readonly ResourceRow[], terms: MoneyTerms): ResourceRow[] {
  const taxed = taxedOf(lines);
  const shares = lineShares(taxed, slipTotals(taxed, terms).rates);
  return lines.map((line, i) => ({ ...line, sld_net: shares[i].net, sld_tax: shares[i].tax }));
}

/** Stored lines kept by a save that did not send them: their parts again where the slip's buckets changed (the customer's terms). */
async function refreshShares(trx: Transaction<Database>, stored: readonly ResourceRow[], terms: MoneyTerms): Promise<void> {
  const changed = new Map<number, { sld_net: number; sld_tax: number }>();
  withShares(stored, terms).forEach((line, i) => {
    if (line.sld_net !== stored[i].sld_net || line.sld_tax !== stored[i].sld_tax) changed.set(Number(line.sld_id), { sld_net: Number(line.sld_net), sld_tax: Number(line.sld_tax) });
  });
  await updateIntegersEach(trx, 'sales_detail', 'sld_id', changed);
}

/** Σ quantities of the lines naming an item (`sl_quantity`, what the sales report counts by customer or staff). */
const itemQuantity = (lines: readonly ResourceRow[]): number => lines.reduce((sum, l) => sum + (empty(l.sld_it_id) ? 0 : Number(l.sld_quantity)), 0);

/** 「10%対象 3,000円（消費税 300円）／8%対象（軽減税率） 2,000円（消費税 160円）」 */
const rateSummary = (totals: MoneyTotals): string =>
  totals.rates.map((r) => `${r.label} ${formatMoney(r.net)}（消費税 ${formatMoney(r.tax)}）`).join('／');

/** A line's audit text, e.g. `天然水 12L ×-2 @1,296 (8%) = -2,592`. */
const lineSummary = (l: ResourceRow): string => `${String(l.sld_name)} ×${String(l.sld_quantity)} @${String(l.sld_price)} (${String(l.sld_tax_rate)}%) = ${String(l.sld_amount)}`;

async function storedLines(trx: Transaction<Database>, slipId: number): Promise<ResourceRow[]> {
  return (await storedChildren(trx, LINES, [slipId])).get(slipId) ?? [];
}

/**
 * A slip the system made (`salesResource.madeBy`: the rental run's, a bottle movement's deposit slip, a processed order's) refuses the sales
 * resource's own calls — a save or delete by hand — naming where it comes from; what made it changes it through the
 * same pipeline under its own call (the bottle save, `rental_generate`).
 */
function handRefusal(actor: WriteActor, row: ResourceRow): Error | undefined {
  if (actor.call !== `${salesResource.name}_save` && actor.call !== `${salesResource.name}_del`) return undefined;
  const madeBy = salesResource.madeBy?.(row);
  return madeBy ? badRequest(`売上伝票 ${String(row.sl_number)} は${madeBy}`) : undefined;
}

export const salesPolicy: ResourcePolicy = {
  async prepareBatch({ trx, saves }) {
    await shareClosingLock(trx);
    const [clients, book, users] = await Promise.all([
      rowsByIds(trx, 'client', 'cl_id', saves.map(clientIdOf), ['cl_id', 'cl_sale_usr_id', ...PRICING_CLIENT_COLUMNS]),
      pricingBook(trx, saves.flatMap((s) => (s.children ?? []).flatMap((l) => (empty(l.sld_it_id) ? [] : [Number(l.sld_it_id)])))),
      trx.selectFrom('user').select('user_id').where('deleted', '=', 0).where('user_active', '=', 1).execute(),
    ]);
    // The active staff: a customer's 営業担当 among them becomes a new slip's 担当者.
    const staff = new Set(users.map((u) => u.user_id));
    const batch: SalesBatch = { book, clients, staff };
    return batch;
  },

  async prepareChildren(event) {
    const { book, clients } = batchOf(event);
    const terms = moneyTermsOf(clients.get(clientIdOf(event)));
    const date = String(event.columns.sl_date ?? event.current?.sl_date);
    const lines = event.children.map((line, i) => {
      const priced = priceLine(book, terms, {
        itemId: empty(line.sld_it_id) ? null : Number(line.sld_it_id), name: String(line.sld_name ?? ''), quantity: Number(line.sld_quantity),
        price: empty(line.sld_price) ? null : Number(line.sld_price), taxClass: isTaxClass(line.sld_tax_class) ? line.sld_tax_class : null,
      }, date, '売上日');
      if ('field' in priced) throw childProblem(LINES, i, priced.field, priced.message);
      return { sld_it_id: priced.itemId, sld_name: priced.name, sld_quantity: priced.quantity, sld_price: priced.price, sld_amount: priced.amount, sld_tax_class: priced.taxClass, sld_tax_rate: priced.rate };
    });
    return withShares(lines, terms).map((line) => ({ ...line, sld_date: date }));
  },

  async beforeSave(event) {
    const { trx, current, columns, actor } = event;
    const { book, clients, staff } = batchOf(event);
    if (current) {
      const refusal = (await billedRefusal(trx, Number(current.sl_id))) ?? handRefusal(actor, current);
      if (refusal) throw refusal;
    }
    const client = clients.get(clientIdOf(event));
    let lines = event.children;
    if (!lines) {
      lines = current ? await storedLines(trx, Number(current.sl_id)) : [];
      const date = String(columns.sl_date ?? current?.sl_date);
      // Stored lines keep their rates: a new date whose rates differ needs the lines sent again (priced anew).
      if (current && date !== current.sl_date && lines.some((l) => rateOn(book.periods, taxClassOf(l.sld_tax_class), date) !== Number(l.sld_tax_rate))) {
        throw badRequest('売上日を変えると税率の変わる明細があります。明細も一緒に保存してください。', { fields: { date: '税率の変わる日付です。明細も一緒に保存してください。' } });
      }
      // The stored lines follow their slip's date (the sales report reads it from them).
      if (current && date !== current.sl_date) await trx.updateTable('sales_detail').set({ sld_date: date }).where('sld_sl_id', '=', Number(current.sl_id)).execute();
    }
    const totals = slipMoney(lines, client);
    if (!event.children && current) await refreshShares(trx, lines, moneyTermsOf(client));
    const derived: ResourceRow = { sl_net_total: totals.net, sl_tax_total: totals.tax, sl_total: totals.total, sl_rate_summary: rateSummary(totals), sl_quantity: itemQuantity(lines) };
    if (!current && empty(columns.sl_usr_id)) {
      const sales = Number(client?.cl_sale_usr_id ?? 0);
      derived.sl_usr_id = staff.has(sales) ? sales : actor.userId;
    }
    return derived;
  },

  identify(event) {
    return { sl_number: formatOrderNumber(SALES_NUMBER_FORMAT, String(event.row.sl_date), event.id) };
  },

  async wordChildren() {
    return lineSummary;
  },

  /**
   * The slips' totals per rate (what closing sums) and their customers' 売掛残高 (the old one too when a slip moved),
   * for the whole batch in a few statements: one slip or a month's rental run cost the same queries.
   */
  async afterBatch({ trx, ids, current, written, batch }) {
    const { clients } = batch as SalesBatch;
    // The lines the batch wrote are at hand; only slips saved without lines read theirs.
    const stored = await storedChildren(trx, LINES, ids.filter((_, i) => !written[i].children));
    const view = resourceView(trx);
    const rates: ResourceRow[] = [];
    for (const [i, slipId] of ids.entries()) {
      const totals = slipMoney(written[i].children ?? stored.get(slipId) ?? [], clients.get(Number(written[i].row.sl_cl_id)));
      for (const r of totals.rates) {
        rates.push({ slr_sl_id: slipId, slr_key: r.key, slr_tax_class: r.taxClass, slr_rate: r.rate, slr_amount: r.amount, slr_net: r.net, slr_tax: r.tax, slr_total: r.total });
      }
    }
    for (const chunk of chunksOf(ids, 1000)) await view.deleteFrom('sales_rate').where('slr_sl_id', 'in', chunk).execute();
    for (const chunk of chunksOf(rates, 1000)) await view.insertInto('sales_rate').values(chunk).execute();
    await recomputeReceivables(trx, [...written.map((w) => w.row.sl_cl_id), ...current.map((row) => row?.sl_cl_id)]);
  },

  async beforeDelete({ trx, actor, id, current }) {
    await shareClosingLock(trx);
    const refusal = (await billedRefusal(trx, id)) ?? handRefusal(actor, current);
    if (refusal) throw refusal;
    if (!empty(current.sl_od_id)) {
      const order = await trx.selectFrom('orders').select(['od_number', 'od_status']).where('od_id', '=', Number(current.sl_od_id)).where('deleted', '=', 0).executeTakeFirst();
      if (order?.od_status === 'processed') {
        throw badRequest(`受注 ${order.od_number} から作られた売上伝票です。受注の状態を「出荷済」に戻すと削除されます。`);
      }
    }
  },

  async afterDelete({ trx, id, current }) {
    // A deleted slip's lines leave the sales report (it reads live slips' lines by their date).
    await trx.updateTable('sales_detail').set({ sld_date: null }).where('sld_sl_id', '=', id).execute();
    await recomputeReceivables(trx, [current.sl_cl_id]);
  },
};
