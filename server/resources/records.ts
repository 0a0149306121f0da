/**
 * Reading and writing one record of any declared resource: detail, save (insert or update with
 * the edit-conflict check) and soft delete. Every write and its audit row share one transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import { can } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import { checkValues, recordFieldKey, recordMessage, writableFields } from '../../lib/resources/schema';
import { allows, columnOf, currentField, initialValue, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { todayJst } from '../../lib/format';
import { diff, writeAudit, type Changes } from '../audit/audit-log';
import { hashPassword, verifyPassword } from '../auth/password';
import { isConcurrencyError, isUniqueError, locking, retryOnUnique } from '../db/concurrency';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { masterOffers } from '../master/plugin';
import { answerRow, answerSelection, refTarget, resourceColumns, searchText, titleSql } from './columns';
import { POLICIES } from './policies';
import { referencesTo, usedByRefusal } from './usage';
import { valuesOrThrow } from './validate';
import type { RowScope, SaveEvent, WriteActor } from './policy';

/** Who writes, through which call, on which database. */
export interface WriteContext extends WriteActor {
  db: Kysely<Database>;
}

/**
 * The detail of a record, or 404 when it is missing or deleted — or outside the reader's `scope`.
 * @example await findRecord(db, clientResource, 12) // { cl_id: 12, cl_co_name: '…', … }
 */
export async function findRecord(db: Kysely<Database>, def: ResourceDef, id: number, scope?: RowScope): Promise<ResourceRow> {
  const { id: idColumn } = resourceColumns(def);
  let query = resourceView(db)
    .selectFrom(def.table)
    .select(answerSelection(def, 'detail'))
    .where(`${def.table}.${idColumn}`, '=', id)
    .where(`${def.table}.deleted`, '=', 0);
  if (scope) query = query.where(scope);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return answerRow(def, row);
}

/** A 400 that names the field it is about (the form shows the message under it). */
const fieldProblem = (field: string, message: string): ApiError => badRequest(message, { fields: { [field]: message } });

/**
 * Every `ref` value written must name a live record of its resource, never the record itself. The target
 * stays locked until the write commits, so a concurrent delete of it (which locks it first, then counts the
 * records pointing at it) either waits and sees this one, or has deleted it and this save is refused.
 */
async function checkReferences(trx: Transaction<Database>, def: ResourceDef, columns: ResourceRow, current: ResourceRow | undefined): Promise<void> {
  const view = resourceView(trx);
  for (const [column, field] of resourceColumns(def).refs) {
    const value = columns[column];
    if (value === undefined || value === null || (current && current[column] === value)) continue;
    const target = refTarget(field);
    const { id } = resourceColumns(target);
    const found = await locking(view, view.selectFrom(target.table).select(id).where(id, '=', value).where('deleted', '=', 0), 'keyShare').executeTakeFirst();
    if (!found) throw fieldProblem(field.name, `${field.label}が見つかりません（ID ${value}）。選び直してください。`);
    if (target === def && current && current[id] === value) throw fieldProblem(field.name, `${field.label}にこの${def.label}自身は選べません。`);
  }
}

/**
 * A changed `ref` drawn as a select must be one of its master's choices (a driver among the staff who
 * deliver, an agency among the customers marked 代理店); checked after the resource's own rules, whose
 * messages say more (「…はリターナブルボトルの商品ではありません」).
 */
async function checkOffered(trx: Transaction<Database>, def: ResourceDef, columns: ResourceRow, current: ResourceRow | undefined): Promise<void> {
  for (const [column, field] of resourceColumns(def).refs) {
    const value = columns[column];
    if (!field.master || value === undefined || value === null || (current && current[column] === value)) continue;
    if (!(await masterOffers(trx, field.master, value))) throw fieldProblem(field.name, `${field.label}に選べない${refTarget(field).label}です。選択肢から選び直してください。`);
  }
}

/**
 * Unique fields and unique field sets among the live records (the record itself excepted). A partial
 * unique index (`WHERE deleted = 0`) stands behind every one: when two saves pass this check at once,
 * the index refuses the second and the save runs again (`retryOnUnique`), so this check answers it.
 */
