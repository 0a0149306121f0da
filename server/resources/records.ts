/**
 * Reading and writing records of any declared resource: detail, save and soft delete. ONE write path
 * (`writeSaves`) for a single save, a bulk save, a policy's follow-up write (`Writer`), a regular-delivery run
 * and the seed: a batch of one or of thirty thousand goes through the same checks, the same policy hooks,
 * the same child rows and audit rows. Every write and its audit rows share one transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import { can } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import { checkValues, recordFieldKey, recordMessage, writableFields } from '../../lib/resources/schema';
import { allows, columnOf, currentField, initialValue, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { diff, preparedAudits, writeAudit, type AuditEntry, type Changes } from '../audit/audit-log';
import { chunksOf, preparedInsert, reserveIds, rowsByIds, writeQueue } from '../db/bulk-write';
import { isConcurrencyError, isUniqueError, locking, retryOnUnique } from '../db/concurrency';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { japanToday, nextStamp } from '../http/clock';
import { checkChildReferences, checkChildren, childRowsOf, defaultWording, replaceChildren, storedChildren } from './children';
import { answerRow, answerSelection, refTarget, resourceColumns, searchText, titleSql } from './columns';
import { policyOf, resourceService } from './registry';
import { jobColumn } from './system-write';
import { referencesTo, usedByRefusal } from './usage';
import { valuesOrThrow } from './validate';
import type { RowScope, SaveEvent, WriteActor, WriteContext, Writer } from './policy';

export type { WriteContext } from './policy';


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
 * Names a refusal of the n-th save of a batch (a bulk save's row, a generated order's customer) and throws it — or,
 * when the batch collects its refusals (`BatchOptions.refused`, an import's dry run), reports it and leaves that save out.
 */
type Refuse = (index: number, error: unknown) => Promise<void>;

/** One save of a batch on its way through the pipeline. */
interface Pending extends PreparedSave {
  current: ResourceRow | undefined;
}

/**
 * Every `ref` value written must name a live record of its resource, never the record itself: one query per
 * field for the whole batch. The targets stay locked until the write commits, so a concurrent delete of one
 * (which locks it first, then counts the records pointing at it) either waits and sees this write, or has
 * deleted it and this save is refused.
 */
async function checkReferences(trx: Transaction<Database>, def: ResourceDef, saves: readonly Pending[], refuse: Refuse): Promise<void> {
  const view = resourceView(trx);
  for (const [column, field] of resourceColumns(def).refs) {
    const wanted = new Map<number, number>();
    for (const [i, save] of saves.entries()) {
      const value = save.columns[column];
      if (value === undefined || value === null || (save.current && save.current[column] === value)) continue;
      if (save.recordId !== undefined && refTarget(field) === def && Number(value) === save.recordId) {
        await refuse(i, fieldProblem(field.name, `${field.label}にこの${def.label}自身は選べません。`));
      }
      if (!wanted.has(Number(value))) wanted.set(Number(value), i);
    }
    if (wanted.size === 0) continue;
    const target = refTarget(field);
    const { id } = resourceColumns(target);
    const found = new Set<number>();
    for (const chunk of chunksOf([...wanted.keys()], 1000)) {
      const rows = await locking(view, view.selectFrom(target.table).select(id).where(id, 'in', chunk).where('deleted', '=', 0), 'keyShare').execute();
      for (const row of rows) found.add(Number(row[id]));
    }
    for (const [value, i] of wanted) {
      if (!found.has(value)) await refuse(i, fieldProblem(field.name, `${field.label}が見つかりません（ID ${value}）。選び直してください。`));
    }
  }
}

/**
 * A changed `ref` drawn as a select must be one of its master's choices (a driver among the staff who
 * deliver, an agency among the customers marked 代理店); checked after the resource's own rules, whose
 * messages say more (「…はリターナブルボトルの商品ではありません」). Each value of the batch is asked once.
 */
