/**
 * Reading and writing one record of any declared resource: detail, save (insert or update with
 * the edit-conflict check) and soft delete. Every write and its audit row share one transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import * as v from 'valibot';
import { MESSAGES } from '../../lib/protocol';
import { resourceSchema, writableFields } from '../../lib/resources/schema';
import { columnOf, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { diff, writeAudit, type Changes } from '../audit/audit-log';
import { hashPassword } from '../auth/password';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { answerRow, resourceColumns, searchText } from './columns';

/** Who writes, through which call. */
export interface WriteContext {
  db: Kysely<Database>;
  userId: number;
  call: string;
}

type Schema = ReturnType<typeof resourceSchema>;
const schemas = new WeakMap<ResourceDef, Schema>();
const schemaOf = (def: ResourceDef): Schema => {
  let schema = schemas.get(def);
  if (!schema) schemas.set(def, (schema = resourceSchema(def)));
  return schema;
};

/**
 * The detail of a record, or 404 when it is missing or deleted.
 * @example await findRecord(db, clientResource, 12) // { cl_id: 12, cl_co_name: '…', … }
 */
export async function findRecord(db: Kysely<Database>, def: ResourceDef, id: number): Promise<ResourceRow> {
  const { id: idColumn, detail } = resourceColumns(def);
  const row = await resourceView(db).selectFrom(def.table).select(detail).where(idColumn, '=', id).where('deleted', '=', 0).executeTakeFirst();
  if (!row) throw notFound();
  return answerRow(def, row);
}

/** Validates form values; a failure is 400 with the first message and every field's message. */
function validate(def: ResourceDef, input: Record<string, unknown>): Record<string, Cell | undefined> {
  const result = v.safeParse(schemaOf(def), input);
  if (result.success) return result.output as Record<string, Cell | undefined>;
  const fields: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    const name = typeof key === 'string' ? key : '_';
    fields[name] ??= issue.message;
  }
  throw badRequest(result.issues[0].message, { fields });
}

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

async function insertRecord(trx: Transaction<Database>, ctx: WriteContext, def: ResourceDef, columns: ResourceRow): Promise<ResourceRow> {
  const { id, search, detail } = resourceColumns(def);
  const stamp = nextStamp();
  const row = { ...columns, [search]: searchText(def, columns), created: stamp, modified: stamp, deleted: 0 };
  const saved = await resourceView(trx).insertInto(def.table).values(row).returning(detail).executeTakeFirstOrThrow();
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId: Number(saved[id]), changes: auditChanges(def, diff(undefined, columns)), at: stamp });
  return saved;
}

async function updateRecord(
  trx: Transaction<Database>, ctx: WriteContext, def: ResourceDef, recordId: number, modified: Cell | undefined, columns: ResourceRow,
): Promise<ResourceRow> {
  const { id, search, detail } = resourceColumns(def);
  const view = resourceView(trx);
  const current = await view.selectFrom(def.table).select([...detail, search, 'deleted']).where(id, '=', recordId).executeTakeFirst();
  if (!current || current.deleted !== 0) throw notFound();
  if (!modified || modified !== current.modified) throw new ApiError(409, MESSAGES.conflict);
  const stamp = nextStamp(String(current.modified));
  const set: ResourceRow = { ...columns, modified: stamp };
  const text = searchText(def, { ...current, ...columns });
  if (text !== current[search]) set[search] = text;
  const saved = await view
    .updateTable(def.table)
    .set(set)
    .where(id, '=', recordId)
    .where('modified', '=', current.modified)
    .returning(detail)
    .executeTakeFirst();
  if (!saved) throw new ApiError(409, MESSAGES.conflict);
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId, changes: auditChanges(def, diff(current, columns)), at: stamp });
  return saved;
}

/**
 * Saves form values (unprefixed names + the `modified` they were loaded with): inserts without
 * an id, updates only the sent fields with one. Answers the saved row.
 * @example await saveRecord(ctx, clientResource, undefined, { co_name: '株式会社ＡＢＣ商事', tel_1: '03-1234-5678', status: '1' })
 */
export async function saveRecord(ctx: WriteContext, def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>): Promise<ResourceRow> {
  const insert = recordId === undefined;
  const filled = insert ? { ...Object.fromEntries(writableFields(def).map((f) => [f.name, ''])), ...input } : input;
  const values = validate(def, filled);
  const columns = await columnValues(def, values, insert);
  try {
    const saved = await ctx.db
      .transaction()
      .execute((trx) => (insert ? insertRecord(trx, ctx, def, columns) : updateRecord(trx, ctx, def, recordId, values.modified, columns)));
    return answerRow(def, saved);
  } catch (error) {
    if (isForeignKeyError(error)) throw badRequest(MESSAGES.badReference);
    throw error;
  }
}

/**
 * Soft-deletes a record (deleted = 1, new modified), audit-logged; 404 when missing or deleted.
 * @example await deleteRecord(ctx, clientResource, 12)
 */
export async function deleteRecord(ctx: WriteContext, def: ResourceDef, recordId: number): Promise<void> {
  const { id } = resourceColumns(def);
  await ctx.db.transaction().execute(async (trx) => {
    const view = resourceView(trx);
    const current = await view.selectFrom(def.table).select([id, 'modified', 'deleted']).where(id, '=', recordId).executeTakeFirst();
    if (!current || current.deleted !== 0) throw notFound();
    const stamp = nextStamp(String(current.modified));
    await view.updateTable(def.table).set({ deleted: 1, modified: stamp }).where(id, '=', recordId).execute();
    await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId, changes: { deleted: [0, 1], modified: [current.modified, stamp] }, at: stamp });
  });
}
