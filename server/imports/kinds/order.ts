/**
 * 受注取込 (lib/imports/columns/order.ts): each run of consecutive rows of one 受注キー becomes one order with those rows
 * as its lines, written through the one write path (`saveBatch` of the order resource: its policy derives the lines'
 * names, prices, tax class and rate, the fee line and the totals exactly as for a hand-entered order). The key is
 * stored on the order (`od_import_key`, unique among live orders: migration 0053): an order whose key is already there is
 * skipped, so a file imported twice creates nothing twice. Every problem is named by the row of the line it is on and
 * the column's label: the order's own values on its first row, a line's on that line's row. 出荷倉庫 is read by the
 * warehouse's code or name; without it the order save's own default applies (the customer's, else 受注設定's).
 */
import { checkLine } from '../../../lib/orders/lines';
import { orderResource } from '../../../lib/resources/order';
import { searchKey } from '../../../lib/text';
import { orderColumnLabel, type OrderImportField } from '../../../lib/imports/columns/order';
import type { ImportAction, ImportError } from '../../../lib/imports/kinds';
import { resourceView } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { saveBatch, type BulkEntry } from '../../resources';
import type { ChunkOutcome, ImportKindHandler, ImportRow, ImportRun } from '../kind';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/** The run's state: the keys of the orders read so far (a key met again later is an order cut in two). */
const KEYS_SEEN = 'order.keys';
const KEY_MAX = 50;

/** The order's own values, read from its first row (a later row leaves them empty or repeats them). */
const ORDER_FIELDS = ['cl_code', 'tel', 'date', 'delivery_date', 'time_slot', 'biko', 'warehouse'] as const satisfies readonly OrderImportField[];

/** The order form's fields (and its lines') → the import's column, to name a refusal of the write path. */
const FIELD_COLUMNS: Record<string, OrderImportField> = { date: 'date', delivery_date: 'delivery_date', ht_id: 'time_slot', biko: 'biko', sk_id: 'warehouse' };
const LINE_COLUMNS: Record<string, OrderImportField> = { it_id: 'it_code', name: 'it_code', quantity: 'quantity', price: 'price' };

interface Group {
  key: string;
  rows: ImportRow[];
  /** Index of its first row in the chunk. */
  start: number;
}

/** What a chunk's rows refer to, read once per chunk. */
interface Lookups {
  existing: Set<string>;
  clientsByCode: Map<string, number>;
  clientsByTel: Map<string, number[]>;
  items: Map<string, number>;
  slots: Map<string, string>;
  /** Live warehouses by code, then by name (`searchKey`): a name two share is null. */
  warehouses: Map<string, { id: number; active: boolean; name: string } | null>;
}

const telDigits = (value: string): string => searchKey(value).replace(/\D/g, '');
/** A time slot's label or code as compared (NFKC, spaces removed, 〜 and cp932's ～ alike). */
const slotKey = (value: string): string => value.normalize('NFKC').replace(/\s/g, '').replace(/[\u301C~]/g, '〜');

function groupsOf(rows: readonly ImportRow[]): Group[] {
  const groups: Group[] = [];
  for (const [i, row] of rows.entries()) {
    const key = (row.values.key ?? '').trim();
    const last = groups[groups.length - 1];
    if (last && last.key === key && key !== '') last.rows.push(row);
    else groups.push({ key, rows: [row], start: i });
  }
  return groups;
}