async function checkOffered(trx: Transaction<Database>, def: ResourceDef, saves: readonly Pending[], refuse: Refuse): Promise<void> {
  for (const [column, field] of resourceColumns(def).refs) {
    if (!field.master) continue;
    const offered = new Map<Cell, boolean>();
    for (const [i, save] of saves.entries()) {
      const value = save.columns[column];
      if (value === undefined || value === null || (save.current && save.current[column] === value)) continue;
      if (!offered.has(value)) offered.set(value, await resourceService('masterOffers')(trx, field.master, value));
      if (!offered.get(value)) await refuse(i, fieldProblem(field.name, `${field.label}に選べない${refTarget(field).label}です。選択肢から選び直してください。`));
    }
  }
}

/**
 * Unique fields and unique field sets among the live records (each record itself excepted) and among the
 * batch's own rows: one query per unique field for the batch. A partial unique index (`WHERE deleted = 0`)
 * stands behind every one: when two saves pass this check at once, the index refuses the second and the save
 * runs again (`retryOnUnique`), so this check answers it.
 */
async function checkUnique(trx: Transaction<Database>, def: ResourceDef, saves: readonly Pending[], refuse: Refuse): Promise<void> {
  const view = resourceView(trx);
  const { id } = resourceColumns(def);
  const rows = saves.map((save) => ({ ...save.current, ...save.columns }));
  const keyOf = (row: ResourceRow, names: readonly string[]): string | undefined => {
    const values = names.map((name) => row[columnOf(def, name)]);
    return values.some((value) => value === undefined || value === null || value === '') ? undefined : JSON.stringify(values);
  };
  const sets = [
    ...def.fields.filter((f) => f.unique).map((f) => ({ names: [f.name], problem: (row: ResourceRow) => fieldProblem(f.name, `${f.label}「${String(row[columnOf(def, f.name)])}」は既に登録されています。`) })),
    ...(def.uniqueTogether ?? []).map((rule) => ({ names: rule.fields, problem: () => fieldProblem(rule.fields[0], rule.message) })),
  ];
  for (const { names, problem } of sets) {
    const byKey = new Map<string, number>();
    for (const [i, row] of rows.entries()) {
      const key = keyOf(row, names);
      if (key === undefined) continue;
      if (byKey.has(key)) await refuse(i, problem(row));
      byKey.set(key, i);
    }
    if (byKey.size === 0) continue;
    const first = columnOf(def, names[0]);
    for (const chunk of chunksOf([...new Set(rows.map((row) => row[first]).filter((value) => value !== undefined && value !== null && value !== ''))], 1000)) {
      const stored = await view.selectFrom(def.table).select([id, ...names.map((name) => columnOf(def, name))]).where('deleted', '=', 0).where(first, 'in', chunk).execute();
      for (const row of stored) {
        const i = byKey.get(keyOf(row, names) ?? '');
        if (i !== undefined && saves[i].recordId !== Number(row[id])) await refuse(i, problem(rows[i]));
      }
    }
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
      out[columnOf(def, field.name)] = await resourceService('hashPassword')(String(value));
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
  if (!def.fields.some((f) => f.type === 'secret' || f.type === 'image')) return changes;
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
const isOwnRecord = (ctx: WriteActor, def: ResourceDef, recordId: number | undefined): boolean =>
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
    if (!(await resourceService('verifyPassword')(given, String(current[columnOf(def, name)] ?? '')))) throw fieldProblem(confirm.name, `${confirm.label}が正しくありません。`);
  }
}

/** The pipeline inside a running transaction, as a policy's event hands it over (policy.ts `Writer`). */
const writerOf = (trx: Transaction<Database>, actor: WriteActor): Writer => ({
  save: (def, recordId, input, fixed) => saveInTransaction(trx, actor, def, recordId, input, fixed),
  delete: (def, recordId) => deleteInTransaction(trx, actor, def, recordId),
});

/** Saves built into rows and written per chunk (the database writes one while the next is built): config `batchChunk`. */
const SAVES_PER_CHUNK = 2000;