async function checkUnique(trx: Transaction<Database>, def: ResourceDef, recordId: number | undefined, row: ResourceRow): Promise<void> {
  const view = resourceView(trx);
  const { id } = resourceColumns(def);
  const clash = async (names: readonly string[]): Promise<boolean> => {
    let query = view.selectFrom(def.table).select(id).where('deleted', '=', 0);
    for (const name of names) {
      const value = row[columnOf(def, name)];
      if (value === undefined || value === null || value === '') return false;
      query = query.where(columnOf(def, name), '=', value);
    }
    if (recordId !== undefined) query = query.where(id, '<>', recordId);
    return Boolean(await query.limit(1).executeTakeFirst());
  };
  for (const field of def.fields) {
    if (field.unique && (await clash([field.name]))) {
      throw fieldProblem(field.name, `${field.label}「${String(row[columnOf(def, field.name)])}」は既に登録されています。`);
    }
  }
  for (const rule of def.uniqueTogether ?? []) {
    if (await clash(rule.fields)) throw fieldProblem(rule.fields[0], rule.message);
  }
}

/** Validates form values; a failure is 400 with the first message and every field's message. */
const validate = (def: ResourceDef, input: Record<string, unknown>): Record<string, Cell | undefined> => valuesOrThrow(checkValues(def, input));

/** Form values → column values of the fields that were sent; secrets hashed, '' secrets kept on update. */
async function columnValues(def: ResourceDef, values: Record<string, Cell | undefined>, insert: boolean): Promise<ResourceRow> {
  const out: ResourceRow = {};
  for (const field of writableFields(def)) {
    const value = values[field.name];
    if (value === undefined) continue;
    if (field.type === 'secret') {
      if (value === '' || value === null) {
        if (insert) out[columnOf(def, field.name)] = '';
        continue;
      }
      out[columnOf(def, field.name)] = await hashPassword(String(value));
      continue;
    }
    out[columnOf(def, field.name)] = value;
  }
  return out;
}

/** What the audit log keeps of a value: secrets and pictures are not copied into it. */
function auditValue(field: FieldDef | undefined, value: Cell): Cell {
  if (!field || value === null || value === '') return value;
  if (field.type === 'secret') return '********';
  if (field.type === 'image') return `[画像 ${String(value).length}文字]`;
  return value;
}

function auditChanges(def: ResourceDef, changes: Changes): Changes {
  const { field } = resourceColumns(def);
  const out: Changes = {};
  for (const [column, [before, after]] of Object.entries(changes)) {
    out[column] = [auditValue(field.get(column), before), auditValue(field.get(column), after)];
  }
  return out;
}

