/**
 * Child rows of a record (`ResourceDef.children`: an order's lines, a delivery round's stops), one way for
 * every resource that has them: the rows sent under `child.key` checked by their declared fields (the same
 * valibot field schema as a record's, then the row's `check`), references checked in one query per field for
 * a whole batch, stored replaced as a whole in the record's transaction with their position, worded in the
 * record's audit row, and listed by `child.call`. The resource's policy derives and checks what needs the
 * database (`prepareChildren`) and may word a row (`wordChildren`).
 */
import type { Kysely, Transaction } from 'kysely';
import { checkForm, childSchema } from '../../lib/resources/schema';
import { columnKind, initialValue, type ChildDef, type FieldDef } from '../../lib/resources/types';
import { chunksOf, insertMany } from '../db/bulk-write';
import { locking } from '../db/concurrency';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { refTarget, resourceColumns } from './columns';
import { cellText } from '../../lib/resources/checks';

/** The column of a child field, e.g. `odd_it_id`. */
export const childColumn = (child: ChildDef, name: string): string => `${child.prefix}${name}`;

/**
 * A refusal of one child row, naming it: 「3件目の明細: …」, the field mark keyed `{key}.{index}.{field}` (0-based).
 * @example childProblem(orderResource.children!, 2, 'quantity', '数量は整数で入力してください。')
 */
export const childProblem = (child: ChildDef, index: number, field: string, message: string): ApiError =>
  badRequest(`${index + 1}件目の${child.label}: ${message}`, { fields: { [`${child.key}.${index}.${field}`]: message } });


/** What a field's column holds when the row leaves it empty: text '', numbers NULL. */
const emptyCell = (field: FieldDef): Cell => (columnKind(field) === 'text' ? '' : null);

/**
 * The child rows a save sent (prefixed columns), checked by their declaration; undefined when none were sent
 * (the stored rows stay). A field left empty takes its declared `initial`.
 * @example checkChildren(orderResource, { lines: [{ it_id: '3', quantity: '２' }] }, '2026-11-25') // [{ odd_it_id: 3, odd_name: '', odd_quantity: 2, odd_price: null }]
 */
export function checkChildren(child: ChildDef | undefined, input: Readonly<Record<string, unknown>>, today: string, userId?: number): ResourceRow[] | undefined {
  if (!child) return undefined;
  const sent = input[child.key];
  if (sent === undefined) return undefined;
  if (!Array.isArray(sent)) throw badRequest(`${child.label}（${child.key}）は配列で送ってください。`);
  if (sent.length > child.max) throw badRequest(`${child.label}は${child.max}件までです。`);
  return sent.map((raw: unknown, index) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw childProblem(child, index, child.fields[0].name, `${child.label}の形式が正しくありません。`);
    const values: Record<string, unknown> = { ...raw };
    for (const field of child.fields) {
      const given = values[field.name];
      if (field.initial !== undefined && (given === undefined || given === null || cellText(given).trim() === '')) values[field.name] = initialValue(field, { userId, today });
    }
    const checked = checkForm(childSchema(child), values);
    if (!checked.ok) {
      const [field, message] = Object.entries(checked.fields)[0] ?? [child.fields[0].name, checked.message];
      throw childProblem(child, index, field, message);
    }
    return Object.fromEntries(child.fields.map((f) => [childColumn(child, f.name), checked.values[f.name] ?? emptyCell(f)]));
  });
}

/**
 * Every `ref` of the sent child rows of a batch names a live record: one query per field for all the rows.
 * `refuse(save, error)` names the save a refused row belongs to.
 */
export async function checkChildReferences(
  trx: Transaction<Database>, child: ChildDef | undefined, batch: readonly (readonly ResourceRow[] | undefined)[], refuse: (save: number, error: unknown) => Promise<void>,
): Promise<void> {
  if (!child) return;
  const view = resourceView(trx);
  for (const field of child.fields) {
    if (field.type !== 'ref') continue;
    const column = childColumn(child, field.name);
    const wanted = new Set<number>();
    for (const rows of batch) for (const row of rows ?? []) if (row[column] !== null && row[column] !== undefined) wanted.add(Number(row[column]));
    if (wanted.size === 0) continue;
    const target = refTarget(field);
    const { id } = resourceColumns(target);
    const found = new Set<number>();
    for (const chunk of chunksOf([...wanted], 1000)) {
      const rows = await locking(view, view.selectFrom(target.table).select(id).where(id, 'in', chunk).where('deleted', '=', 0), 'keyShare').execute();
      for (const row of rows) found.add(Number(row[id]));
    }
    for (const [save, rows] of batch.entries()) {
      for (const [index, row] of (rows ?? []).entries()) {
        const value = row[column];
        if (value === null || value === undefined || found.has(Number(value))) continue;
        await refuse(save, childProblem(child, index, field.name, `${field.label}が見つかりません（ID ${value}）。削除された可能性があります。選び直してください。`));
        break;
      }
    }
  }
}

/**
 * The stored child rows of records, by record id, each record's in their order.
 * @example (await storedChildren(db, orderResource.children!, [12])).get(12) // [{ odd_id: 1, odd_od_id: 12, odd_sort: 1, … }]
 */
export async function storedChildren(db: Kysely<Database>, child: ChildDef, parentIds: readonly number[]): Promise<Map<number, ResourceRow[]>> {
  const parent = childColumn(child, child.parentField);
  const byParent = new Map<number, ResourceRow[]>(parentIds.map((id) => [id, []]));
  const view = resourceView(db);
  for (const chunk of chunksOf([...new Set(parentIds)], 1000)) {
    const rows = await view.selectFrom(child.table).selectAll().where(parent, 'in', chunk)
      .orderBy(parent).orderBy(childColumn(child, child.sortField)).orderBy(childColumn(child, 'id')).execute();
    for (const row of rows) byParent.get(Number(row[parent]))?.push(row);
  }
  return byParent;
}

/** The rows to insert for a record's children: its id, their position (1, 2, …), `created` and `extra` (a job's id). */
export const childRowsOf = (child: ChildDef, parentId: number, rows: readonly ResourceRow[], created: string, extra: ResourceRow = {}): ResourceRow[] =>
  rows.map((row, i) => ({ ...row, [childColumn(child, child.parentField)]: parentId, [childColumn(child, child.sortField)]: i + 1, created, ...extra }));

/** Replaces a record's stored child rows (delete, then multi-row inserts), inside the save's transaction. */
export async function replaceChildren(trx: Transaction<Database>, child: ChildDef, parentId: number, rows: readonly ResourceRow[]): Promise<void> {
  await resourceView(trx).deleteFrom(child.table).where(childColumn(child, child.parentField), '=', parentId).execute();
  await insertMany(trx, child.table, rows);
}

/**
 * The audit wording of a row when the policy has none: each filled field's label and value.
 * @example defaultWording(child)({ x_name: '水', x_quantity: 2 }) // '品名 水 数量 2'
 */
export const defaultWording = (child: ChildDef) => (row: ResourceRow): string =>
  child.fields.flatMap((f) => {
    const value = row[childColumn(child, f.name)];
    return value === null || value === undefined || value === '' ? [] : [`${f.label} ${String(value)}`];
  }).join(' ');