/** How a batch is written: `name` turns a refusal of its n-th save into the answer; `progress` hears of each chunk written. */
export interface BatchOptions {
  /** Saves per chunk (default 2,000: config `batchChunk`). */
  chunk?: number;
  name?: (index: number, error: unknown) => unknown;
  progress?: (done: number, total: number) => Promise<void>;
  /** Answer the saved records (default); false: only their ids (a generation run's thousands). */
  answer?: boolean;
  /**
   * Collect the refusals instead of throwing the first (an import's dry run, which must name every row's problem): each
   * refusal of the n-th save (named by `name`) is reported here and that save is left out of the rest of the batch; the
   * others are written. Its id in the answer is 0. A save refused by its policy's `afterSave` is already written, so a
   * caller that got any refusal must roll its transaction back (a dry run always does).
   */
  refused?: (index: number, error: unknown) => void;
  /**
   * The caller's own writes that belong to the batch's transaction (a generation's customers moving to their next
   * delivery date): run by the batch's write queue before its first rows — after the batch's checks and its policy's
   * `prepareBatch` have read what they need, while the rules build the rows. A refusal drops those not yet run.
   */
  alongside?: readonly (() => Promise<unknown>)[];
}

/**
 * THE write path: saves of one resource (inserts and updates) in a running transaction. Generic checks for
 * the whole batch (conflicts, the owner's fields, references and uniqueness in one query per field, the
 * child rows' references), the policy's `prepareBatch` once, then per save its `prepareChildren` and
 * `beforeSave`, the masters' choices, and the writes: new records with reserved ids in multi-row inserts
 * (their child rows and audit rows too), updates one by one, child rows replaced, the job's id stamped,
 * then each record's `afterSave`.
 */