const isForeignKeyError = (error: unknown): boolean => {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/** The save is the session user's own record of a resource with an owner declaration. */
const isOwnRecord = (ctx: WriteContext, def: ResourceDef, recordId: number | undefined): boolean =>
  Boolean(def.owner) && ctx.user !== undefined && recordId !== undefined && ctx.user.user_id === recordId;

/**
 * An owner saving their own record without the area's write permission changes only the
 * declared owner fields (others may be sent unchanged, as the form sends them).
 */
function checkOwnerFields(def: ResourceDef, current: ResourceRow, columns: ResourceRow): void {
  const { field } = resourceColumns(def);
  const allowed = new Set(def.owner?.fields ?? []);
  for (const [column, value] of Object.entries(columns)) {
    const f = field.get(column);
    if (f && !allowed.has(f.name) && value !== current[column]) throw new ApiError(403, `${f.label}を変更する権限がありません。`);
  }
}

/** A confirmed secret (a password) changed on one's own record needs its current value, checked against the stored hash. */
async function checkConfirmed(def: ResourceDef, current: ResourceRow, columns: ResourceRow, input: Readonly<Record<string, unknown>>): Promise<void> {
  for (const name of def.owner?.confirm ?? []) {
    const field = def.fields.find((f) => f.name === name);
    if (!field || columns[columnOf(def, name)] === undefined) continue;
    const confirm = currentField(field);
    const given = input[confirm.name];
    if (typeof given !== 'string' || given === '') throw fieldProblem(confirm.name, `${confirm.label}を入力してください。`);
    if (!(await verifyPassword(given, String(current[columnOf(def, name)] ?? '')))) throw fieldProblem(confirm.name, `${confirm.label}が正しくありません。`);
  }
}

/** Generic checks, then the resource's own rules; answers the columns to write. */
async function prepareWrite(
  trx: Transaction<Database>, ctx: WriteContext, def: ResourceDef, recordId: number | undefined, current: ResourceRow | undefined, columns: ResourceRow, input: Readonly<Record<string, unknown>>,
): Promise<ResourceRow> {
  if (current && isOwnRecord(ctx, def, recordId)) {
    if (!can(ctx.user!.areas, def.area, 'write')) checkOwnerFields(def, current, columns);
    await checkConfirmed(def, current, columns, input);
  }
  await checkReferences(trx, def, columns, current);
  await checkUnique(trx, def, recordId, { ...current, ...columns });
  const derived = await POLICIES[def.name]?.beforeSave?.({ trx, actor: ctx, def, id: recordId, current, columns, input });
  await checkOffered(trx, def, columns, current);
  return derived ? { ...columns, ...derived } : columns;
}

/**
 * The saved record, after the resource's follow-up writes. A follow-up may change the record itself
 * (a ledger's running balance), so the answer is read again after it.
 */
async function afterSave(trx: Transaction<Database>, event: SaveEvent, recordId: number): Promise<ResourceRow> {
  const saved = await findRecord(trx, event.def, recordId);
  const policy = POLICIES[event.def.name];
  if (!policy?.afterSave) return saved;
  await policy.afterSave({ ...event, saved });
  return findRecord(trx, event.def, recordId);
}

async function insertRecord(trx: Transaction<Database>, ctx: WriteContext, def: ResourceDef, values: ResourceRow, input: Readonly<Record<string, unknown>>): Promise<ResourceRow> {
  const { id, search } = resourceColumns(def);
  const columns = await prepareWrite(trx, ctx, def, undefined, undefined, values, input);
  const stamp = nextStamp();
  const row = { ...columns, [search]: searchText(def, columns), created: stamp, modified: stamp, deleted: 0 };
  const inserted = await resourceView(trx).insertInto(def.table).values(row).returning(id).executeTakeFirstOrThrow();
  const recordId = Number(inserted[id]);
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId, changes: auditChanges(def, diff(undefined, columns)), at: stamp });
  return afterSave(trx, { trx, actor: ctx, def, id: undefined, current: undefined, columns, input }, recordId);
}

async function updateRecord(
  trx: Transaction<Database>, ctx: WriteContext, def: ResourceDef, recordId: number, modified: Cell | undefined, values: ResourceRow, input: Readonly<Record<string, unknown>>,
): Promise<ResourceRow> {
  const { id, search, detail } = resourceColumns(def);
  const view = resourceView(trx);
  const current = await view.selectFrom(def.table).select([...detail, search, 'deleted']).where(id, '=', recordId).executeTakeFirst();
  if (!current || current.deleted !== 0) throw notFound();
  if (!modified || modified !== current.modified) throw new ApiError(409, MESSAGES.conflict);
  const columns = await prepareWrite(trx, ctx, def, recordId, current, values, input);
  const stamp = nextStamp(String(current.modified));
  const set: ResourceRow = { ...columns, modified: stamp };
  const text = searchText(def, { ...current, ...columns });
  if (text !== current[search]) set[search] = text;
  const updated = await view.updateTable(def.table).set(set).where(id, '=', recordId).where('modified', '=', current.modified).returning(id).executeTakeFirst();
  if (!updated) throw new ApiError(409, MESSAGES.conflict);
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId, changes: auditChanges(def, diff(current, columns)), at: stamp });
  return afterSave(trx, { trx, actor: ctx, def, id: recordId, current, columns, input }, recordId);
}

