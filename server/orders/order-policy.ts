/**
 * 受注: the save writes the order and its lines (`lines` in the postData, the resource's child rows:
 * server/resources/children.ts) in one transaction. The lines' names, unit prices (customer's 単価区分/掛率),
 * tax class and rate (fixed at the order date) and the totals per rate (lib/orders/totals) are derived here
 * (server/orders/pricing.ts); the shipping address, warehouse, payment method and time slot default from the
 * customer; the delivery fee from the shipping prefecture, and from it the order's fee line (a line of its own, `odd_fee`,
 * derived here on every save and written whenever it changes — the typed lines kept as stored when none were sent;
 * refused on a processed order, whose slip carries it); the number from the order settings and the id.
 * What the rules read — the customers and the pricing book — is read once per batch, so a regular-delivery run's
 * thirty thousand orders are priced by these same rules. A generated regular delivery (its scheduled day set by
 * the run, `fixed.od_hod_date`) is held (保留) when it would pass its billing customer's credit limit, counting the
 * batch's earlier orders of that billing group (server/clients/billing-chain.ts `billingGroupsOf`). The status changes only through `order_status` (server/orders/status.ts).
 */
import { formatOrderNumber } from '../../lib/orders/number';
import { stockIsOut, statusText } from '../../lib/orders/status';
import { orderResource } from '../../lib/resources/order';
import { billingGroupsOf, type BillingGroup } from '../clients';
import { rowsByIds } from '../db/bulk-write';
import type { ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { asWritten, creditHoldReason, feeLineRow, feeOf, isFeeLine, newOrderDefaults, priceLines, PRICING_CLIENT_COLUMNS, pricingBook, totalsOf, type PricingBook } from './pricing';
import { storedChildren, type ResourcePolicy, type SaveEvent } from '../resources';

/** What a batch of order saves reads once. */
interface OrderBatch {
  book: PricingBook;
  clients: Map<number, ResourceRow>;
  /** The customers' billing groups (the credit limit and the receivable it reads). */
  groups: Map<number, BillingGroup>;
  /** The totals of the batch's generated orders not held, per billing customer (the credit limit counts them). */
  committed: Map<number, number>;
  now: Date;
}

const LINES = orderResource.children!;

const batchOf = (event: SaveEvent): OrderBatch => event.batch as OrderBatch;

const clientOf = (event: SaveEvent): ResourceRow => batchOf(event).clients.get(Number(event.columns.od_cl_id ?? event.current?.od_cl_id))!;

/** Whether the stored fee line is the one derived now (both absent, or the same price, amount and rate). */
const sameFeeLine = (stored: ResourceRow | undefined, derived: ResourceRow | undefined): boolean =>
  stored === undefined || derived === undefined ? stored === derived
    : ['odd_price', 'odd_amount', 'odd_tax_rate'].every((column) => Number(stored[column]) === Number(derived[column]));

/** A line's text in the audit log, e.g. `天然水 12L ×2 @1,296 (8%)`. */
const lineSummary = (l: ResourceRow): string => `${String(l.odd_name)} ×${String(l.odd_quantity)} @${String(l.odd_price)} (${String(l.odd_tax_rate)}%)`;

export const orderPolicy: ResourcePolicy = {
  async prepareBatch({ trx, saves }) {
    const clientIds = saves.map((s) => Number(s.columns.od_cl_id ?? s.current?.od_cl_id));
    const [clients, book, groups] = await Promise.all([
      rowsByIds(trx, 'client', 'cl_id', clientIds, ['cl_id', ...PRICING_CLIENT_COLUMNS]),
      pricingBook(trx, saves.flatMap((s) => (s.children ?? []).map((line) => Number(line.odd_it_id)))),
      billingGroupsOf(trx, saves.some((s) => s.fixed.od_hod_date) ? clientIds : []),
    ]);
    const batch: OrderBatch = { book, clients, groups, committed: new Map(), now: new Date() };
    return batch;
  },

  async prepareChildren(event) {
    return priceLines(batchOf(event).book, event.children, clientOf(event), String(event.columns.od_date ?? event.current?.od_date));
  },

  async beforeSave(event) {
    const { trx, current, columns, children, fixed } = event;
    const { book, groups, committed, now } = batchOf(event);
    const derived: ResourceRow = {};
    if (current) {
      if (columns.od_status !== undefined && columns.od_status !== current.od_status) {
        throw badRequest('状態は状態ボタン（状態の変更）で変えてください。', { fields: { status: '状態は状態ボタンで変えてください。' } });
      }
      if (children && stockIsOut(String(current.od_status))) {
        throw badRequest(`「${statusText(String(current.od_status))}」の受注の明細は変更できません。`);
      }
      if (columns.od_sk_id !== undefined && String(columns.od_sk_id ?? '') !== String(current.od_sk_id ?? '') && stockIsOut(String(current.od_status))) {
        const message = `「${statusText(String(current.od_status))}」の受注の出荷倉庫は変更できません（在庫を出した倉庫です）。状態を戻してから変更してください。`;
        throw badRequest(message, { fields: { sk_id: message } });
      }
    } else if (children && children.length > 0 && !['untreated', 'pending', ''].includes(String(columns.od_status ?? ''))) {
      throw badRequest('明細のある受注は「未処理」か「保留」で登録してください。', { fields: { status: '「未処理」か「保留」で登録してください。' } });
    }
    if (!current && !columns.od_status) derived.od_status = 'untreated';
    // A warehouse out of use is chosen for no order any more (a stored one stays until changed).
    const retired = columns.od_sk_id !== undefined && columns.od_sk_id !== current?.od_sk_id ? book.retired.get(String(columns.od_sk_id)) : undefined;
    if (retired !== undefined) {
      throw badRequest(`出荷倉庫「${retired}」は使用停止です。使用中の倉庫を選んでください。`, { fields: { sk_id: `「${retired}」は使用停止の倉庫です。` } });
    }
    const row = { ...current, ...columns };
    const client = clientOf(event);
    if (!current) Object.assign(derived, newOrderDefaults(book, client, columns, now));
    const date = String(row.od_date);
    let fee = columns.od_delivery_fee === undefined ? current?.od_delivery_fee ?? null : columns.od_delivery_fee;
    if (fee === null || fee === '') {
      fee = feeOf(book, derived.od_ship_pref ?? row.od_ship_pref);
      derived.od_delivery_fee = fee;
    }
    // The fee line follows the fee, the order date and the customer: re-derived on every save, written when it changed.
    const feeRow = feeLineRow(book, client, Number(fee), date);
    const stored = !children && current ? (await storedChildren(trx, LINES, [Number(current.od_id)])).get(Number(current.od_id))! : [];
    const lines = [...(children ?? stored.filter((line) => !isFeeLine(line)).map(asWritten)), ...(feeRow ? [feeRow] : [])];
    if (children) event.children = lines;
    else if (!sameFeeLine(stored.find(isFeeLine), feeRow)) {
      if (current?.od_status === 'processed') {
        throw badRequest('「処理済」の受注の送料は変更できません（売上伝票に計上済みです）。状態を「出荷済」に戻してから変更してください。', { fields: { delivery_fee: '処理済の受注の送料は変更できません。' } });
      }
      event.children = lines;
    }
    Object.assign(derived, totalsOf(client, lines));
    if (!current && fixed.od_hod_date) {
      const total = Number(derived.od_uriage_total);
      const group = groups.get(Number(client.cl_id))!;
      const earlier = committed.get(group.billingId) ?? 0;
      const hold = creditHoldReason(group, Number(client.cl_id), total, earlier);
      if (hold) Object.assign(derived, { od_status: 'pending', od_hold_reason: hold });
      else committed.set(group.billingId, earlier + total);
    }
    return derived;
  },

  identify(event) {
    return { od_number: formatOrderNumber(batchOf(event).book.settings.numberFormat, String(event.row.od_date), event.id) };
  },

  async wordChildren() {
    return lineSummary;
  },

  async beforeDelete({ current }) {
    if (stockIsOut(String(current.od_status))) {
      throw badRequest(`「${statusText(String(current.od_status))}」の受注は削除できません。先に状態を戻して在庫を戻してください。`);
    }
  },
};