async function writeSaves(trx: Transaction<Database>, actor: WriteActor, def: ResourceDef, prepared: readonly PreparedSave[], options: BatchOptions = {}): Promise<{ ids: number[]; rows: ResourceRow[] }> {
  const left = new Set<number>();
  const refuse: Refuse = async (index, error) => {
    const named = options.name ? await options.name(index, error) : error;
    if (!options.refused) throw named;
    left.add(index);
    options.refused(index, named);
  };
  const live = (i: number): boolean => !left.has(i);
  const view = resourceView(trx);
  const { id: idColumn, search, detail } = resourceColumns(def);
  const policy = policyOf(def.name);
  const writer = writerOf(trx, actor);
  const child = def.children;

  const updating = prepared.flatMap((save) => (save.recordId === undefined ? [] : [save.recordId]));
  const stored = await rowsByIds(trx, def.table, idColumn, updating, [...new Set([...detail, search, 'deleted'])]);
  const saves: Pending[] = [];
  for (const [i, save] of prepared.entries()) {
    const current = save.recordId === undefined ? undefined : stored.get(save.recordId);
    if (save.recordId !== undefined) {
      if (!current || current.deleted !== 0) await refuse(i, notFound());
      else if (!save.modified || save.modified !== current.modified) await refuse(i, new ApiError(409, MESSAGES.conflict));
      if (live(i) && isOwnRecord(actor, def, save.recordId)) {
        try {
          if (!can(actor.user!.areas, def.area, 'write')) checkOwnerFields(def, current!, save.columns);
          await checkConfirmed(def, current!, save.columns, save.input);
        } catch (error) {
          await refuse(i, error);
        }
      }
    }
    saves.push({ ...save, current });
  }
  await checkReferences(trx, def, saves, refuse);
  await checkUnique(trx, def, saves, refuse);
  await checkChildReferences(trx, child, saves.map((s) => s.children), refuse);

  const batch = await policy?.prepareBatch?.({ trx, actor, def, saves: saves.map((s) => ({ id: s.recordId, current: s.current, columns: s.columns, children: s.children, fixed: s.fixed })) });
  const newIds = await reserveIds(trx, def.table, idColumn, saves.filter((s) => s.recordId === undefined).length);
  const ids = new Array<number>(saves.length);
  const events: SaveEvent[] = [];
  const replaced = new Map<number, ResourceRow[]>();
  /** The updates (by save), with their audit changes: written one by one after the inserts. */
  const updates = new Map<number, Changes>();
  // A chunk at a time: the resource's rules, then its new records' rows queued for the database, which writes
  // them while the next chunk is built.
  const queue = writeQueue();
  try {
    for (const write of options.alongside ?? []) queue.add(write);
    const stamp = nextStamp();
    let inserted = 0;
    const chunkSize = options.chunk ?? SAVES_PER_CHUNK;
    for (const [c, chunk] of chunksOf([...saves.keys()], chunkSize).entries()) {
      for (const i of chunk) {
        if (!live(i)) continue;
        const save = saves[i];
        const event: SaveEvent = { trx, actor, writer, def, id: save.recordId, current: save.current, columns: save.columns, input: save.input, children: save.children, fixed: save.fixed, batch };
        try {
          if (event.children && policy?.prepareChildren) event.children = await policy.prepareChildren({ ...event, children: event.children });
          const derived = await policy?.beforeSave?.(event);
          if (derived) event.columns = { ...event.columns, ...derived };
        } catch (error) {
          await refuse(i, error);
        }
        if (!live(i)) continue;
        save.columns = event.columns;
        events[i] = event;
      }
      const checked = chunk.filter(live);
      await checkOffered(trx, def, checked.map((i) => saves[i]), (k, error) => refuse(checked[k], error));

      // The child rows before the save, and their wording with the new ones (read once for the chunk).
      const writing = chunk.filter(live);
      const replacing = child ? await storedChildren(trx, child, writing.flatMap((i) => (events[i].id !== undefined && events[i].children ? [events[i].id] : []))) : new Map<number, ResourceRow[]>();
      for (const [recordId, rows] of replacing) replaced.set(recordId, rows);
      const word = child ? await (policy?.wordChildren?.(trx, [...[...replacing.values()].flat(), ...writing.flatMap((i) => events[i].children ?? [])]) ?? defaultWording(child)) : undefined;
      const withChildren = (changes: Changes, before: readonly ResourceRow[], after: readonly ResourceRow[] | undefined): Changes => {
        if (!child || !after) return changes;
        const [was, now] = [before.map(word!).join('\n'), after.map(word!).join('\n')];
        return was === now ? changes : { ...changes, [child.key]: [was, now] };
      };

      const rows: ResourceRow[] = [];
      const childRows: ResourceRow[] = [];
      const audits: AuditEntry[] = [];
      for (const i of writing) {
        const event = events[i];
        event.columns = { ...event.columns, ...event.fixed };
        if (event.id !== undefined) {
          updates.set(i, withChildren(auditChanges(def, diff(event.current, event.columns)), replacing.get(event.id) ?? [], event.children));
          ids[i] = event.id;
          continue;
        }
        const recordId = newIds[inserted++];
        ids[i] = recordId;
        try {
          if (policy?.identify) event.columns = { ...event.columns, ...policy.identify({ ...event, id: recordId, row: event.columns }) };
        } catch (error) {
          await refuse(i, error);
          continue;
        }
        const { created, ...columns } = event.columns;
        event.columns = columns;
        const keywords = searchText(def, columns);
        rows.push({ ...columns, [idColumn]: recordId, [search]: keywords, created: created ?? stamp, modified: stamp, deleted: 0, ...jobColumn(def.prefix, def, actor) });
        if (child && event.children) childRows.push(...childRowsOf(child, recordId, event.children, stamp, jobColumn(child.prefix, def, actor)));
        audits.push({ userId: actor.userId, call: actor.call, table: def.table, recordId, at: stamp, jobId: actor.jobId, keywords, changes: withChildren(auditChanges(def, diff(undefined, columns)), [], event.children) });
      }
      // Built and serialised now, sent when the queue reaches them.
      for (const group of sameColumns(rows)) queue.add(preparedInsert(trx, def.table, group));
      if (child && childRows.length > 0) queue.add(preparedInsert(trx, child.table, childRows));
      if (audits.length > 0) queue.add(preparedAudits(trx, audits));
      await queue.breathe();
      if (options.progress) await options.progress(Math.min(saves.length, (c + 1) * chunkSize), saves.length);
    }
    await queue.done();
  } catch (error) {
    await queue.abandon();
    throw error;
  }

  for (const [i, changes] of updates) {
    const event = events[i];
    const current = event.current!;
    const recordId = event.id!;
    const stamp = nextStamp(String(current.modified));
    const set: ResourceRow = { ...event.columns, modified: stamp, ...jobColumn(def.prefix, def, actor) };
    const text = searchText(def, { ...current, ...event.columns });
    if (text !== current[search]) set[search] = text;
    const updated = await view.updateTable(def.table).set(set).where(idColumn, '=', recordId).where('modified', '=', current.modified).returning(idColumn).executeTakeFirst();
    if (!updated) {
      await refuse(i, new ApiError(409, MESSAGES.conflict));
      continue;
    }
    if (child && event.children) await replaceChildren(trx, child, recordId, childRowsOf(child, recordId, event.children, stamp, jobColumn(child.prefix, def, actor)));
    await writeAudit(trx, { userId: actor.userId, call: actor.call, table: def.table, recordId, at: stamp, jobId: actor.jobId, changes });
  }

  // Follow-ups may change the record itself (a ledger's running balance): the answer is read after them.
  if (policy?.afterSave) {
    for (const [i, event] of events.entries()) {
      if (!event || !live(i)) continue;
      try {
        await policy.afterSave({ ...event, id: event.id, saved: await findRecord(trx, def, ids[i]), storedChildren: !event.children ? undefined : event.id === undefined ? [] : (replaced.get(event.id) ?? []) });
      } catch (error) {
        await refuse(i, error);
      }
    }
  }
  const done = [...saves.keys()].filter(live);
  if (policy?.afterBatch && done.length > 0) {
    await policy.afterBatch({
      trx, actor, def, ids: done.map((i) => ids[i]), current: done.map((i) => events[i].current),
      written: done.map((i) => ({ row: { ...events[i].current, ...events[i].columns }, children: events[i].children })), batch: events[done[0]].batch,
    });
  }
  const answer = options.answer === false ? [] : await Promise.all(done.map((i) => findRecord(trx, def, ids[i])));
  return { ids: [...saves.keys()].map((i) => (live(i) ? ids[i] : 0)), rows: answer };
}