async function lookups(trx: Transaction<Database>, groups: readonly Group[]): Promise<Lookups> {
  const view = resourceView(trx);
  const keys = groups.map((g) => g.key).filter((k) => k !== '' && k.length <= KEY_MAX);
  const firsts = groups.map((g) => g.rows[0].values);
  const codes = [...new Set(firsts.map((v) => (v.cl_code ?? '').trim()).filter(Boolean))];
  const tels = [...new Set(firsts.filter((v) => !(v.cl_code ?? '').trim()).map((v) => telDigits(v.tel ?? '')).filter(Boolean))];
  const itemCodes = [...new Set(groups.flatMap((g) => g.rows.map((r) => (r.values.it_code ?? '').trim())).filter(Boolean))];
  const [existing, byCode, byTel, items, slots, warehouses] = await Promise.all([
    keys.length === 0 ? [] : view.selectFrom('orders').select('od_import_key').where('od_import_key', 'in', keys).where('deleted', '=', 0).execute(),
    codes.length === 0 ? [] : view.selectFrom('client').select(['cl_id', 'cl_code']).where('cl_code', 'in', codes).where('deleted', '=', 0).execute(),
    tels.length === 0 ? [] : view.selectFrom('client').select(['cl_id', 'cl_tel_1', 'cl_tel_2']).where('deleted', '=', 0)
      .where((eb) => eb.or([
        eb(sql`REPLACE(cl_tel_1, '-', '')`, 'in', tels),
        eb(sql`REPLACE(cl_tel_2, '-', '')`, 'in', tels),
      ])).execute(),
    itemCodes.length === 0 ? [] : view.selectFrom('item').select(['it_id', 'it_code']).where('it_code', 'in', itemCodes).where('deleted', '=', 0).execute(),
    trx.selectFrom('master_option').select(['mo_value', 'mo_text']).where('mo_table', '=', 'mt_delivery_time').where('deleted', '=', 0).execute(),
    firsts.some((v) => (v.warehouse ?? '').trim()) ? trx.selectFrom('warehouse').select(['sk_id', 'sk_code', 'sk_name', 'sk_active']).where('deleted', '=', 0).execute() : [],
  ]);
  const warehouseMap: Lookups['warehouses'] = new Map();
  for (const w of warehouses) {
    const entry = { id: Number(w.sk_id), active: Number(w.sk_active) !== 0, name: String(w.sk_name) };
    const name = `name:${searchKey(entry.name)}`;
    warehouseMap.set(name, warehouseMap.has(name) ? null : entry);
    warehouseMap.set(`code:${searchKey(String(w.sk_code))}`, entry);
  }
  const clientsByTel = new Map<string, number[]>();
  for (const client of byTel) {
    const id = Number(client.cl_id);
    const own = new Set([telDigits(String(client.cl_tel_1 ?? '')), telDigits(String(client.cl_tel_2 ?? ''))]);
    for (const tel of own) if (tel) clientsByTel.set(tel, [...(clientsByTel.get(tel) ?? []), id]);
  }
  const slotMap = new Map<string, string>();
  for (const slot of slots) {
    slotMap.set(slotKey(slot.mo_value), slot.mo_value);
    slotMap.set(slotKey(slot.mo_text), slot.mo_value);
  }
  return {
    existing: new Set(existing.map((o) => String(o.od_import_key))),
    clientsByCode: new Map(byCode.map((c) => [String(c.cl_code), Number(c.cl_id)])),
    clientsByTel,
    items: new Map(items.map((i) => [String(i.it_code), Number(i.it_id)])),
    slots: slotMap,
    warehouses: warehouseMap,
  };
}

/** One group checked and turned into an order's save, or its problems. */
function orderOf(group: Group, found: Lookups): { entry?: BulkEntry; errors: ImportError[]; clientColumn: OrderImportField } {
  const errors: ImportError[] = [];
  const problem = (row: ImportRow, field: OrderImportField | '', message: string) =>
    errors.push({ row: row.row, column: field === '' ? '' : orderColumnLabel(field), message });
  const first = group.rows[0];
  const head = first.values;
  const value = (field: OrderImportField): string => (head[field] ?? '').trim();
  const code = value('cl_code');
  const clientColumn: OrderImportField = code ? 'cl_code' : 'tel';
  // The order's values: on its first row; a later row may only repeat them.
  for (const row of group.rows.slice(1)) {
    for (const field of ORDER_FIELDS) {
      const other = (row.values[field] ?? '').trim();
      if (other !== '' && other !== value(field)) problem(row, field, `受注キー「${group.key}」の1行目（${first.row}行目）と違います。同じ受注の行は同じ値にするか空欄にしてください。`);
    }
  }
  let clientId: number | undefined;
  if (code) {
    clientId = found.clientsByCode.get(code);
    if (clientId === undefined) problem(first, 'cl_code', `顧客コード「${code}」の顧客が見つかりません。`);
  } else if (value('tel')) {
    const matches = found.clientsByTel.get(telDigits(value('tel'))) ?? [];
    if (matches.length === 0) problem(first, 'tel', `電話番号「${value('tel')}」の顧客が見つかりません。`);
    else if (matches.length > 1) problem(first, 'tel', `電話番号「${value('tel')}」の顧客が${matches.length}件あります。顧客コードで指定してください。`);
    else clientId = matches[0];
  } else {
    problem(first, 'cl_code', '顧客コードか電話番号を入力してください。');
  }
  let slot: string | undefined;
  if (value('time_slot')) {
    slot = found.slots.get(slotKey(value('time_slot')));
    if (slot === undefined) problem(first, 'time_slot', `配達時間帯「${value('time_slot')}」はありません（配達時間帯マスタの名前かコードで入力してください）。`);
  }
  let warehouseId: number | undefined;
  if (value('warehouse')) {
    const typed = value('warehouse');
    const warehouse = found.warehouses.get(`code:${searchKey(typed)}`) ?? found.warehouses.get(`name:${searchKey(typed)}`);
    if (warehouse === null) problem(first, 'warehouse', `出荷倉庫「${typed}」という名前の倉庫が複数あります。倉庫コードで入力してください。`);
    else if (warehouse === undefined) problem(first, 'warehouse', `出荷倉庫「${typed}」が見つかりません（倉庫の倉庫コードか倉庫名で入力してください）。`);
    else if (!warehouse.active) problem(first, 'warehouse', `出荷倉庫「${warehouse.name}」は使用停止です。使用中の倉庫を入力してください。`);
    else warehouseId = warehouse.id;
  }
  const lines = group.rows.map((row) => {
    const itemCode = (row.values.it_code ?? '').trim();
    const itemId = found.items.get(itemCode);
    if (!itemCode) problem(row, 'it_code', '商品コードを入力してください。');
    else if (itemId === undefined) problem(row, 'it_code', `商品コード「${itemCode}」の商品が見つかりません。`);
    const checked = checkLine({ quantity: row.values.quantity ?? '', price: row.values.price ?? '' });
    if (!checked.ok) {
      for (const [field, message] of Object.entries(checked.fields)) problem(row, field === 'price' ? 'price' : 'quantity', message);
      return undefined;
    }
    return { it_id: itemId, quantity: checked.quantity, ...(checked.price === null ? {} : { price: checked.price }) };
  });
  if (errors.length > 0 || clientId === undefined) return { errors, clientColumn };
  const values: Record<string, unknown> = { cl_id: clientId, lines };
  if (value('date')) values.date = value('date');
  if (value('delivery_date')) values.delivery_date = value('delivery_date');
  if (slot !== undefined) values.ht_id = slot;
  if (value('biko')) values.biko = value('biko');
  if (warehouseId !== undefined) values.sk_id = String(warehouseId);
  return { entry: { values, fixed: { od_import_key: group.key } }, errors, clientColumn };
}

