/**
 * What is special about a resource on the server, beside its declaration: rules that need the
 * database (a ledger's running balance, the last admin, stock on hand) and who may call beyond the
 * role table. Everything else — validation, uniqueness, references, conflicts, audit — is generic.
 * Each resource with such rules has one file in its area, `server/<area>/<name>-policy.ts`, registered by
 * server/areas.ts from the area (./registry.ts); a resource without one gets the generic rules.
 */
import type { Expression, ExpressionBuilder, SqlBool, Transaction } from 'kysely';
import type { Verb } from '../../lib/protocol';
import type { ResourceDef } from '../../lib/resources/types';
import type { SessionUser } from '../calls/call-table';
import type { Database, ResourceDatabase, ResourceRow } from '../db/schema';
import type { Params } from '../http/params';

/** Who writes, through which call (the session user when the write comes from a call; the job when a job writes). */
export interface WriteActor {
  userId: number;
  call: string;
  user?: SessionUser;
  /** The job writing (server/jobs): its id is stamped on the rows of `jobStamped` resources and on the audit rows. */
  jobId?: number;
  /**
   * The application itself writes records its users may not (a closing's invoices, `ops` without create): the
   * resource's `ops` are not asked. Set only by server code that owns such records, never from a call's input.
   */
  system?: boolean;
}

/**
 * The pipeline (records.ts) inside the running transaction, handed to a policy in its event: a policy's
 * follow-up writes to any resource go through the same validation, rules, conflicts and audit rows, and
 * policies never import the pipeline (no import cycle).
 * @example await writer.save(bottleResource, undefined, { cl_id: 12, it_id: 3, move_date: '2026-05-01', delivered: 2 })
 */
export interface Writer {
  /** `fixed`: columns the writing code sets itself (see records.ts `BulkEntry.fixed`), e.g. the bottle movement a deposit slip follows. */
  save(def: ResourceDef, recordId: number | undefined, input: Record<string, unknown>, fixed?: ResourceRow): Promise<ResourceRow>;
  delete(def: ResourceDef, recordId: number): Promise<void>;
}

/** One save of a batch as the policy's `prepareBatch` sees it (before the resource's rules). */
export interface BatchSave {
  id: number | undefined;
  current: ResourceRow | undefined;
  columns: ResourceRow;
  /** The child rows sent (checked by their declaration), undefined when none were sent. */
  children: ResourceRow[] | undefined;
  fixed: ResourceRow;
}

export interface SaveEvent {
  trx: Transaction<Database>;
  actor: WriteActor;
  writer: Writer;
  def: ResourceDef;
  /** Undefined for an insert. */
  id: number | undefined;
  /** The stored row before an update (detail columns), undefined for an insert. */
  current: ResourceRow | undefined;
  /** The columns the save writes (prefixed names). */
  columns: ResourceRow;
  /** The save's postData as sent (unvalidated): values that are not fields, e.g. `current_password`. */
  input: Readonly<Record<string, unknown>>;
  /**
   * The child rows (`def.children`, prefixed columns) the save replaces the stored ones with: checked by their
   * declaration, then by `prepareChildren`; undefined when none were sent (the stored rows stay). `beforeSave` may
   * set them to replace the stored rows with rows it derives (`ChildDef.derivedFlag`: an order's fee line follows its
   * 送料 even when no line was sent).
   */
  children: ResourceRow[] | undefined;
  /** Columns the writing code sets itself, written after the rules (a generated order's scheduled day). */
  fixed: ResourceRow;
  /** What `prepareBatch` read for the whole batch (undefined without that hook). */
  batch: unknown;
}

export interface DeleteEvent {
  trx: Transaction<Database>;
  actor: WriteActor;
  writer: Writer;
  def: ResourceDef;
  id: number;
  current: ResourceRow;
}

/** The rows of a resource's table one reader may see, as a WHERE condition on its columns. */
export type RowScope = (eb: ExpressionBuilder<ResourceDatabase, string>) => Expression<SqlBool>;

export interface ResourcePolicy {
  /**
   * Reads once what the rules of a batch of saves need (customers, items, prices, settings): one save or a
   * thousand cost the same queries. The answer is every event's `batch`.
   */
  prepareBatch?(event: { trx: Transaction<Database>; actor: WriteActor; def: ResourceDef; saves: readonly BatchSave[] }): Promise<unknown>;
  /**
   * Checks and derives the sent child rows (throw `childProblem` to refuse one), e.g. an order line's price and
   * tax; answers the rows to store.
   */
  prepareChildren?(event: SaveEvent & { children: ResourceRow[] }): Promise<ResourceRow[]>;
  /** Checks (throw an ApiError to refuse) and derived columns to write as well, inside the save's transaction. */
  beforeSave?(event: SaveEvent): Promise<ResourceRow | void>;
  /** Columns that need the new record's id (an order's number), for an insert. */
  identify?(event: SaveEvent & { id: number; row: ResourceRow }): ResourceRow;
  /**
   * How the audit log words child rows (one line each); read once for all the rows of a batch, before and after.
   * Default: each field's label and value.
   */
  wordChildren?(trx: Transaction<Database>, rows: readonly ResourceRow[]): Promise<(row: ResourceRow) => string>;
  /**
   * Follow-up writes in the same transaction (e.g. re-computing a ledger). `storedChildren`: the child rows
   * before the save replaced them (when it did).
   */
  afterSave?(event: SaveEvent & { saved: ResourceRow; storedChildren: ResourceRow[] | undefined }): Promise<void>;
  /**
   * Follow-ups of a whole batch in set-based statements, after every record's `afterSave` (a thousand slips' totals
   * per rate and their customers' 売掛残高 in a few queries). `ids` the saved records in order, `current` each one's
   * stored row before the save (undefined for an insert), `written` each one's row as the save wrote it (the stored
   * row with the columns written) and the child rows it stored (undefined when they were left as they were) — what
   * the batch wrote, without reading it back.
   */
  afterBatch?(event: {
    trx: Transaction<Database>; actor: WriteActor; def: ResourceDef; ids: readonly number[]; current: readonly (ResourceRow | undefined)[];
    written: readonly { row: ResourceRow; children: readonly ResourceRow[] | undefined }[]; batch: unknown;
  }): Promise<void>;
  beforeDelete?(event: DeleteEvent): Promise<void>;
  afterDelete?(event: DeleteEvent): Promise<void>;
  /** Lets a user call a verb the role table does not grant (e.g. reading and saving one's own profile). */
  allow?(user: SessionUser, verb: Verb, params: Params): boolean;
  /**
   * The rows a reader may see, where the area alone says too much (the log's rows of tables of other
   * areas); undefined: every row. `_lst`, `_cnt`, `_pagination` and `_dtl` apply it (plugin.ts).
   */
  scope?(user: SessionUser): RowScope | undefined;
}