/** One save checked and mapped, ready for its transaction. */
export interface PreparedSave {
  recordId: number | undefined;
  /** The `modified` the record was loaded with (updates). */
  modified: Cell | undefined;
  columns: ResourceRow;
  /** The save's values as sent (values that are not fields, e.g. `current_password`). */
  input: Readonly<Record<string, unknown>>;
}

/**
 * What the resource allows, the validation and the column values of one save (before its transaction).
 * A new record's missing fields take their declared `initial` (`me` = `actorId`), as the new form would send them.
 */
export async function prepareSave(def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>, actorId?: number): Promise<PreparedSave> {
  const insert = recordId === undefined;
  if (!allows(def, insert ? 'create' : 'edit')) throw new ApiError(403, insert ? `${def.label}は新しく登録できません。` : `${def.label}は変更できません。`);
  const today = todayJst();
  const filled = insert ? { ...Object.fromEntries(writableFields(def).map((f) => [f.name, initialValue(f, { userId: actorId, today })])), ...input } : input;
  const values = validate(def, filled);
  return { recordId, modified: values.modified, columns: await columnValues(def, values, insert), input };
}

const writeSave = (trx: Transaction<Database>, ctx: WriteContext, def: ResourceDef, save: PreparedSave): Promise<ResourceRow> =>
  save.recordId === undefined
    ? insertRecord(trx, ctx, def, save.columns, save.input)
    : updateRecord(trx, ctx, def, save.recordId, save.modified, save.columns, save.input);

/** A database refusal that a check raced past, as the answer it means. */
export function refusalOf(error: unknown): unknown {
  if (isForeignKeyError(error)) return badRequest(MESSAGES.badReference);
  if (isUniqueError(error)) return new ApiError(409, MESSAGES.duplicate);
  if (isConcurrencyError(error)) return new ApiError(409, MESSAGES.conflict);
  return error;
}

/**
 * Saves form values (unprefixed names + the `modified` they were loaded with): inserts without
 * an id, updates only the sent fields with one. Answers the saved row.
 * @example await saveRecord(ctx, clientResource, undefined, { co_name: '株式会社ＡＢＣ商事', tel_1: '03-1234-5678', status: '1' })
 */
export async function saveRecord(ctx: WriteContext, def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>): Promise<ResourceRow> {
  const save = await prepareSave(def, recordId, input, ctx.userId);
  try {
    return answerRow(def, await retryOnUnique(ctx.db, (trx) => writeSave(trx, ctx, def, save)));
  } catch (error) {
    throw refusalOf(error);
  }
}

/**
 * Saves a record of a resource inside a transaction that is already running (a policy's follow-up
 * write to another resource, e.g. a delivery round's bottle movements), exactly like `saveRecord`:
 * validation, references, uniqueness, edit conflicts, its policy and audit rows. Answers the stored row.
 * @example await saveInTransaction(trx, actor, bottleResource, undefined, { cl_id: 12, it_id: 3, move_date: '2026-05-01', delivered: 2 })
 */
export async function saveInTransaction(
  trx: Transaction<Database>, actor: WriteActor, def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>,
): Promise<ResourceRow> {
  return answerRow(def, await writeSave(trx, { ...actor, db: trx }, def, await prepareSave(def, recordId, input, actor.userId)));
}

/** One record of a bulk save: its id (none for a new record) and its form values (with `modified`). */
export interface BulkEntry {
  id?: number;
  values: Record<string, unknown>;
}

/** The name of a record by its title fields ('' when it has none). */
async function recordTitle(db: Kysely<Database>, def: ResourceDef, recordId: number): Promise<string> {
  const { id } = resourceColumns(def);
  const row = await resourceView(db).selectFrom(`${def.table} as t`).select(titleSql(def, 't').as('title')).where(`t.${id}`, '=', recordId).executeTakeFirst();
  return String(row?.title ?? '');
}

/**
 * A refusal of one record among several, naming it: a 400's message starts with the record's title
 * and its field marks are keyed `{id}.{field}` (`new{n}` for the n-th new record); every refusal
 * carries the record's `id`.
 */