/** Rows grouped by the columns they hold (a multi-row INSERT needs the same columns in every row). */
function sameColumns(rows: readonly ResourceRow[]): ResourceRow[][] {
  const groups: { columns: string[]; rows: ResourceRow[] }[] = [];
  for (const row of rows) {
    const columns = Object.keys(row);
    const group = groups.find((g) => g.columns.length === columns.length && g.columns.every((c) => c in row));
    if (group) group.rows.push(row);
    else groups.push({ columns, rows: [row] });
  }
  return groups.map((g) => g.rows);
}

/** One save checked and mapped, ready for its transaction. */
export interface PreparedSave {
  recordId: number | undefined;
  /** The `modified` the record was loaded with (updates). */
  modified: Cell | undefined;
  columns: ResourceRow;
  /** The save's values as sent (values that are not fields, e.g. `current_password`). */
  input: Readonly<Record<string, unknown>>;
  /** The child rows sent (`def.children`), checked by their declaration; undefined when none were sent. */
  children: ResourceRow[] | undefined;
  /** Columns the writing code sets itself (see `BulkEntry.fixed`). */
  fixed: ResourceRow;
}

/**
 * What the resource allows, the validation and the column values of one save (before its transaction), its
 * child rows checked by their declaration. A new record's missing fields take their declared `initial`
 * (`me` = `actorId`), as the new form would send them. `system`: the application writes (WriteActor.system), so the
 * resource's `ops` are not asked.
 */
export async function prepareSave(
  def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>, actorId?: number, fixed: ResourceRow = {}, system = false, today: string = japanToday(),
): Promise<PreparedSave> {
  const insert = recordId === undefined;
  if (!system && !allows(def, insert ? 'create' : 'edit')) throw new ApiError(403, insert ? `${def.label}は新しく登録できません。` : `${def.label}は変更できません。`);
  const filled = insert ? { ...Object.fromEntries(writableFields(def).map((f) => [f.name, initialValue(f, { userId: actorId, today })])), ...input } : input;
  const values = validate(def, filled);
  const children = checkChildren(def.children, input, today, actorId);
  return { recordId, modified: values.modified, columns: await columnValues(def, values, insert), input, children, fixed };
}