/** A refusal of the write path as errors on the group's rows: a line's field on its row, the order's on the first. */
function refusalErrors(group: Group, clientColumn: OrderImportField, error: unknown): ImportError[] {
  if (!(error instanceof ApiError) || error.status >= 500) throw error;
  const first = group.rows[0].row;
  const fields = Object.entries((error.extra.fields ?? {}) as Record<string, string>);
  if (fields.length === 0) return [{ row: first, column: '', message: error.message }];
  return fields.map(([name, message]): ImportError => {
    const line = /^lines\.(\d+)\.(\w+)$/.exec(name);
    if (line) {
      const row = group.rows[Number(line[1])];
      const column = LINE_COLUMNS[line[2]];
      return { row: row?.row ?? first, column: row && column ? orderColumnLabel(column) : '', message };
    }
    const column = name === 'cl_id' ? clientColumn : FIELD_COLUMNS[name];
    return { row: first, column: column ? orderColumnLabel(column) : '', message };
  });
}

async function apply(run: ImportRun, rows: readonly ImportRow[]): Promise<ChunkOutcome> {
  const seen = (run.state.get(KEYS_SEEN) as Set<string> | undefined) ?? new Set<string>();
  run.state.set(KEYS_SEEN, seen);
  const groups = groupsOf(rows);
  const found = await lookups(run.trx, groups);
  // Rows that are not written (skipped, or refused) say `skip`; those of an order written say `insert`.
  const actions: ImportAction[] = rows.map(() => 'skip');
  const errors: ImportError[] = [];
  const saving: { group: Group; clientColumn: OrderImportField; entry: BulkEntry }[] = [];
  for (const group of groups) {
    const first = group.rows[0];
    if (group.key === '') {
      for (const row of group.rows) errors.push({ row: row.row, column: orderColumnLabel('key'), message: '受注キーを入力してください。' });
      continue;
    }
    if (group.key.length > KEY_MAX) {
      errors.push({ row: first.row, column: orderColumnLabel('key'), message: `受注キーは${KEY_MAX}文字以内で入力してください。` });
      continue;
    }
    if (seen.has(group.key)) {
      errors.push({ row: first.row, column: orderColumnLabel('key'), message: `受注キー「${group.key}」の行が離れています。同じ受注の行は続けて並べてください。` });
      continue;
    }
    seen.add(group.key);
    if (found.existing.has(group.key)) continue;
    const { entry, errors: problems, clientColumn } = orderOf(group, found);
    errors.push(...problems);
    if (entry) saving.push({ group, clientColumn, entry });
  }
  if (saving.length > 0) {
    const refused = new Set<number>();
    await saveBatch(run.trx, run.actor, orderResource, saving.map((s) => s.entry), {
      answer: false,
      refused: (i, error) => {
        refused.add(i);
        errors.push(...refusalErrors(saving[i].group, saving[i].clientColumn, error));
      },
    });
    for (const [i, { group }] of saving.entries()) {
      if (!refused.has(i)) for (let k = 0; k < group.rows.length; k++) actions[group.start + k] = 'insert';
    }
  }
  errors.sort((a, b) => a.row - b.row);
  return { actions, errors };
}

export const orderImport: ImportKindHandler = { apply };
