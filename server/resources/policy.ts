/**
 * What is special about a resource on the server, beside its declaration: rules that need the
 * database (a ledger's running balance, the last admin, stock on hand) and who may call beyond the
 * role table. Everything else — validation, uniqueness, references, conflicts, audit — is generic.
 * Each resource with such rules has one file in `policies/`, registered in `policies/index.ts`.
 */
import type { Expression, ExpressionBuilder, SqlBool, Transaction } from 'kysely';
import type { Verb } from '../../lib/protocol';
import type { ResourceDef } from '../../lib/resources/types';
import type { SessionUser } from '../calls/call-table';
import type { Database, ResourceDatabase, ResourceRow } from '../db/schema';
import type { Params } from '../http/params';

/** Who writes, through which call (the session user when the write comes from a call). */
export interface WriteActor {
  userId: number;
  call: string;
  user?: SessionUser;
}

export interface SaveEvent {
  trx: Transaction<Database>;
  actor: WriteActor;
  def: ResourceDef;
  /** Undefined for an insert. */
  id: number | undefined;
  /** The stored row before an update (detail columns), undefined for an insert. */
  current: ResourceRow | undefined;
  /** The columns the save writes (prefixed names). */
  columns: ResourceRow;
  /** The save's postData as sent (unvalidated): values that are not fields, e.g. `current_password`. */
  input: Readonly<Record<string, unknown>>;
}

export interface DeleteEvent {
  trx: Transaction<Database>;
  actor: WriteActor;
  def: ResourceDef;
  id: number;
  current: ResourceRow;
}

/** The rows of a resource's table one reader may see, as a WHERE condition on its columns. */
export type RowScope = (eb: ExpressionBuilder<ResourceDatabase, string>) => Expression<SqlBool>;

export interface ResourcePolicy {
  /** Checks (throw an ApiError to refuse) and derived columns to write as well, inside the save's transaction. */
  beforeSave?(event: SaveEvent): Promise<ResourceRow | void>;
  /** Follow-up writes in the same transaction (e.g. re-computing a ledger). */
  afterSave?(event: SaveEvent & { saved: ResourceRow }): Promise<void>;
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