/** A database refusal that a check raced past, as the answer it means. */
export function refusalOf(error: unknown): unknown {
  if (isForeignKeyError(error)) return badRequest(MESSAGES.badReference);
  if (isUniqueError(error)) return new ApiError(409, MESSAGES.duplicate);
  if (isConcurrencyError(error)) return new ApiError(409, MESSAGES.conflict);
  return error;
}

/**
 * Saves form values (unprefixed names + the `modified` they were loaded with, child rows under the children's
 * key): inserts without an id, updates only the sent fields with one. Answers the saved row.
 * @example await saveRecord(ctx, clientResource, undefined, { co_name: '株式会社ＡＢＣ商事', tel_1: '03-1234-5678', status: '1' })
 */
export async function saveRecord(ctx: WriteContext, def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>): Promise<ResourceRow> {
  const save = await prepareSave(def, recordId, input, ctx.userId);
  try {
    return answerRow(def, (await retryOnUnique(ctx.db, (trx) => writeSaves(trx, ctx, def, [save]))).rows[0]);
  } catch (error) {
    throw refusalOf(error);
  }
}

/**
 * Saves a record of a resource inside a transaction that is already running (what a policy's `writer.save`
 * does, e.g. a delivery round's bottle movements), exactly like `saveRecord`. Answers the stored row.
 * @example await saveInTransaction(trx, actor, hodReportResource, undefined, { date: '2026-05-01', usr_id: 4, stops: [{ cl_id: 12, it_id: 3, delivered: 2 }] })
 */
export async function saveInTransaction(
  trx: Transaction<Database>, actor: WriteActor, def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>, fixed: ResourceRow = {},
): Promise<ResourceRow> {
  return answerRow(def, (await writeSaves(trx, actor, def, [await prepareSave(def, recordId, input, actor.userId, fixed)])).rows[0]);
}

/**
 * One record of a batch: its id (none for a new record), its form values (with `modified`), and `fixed`:
 * columns the writing code sets itself, written as given after the resource's rules — the writer's own facts,
 * never a user's input (a generated order's scheduled day `od_hod_date`, a seeded order's past status and `created`).
 */
export interface BulkEntry {
  id?: number;
  values: Record<string, unknown>;
  fixed?: ResourceRow;
}

/** Every entry prepared (`prepareSave`), a refusal named by `name`. */
async function prepareAll(def: ResourceDef, entries: readonly BulkEntry[], actor: Pick<WriteActor, 'userId' | 'system'>, name: (index: number, error: unknown) => unknown): Promise<PreparedSave[]> {
  const saves: PreparedSave[] = [];
  // One day for the whole batch (the initial `today` of its fields), read once.
  const today = japanToday();
  for (const [i, entry] of entries.entries()) {
    try {
      saves.push(await prepareSave(def, entry.id, entry.values, actor.userId, entry.fixed, actor.system, today));
    } catch (error) {
      throw await name(i, error);
    }
  }
  return saves;
}

/**
 * Saves many records of one resource inside a running transaction, through the one pipeline (`writeSaves`:
 * the policy applied to the batch, set-based checks, multi-row inserts): a regular-delivery run's orders, the
 * seed's. The first refusal refuses them all, named by `options.name`. Answers the records' ids in order (and
 * the saved rows unless `answer: false`).
 * @example await saveBatch(trx, { userId: 1, call: 'hod_generate', jobId: 7 }, orderResource, [{ values: { cl_id: 12, date: '2026-11-25', lines: [{ it_id: 3, quantity: 2 }] }, fixed: { od_hod_date: '2026-11-27' } }], { answer: false })
 */
