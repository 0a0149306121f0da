/**
 * 送り状出力 (issue 14): the chosen 出荷待ち orders as the Yamato B2 Cloud import CSV (`export_b2`) and what the file will
 * hold before it is made (`export_b2_preview`). Both read the orders the same way (`b2Rows`); the export refuses — nothing
 * written — when an order is missing, deleted or not 出荷待ち, when one lacks what B2 requires, or when 自社情報 lacks the
 * sender or the contract codes; otherwise it marks the orders exported (`od_b2_exported_at` / `_by`) and writes their audit
 * rows in the transaction that read them, and answers the file (cp932 by default) through `csvFile`.
 */
import type { Transaction } from 'kysely';
import type { B2Preview, B2PreviewRow, B2Problem } from '../../lib/orders/b2';
import { statusText } from '../../lib/orders/status';
import { orderResource } from '../../lib/resources/order';
import { COMPANY_SETTING_ID } from '../../lib/resources/company';
import type { CsvEncoding } from '../../lib/protocol';
import type { FileAnswer } from '../calls/call-table';
import { locking } from '../db/concurrency';
import { resourceView, type Database, type Db, type ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { cashMethods } from '../hod';
import { storedChildren, csvFile, systemUpdate } from '../resources';
import { B2_COLUMN, B2_COLUMNS, b2Row, B2_TIME_SLOTS, B2_TYPES, senderProblems, type B2Order, type B2Sender } from './b2-layout';
import { cellText } from '../../lib/resources/checks';


/** The sender (ご依頼主) and the B2 contract codes from 自社情報. */
async function b2Sender(db: Db | Transaction<Database>): Promise<B2Sender> {
  const row = await resourceView(db).selectFrom('company_setting').selectAll().where('cs_id', '=', COMPANY_SETTING_ID).executeTakeFirst();
  return {
    name: cellText(row?.cs_name), zipcode: cellText(row?.cs_zipcode), address: cellText(row?.cs_address), tel: cellText(row?.cs_tel),
    billingCode: cellText(row?.cs_b2_billing_code), billingClass: cellText(row?.cs_b2_billing_class), freightNo: cellText(row?.cs_b2_freight_no),
  };
}

interface B2Read {
  sender: B2Sender;
  senderProblems: B2Problem[];
  /** The live orders found, in the order asked. */
  orders: ResourceRow[];
  /** Ids asked for that name no live order. */
  missing: number[];
  rows: { order: ResourceRow; built: ReturnType<typeof b2Row> }[];
  users: Map<number, string>;
}

/** Reads the orders (locked for the export), their customers' names, item lines and the sender, and builds every row. */
async function b2Rows(db: Db | Transaction<Database>, ids: readonly number[], shipDate: string, lock: boolean): Promise<B2Read> {
  const view = resourceView(db);
  const query = view.selectFrom('orders').selectAll().where('od_id', 'in', [...ids]).where('deleted', '=', 0).orderBy('od_id');
  const found = await (lock ? locking(db, query, 'update') : query).execute();
  const byId = new Map<number, ResourceRow>(found.map((o) => [Number(o.od_id), o]));
  const orders: ResourceRow[] = ids.flatMap((id): ResourceRow[] => {
    const order = byId.get(id);
    return order ? [order] : [];
  });
  const missing = ids.filter((id) => !byId.has(id));
  const clientIds = [...new Set(orders.map((o) => Number(o.od_cl_id)))];
  const userIds = [...new Set(orders.map((o) => Number(o.od_b2_exported_by)).filter((id) => id > 0))];
  const [clients, children, cash, sender, users] = await Promise.all([
    clientIds.length ? view.selectFrom('client').select(['cl_id', 'cl_name', 'cl_name_kana', 'cl_co_name', 'cl_co_name_kana']).where('cl_id', 'in', clientIds).execute() : [],
    storedChildren(db, orderResource.children, orders.map((o) => Number(o.od_id))),
    cashMethods(db),
    b2Sender(db),
    userIds.length ? db.selectFrom('user').select(['user_id', 'user_name']).where('user_id', 'in', userIds).execute() : [],
  ]);
  const clientOf = new Map(clients.map((c) => [Number(c.cl_id), c]));
  const rows = orders.map((order) => {
    const client = clientOf.get(Number(order.od_cl_id));
    const lines = (children.get(Number(order.od_id)) ?? []).filter((l) => Number(l.odd_fee) !== 1);
    const input: B2Order = {
      number: cellText(order.od_number),
      deliveryDate: cellText(order.od_delivery_date),
      timeSlot: cellText(order.od_ht_id),
      collect: cash.has(cellText(order.od_pm_id)),
      total: Number(order.od_uriage_total ?? 0),
      tax: Number(order.od_tax_total ?? 0),
      ship: {
        coName: cellText(order.od_ship_co_name), name: cellText(order.od_ship_name), zipcode: cellText(order.od_ship_zipcode), pref: cellText(order.od_ship_pref),
        city: cellText(order.od_ship_city), address: cellText(order.od_ship_address), building: cellText(order.od_ship_building), tel: cellText(order.od_ship_tel),
      },
      client: { name: cellText(client?.cl_name), nameKana: cellText(client?.cl_name_kana), coName: cellText(client?.cl_co_name), coNameKana: cellText(client?.cl_co_name_kana) },
      lines: lines.map((l) => ({ name: cellText(l.odd_name), quantity: Number(l.odd_quantity) })),
    };
    return { order, built: b2Row(input, sender, shipDate) };
  });
  return { sender, senderProblems: senderProblems(sender), orders, missing, rows, users: new Map(users.map((u) => [u.user_id, u.user_name])) };
}

/** What refuses an order beside its fields: not 出荷待ち. */
const statusProblem = (order: ResourceRow): B2Problem | undefined =>
  order.od_status === 'waitshipping' ? undefined : { field: '状態', message: `「${statusText(cellText(order.od_status))}」の受注です（出力できるのは「出荷待ち」だけです）。` };

/**
 * `export_b2_preview`: per order the key fields of its B2 row, the replaced characters and its problems; missing orders
 * answer a row of their own naming the id.
 */
export async function b2Preview(db: Db, ids: readonly number[], shipDate: string): Promise<B2Preview> {
  const read = await b2Rows(db, ids, shipDate, false);
  const cell = (cells: string[], column: number) => cells[column - 1];
  const rows: B2PreviewRow[] = read.rows.map(({ order, built }) => {
    const { cells } = built;
    const type = cell(cells, B2_COLUMN.type) === B2_TYPES.collect.code ? B2_TYPES.collect.text : B2_TYPES.prepaid.text;
    const slot = cell(cells, B2_COLUMN.timeSlot);
    const status = statusProblem(order);
    return {
      od_id: Number(order.od_id), od_number: cellText(order.od_number), od_status: cellText(order.od_status),
      exported_at: cellText(order.od_b2_exported_at), exported_by: read.users.get(Number(order.od_b2_exported_by)) ?? '',
      type, ship_date: cell(cells, B2_COLUMN.shipDate), delivery_date: cell(cells, B2_COLUMN.deliveryDate),
      time_slot: slot ? `${slot} ${B2_TIME_SLOTS.get(slot) ?? ''}` : '', name: cell(cells, B2_COLUMN.name),
      zipcode: cell(cells, B2_COLUMN.zipcode), tel: cell(cells, B2_COLUMN.tel), address: cell(cells, B2_COLUMN.address),
      building: cell(cells, B2_COLUMN.building), item: cell(cells, B2_COLUMN.item1), collect: cell(cells, B2_COLUMN.collect),
      replaced: built.replaced, problems: [...(status ? [status] : []), ...built.problems],
    };
  });
  for (const id of read.missing) {
    rows.push({
      od_id: id, od_number: '', od_status: '', exported_at: '', exported_by: '', type: '', ship_date: '', delivery_date: '', time_slot: '',
      name: '', zipcode: '', tel: '', address: '', building: '', item: '', collect: '', replaced: [],
      problems: [{ field: '受注', message: `受注 ID ${id} は見つからないか削除されています。` }],
    });
  }
  return { ship_date: shipDate, rows, sender_problems: read.senderProblems, ok: read.senderProblems.length === 0 && rows.every((r) => r.problems.length === 0) };
}

/**
 * `export_b2`: the file of the chosen orders, or a 400 naming every order (by number) and field that refuses it; the
 * orders marked exported and audited in the same transaction.
 * @example await exportB2(db, user.user_id, [12, 13], '2026-05-01', 'cp932')
 */
export async function exportB2(db: Db, userId: number, call: string, ids: readonly number[], shipDate: string, encoding: CsvEncoding): Promise<FileAnswer> {
  return db.transaction().execute(async (trx) => {
    const read = await b2Rows(trx, ids, shipDate, true);
    const wrong = read.orders.filter((o) => statusProblem(o));
    if (read.missing.length || wrong.length) {
      const parts = [
        ...(wrong.length ? [`出荷待ちではない受注があります: ${wrong.map((o) => `${cellText(o.od_number)}（${statusText(cellText(o.od_status))}）`).join('、')}`] : []),
        ...(read.missing.length ? [`見つからないか削除された受注があります: ID ${read.missing.join('、')}`] : []),
      ];
      throw badRequest(`${parts.join('。')}。何も出力していません。`, { orders: [...wrong.map((o) => cellText(o.od_number)), ...read.missing.map(String)] });
    }
    if (read.senderProblems.length) throw badRequest(`${read.senderProblems.map((p) => p.message).join('')}（/system/company で入力してください）`, { problems: read.senderProblems });
    const refused = read.rows.filter((r) => r.built.problems.length);
    if (refused.length) {
      const problems = refused.flatMap((r) => r.built.problems.map((p) => ({ od_number: cellText(r.order.od_number), ...p })));
      throw badRequest(`送り状にできない受注があります。${problems.map((p) => `${p.od_number} の${p.field}: ${p.message}`).join(' ')} 何も出力していません。`, { problems });
    }
    // The mark is no field of the order's form: its edit-conflict token stays.
    const at = nextStamp();
    await systemUpdate(trx, { userId, call }, orderResource, read.orders.map((o) => ({
      id: Number(o.od_id), before: o, set: { od_b2_exported_at: at, od_b2_exported_by: userId },
      changes: {
        od_b2_exported_at: [o.od_b2_exported_at ?? null, at],
        od_b2_exported_by: [o.od_b2_exported_by ?? null, userId],
        出荷予定日: [null, shipDate],
        文字コード: [null, encoding],
      },
    })), { modified: 'keep', at });
    const compact = shipDate.replace(/-/g, '');
    return csvFile({ name: `B2送り状_${compact}`, asciiName: `b2_${compact}`, records: [B2_COLUMNS, ...read.rows.map((r) => r.built.cells)], encoding });
  });
}