async function aboutRecord(db: Kysely<Database>, def: ResourceDef, entry: BulkEntry, index: number, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const key = entry.id ?? `new${index + 1}`;
  if (error.status !== 400) return new ApiError(error.status, error.message, { ...error.extra, id: key });
  const title = entry.id === undefined ? `${index + 1}件目` : await recordTitle(db, def, entry.id);
  const fields = error.extra.fields as Record<string, string> | undefined;
  const keyed = fields && Object.fromEntries(Object.entries(fields).map(([name, message]) => [recordFieldKey(key, name), message]));
  return badRequest(recordMessage(title, error.message), { ...error.extra, id: key, ...(keyed ? { fields: keyed } : {}) });
}

/**
 * Saves several records of a resource in ONE transaction, each exactly like `saveRecord`
 * (validation, references, uniqueness, edit conflicts, policies, audit rows): the first refusal
 * refuses them all and names its record (see `aboutRecord`). Answers the saved rows in order.
 * @example await saveRecords(ctx, deliveryFeeResource, [{ id: 1, values: { fee: 900, modified } }])
 */
export async function saveRecords(ctx: WriteContext, def: ResourceDef, entries: readonly BulkEntry[]): Promise<ResourceRow[]> {
  const saves: PreparedSave[] = [];
  for (const [i, entry] of entries.entries()) {
    try {
      saves.push(await prepareSave(def, entry.id, entry.values, ctx.userId));
    } catch (error) {
      throw await aboutRecord(ctx.db, def, entry, i, error);
    }
  }
  try {
    const rows = await retryOnUnique(ctx.db, async (trx) => {
      const saved: ResourceRow[] = [];
      for (const [i, save] of saves.entries()) {
        try {
          saved.push(await writeSave(trx, ctx, def, save));
        } catch (error) {
          throw await aboutRecord(trx, def, entries[i], i, error);
        }
      }
      return saved;
    });
    return rows.map((row) => answerRow(def, row));
  } catch (error) {
    throw refusalOf(error);
  }
}

/**
 * Soft-deletes a record (deleted = 1, new modified), audit-logged; 404 when missing or deleted.
 * @example await deleteRecord(ctx, clientResource, 12)
 */
export async function deleteRecord(ctx: WriteContext, def: ResourceDef, recordId: number): Promise<void> {
  if (!allows(def, 'delete')) throw new ApiError(403, `${def.label}は削除できません。`);
  try {
    await ctx.db.transaction().execute((trx) => deleteInTransaction(trx, ctx, def, recordId));
  } catch (error) {
    throw refusalOf(error);
  }
}

/**
 * Soft-deletes a record inside a running transaction, exactly like `deleteRecord` (a policy's follow-up delete).
 * The record is locked before anything is checked: a concurrent delete waits and then finds it deleted
 * (404, nothing written twice), and a save pointing at it (`checkReferences`) is counted or refused.
 */
export async function deleteInTransaction(trx: Transaction<Database>, ctx: WriteActor, def: ResourceDef, recordId: number): Promise<void> {
  const { id } = resourceColumns(def);
  const view = resourceView(trx);
  const current = await locking(view, view.selectFrom(def.table).select([...resourceColumns(def).detail, 'deleted']).where(id, '=', recordId), 'update').executeTakeFirst();
  if (!current || current.deleted !== 0) throw notFound();
  const refusal = usedByRefusal(`この${def.label}`, await referencesTo(trx, def, recordId), '先にそちらを削除するか、付け替えてください。');
  if (refusal) throw refusal;
  const policy = POLICIES[def.name];
  const event = { trx, actor: ctx, def, id: recordId, current };
  await policy?.beforeDelete?.(event);
  const stamp = nextStamp(String(current.modified));
  await view.updateTable(def.table).set({ deleted: 1, modified: stamp }).where(id, '=', recordId).execute();
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId, changes: { deleted: [0, 1], modified: [current.modified, stamp] }, at: stamp });
  await policy?.afterDelete?.(event);
}