export async function saveBatch(trx: Transaction<Database>, actor: WriteActor, def: ResourceDef, entries: readonly BulkEntry[], options: BatchOptions = {}): Promise<{ ids: number[]; rows: ResourceRow[] }> {
  const name = options.name ?? ((_: number, error: unknown) => error);
  const { refused } = options;
  if (!refused) return writeSaves(trx, actor, def, await prepareAll(def, entries, actor, name), { ...options, name });
  // Collecting: a save its checks refuse is reported and left out; the others go on through the pipeline.
  const kept: number[] = [];
  const saves: PreparedSave[] = [];
  const today = japanToday();
  for (const [i, entry] of entries.entries()) {
    try {
      saves.push(await prepareSave(def, entry.id, entry.values, actor.userId, entry.fixed, actor.system, today));
      kept.push(i);
    } catch (error) {
      refused(i, await name(i, error));
    }
  }
  const written = await writeSaves(trx, actor, def, saves, { ...options, name: (k, error) => name(kept[k], error), refused: (k, error) => refused(kept[k], error) });
  const ids = new Array<number>(entries.length).fill(0);
  for (const [k, recordId] of written.ids.entries()) ids[kept[k]] = recordId;
  return { ids, rows: written.rows };
}

/** The name of a record by its title fields ('' when it has none). */
async function recordTitle(db: Kysely<Database>, def: ResourceDef, recordId: number): Promise<string> {
  const { id } = resourceColumns(def);
  const row = await resourceView(db).selectFrom(`${def.table} as t`).select(titleSql(def, 't').as('title')).where(`t.${id}`, '=', recordId).executeTakeFirst();
  return (row?.title ?? '');
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
 * Saves several records of a resource in ONE transaction (`{r}_bulk_save`), each exactly like `saveRecord`
 * (validation, references, uniqueness, edit conflicts, policies, audit rows): the first refusal refuses them
 * all and names its record (see `aboutRecord`). Answers the saved rows in order.
 * @example await saveRecords(ctx, deliveryFeeResource, [{ id: 1, values: { fee: 900, modified } }])
 */
export async function saveRecords(ctx: WriteContext, def: ResourceDef, entries: readonly BulkEntry[]): Promise<ResourceRow[]> {
  const saves = await prepareAll(def, entries, ctx, (i, error) => aboutRecord(ctx.db, def, entries[i], i, error));
  try {
    const { rows } = await retryOnUnique(ctx.db, (trx) => writeSaves(trx, ctx, def, saves, { name: (i, error) => aboutRecord(trx, def, entries[i], i, error) }));
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
 * Soft-deletes a record inside a running transaction, exactly like `deleteRecord` (what a policy's
 * `writer.delete` does). The record is locked before anything is checked: a concurrent delete waits and then
 * finds it deleted (404, nothing written twice), and a save pointing at it (`checkReferences`) is counted or refused.
 */
export async function deleteInTransaction(trx: Transaction<Database>, ctx: WriteActor, def: ResourceDef, recordId: number): Promise<void> {
  const { id } = resourceColumns(def);
  const view = resourceView(trx);
  const current = await locking(view, view.selectFrom(def.table).select([...resourceColumns(def).detail, 'deleted']).where(id, '=', recordId), 'update').executeTakeFirst();
  if (!current || current.deleted !== 0) throw notFound();
  const refusal = usedByRefusal(`この${def.label}`, await referencesTo(trx, def, recordId), '先にそちらを削除するか、付け替えてください。');
  if (refusal) throw refusal;
  const policy = policyOf(def.name);
  const event = { trx, actor: ctx, writer: writerOf(trx, ctx), def, id: recordId, current };
  await policy?.beforeDelete?.(event);
  const stamp = nextStamp(String(current.modified));
  await view.updateTable(def.table).set({ deleted: 1, modified: stamp }).where(id, '=', recordId).execute();
  await writeAudit(trx, { userId: ctx.userId, call: ctx.call, table: def.table, recordId, jobId: ctx.jobId, changes: { deleted: [0, 1], modified: [current.modified, stamp] }, at: stamp });
  await policy?.afterDelete?.(event);
}
