/**
 * `server_upd`: a water server goes to a customer (設置), replaces one of theirs (交換: the old one goes back to a
 * warehouse as メンテ待ち and the customer's サーバー交換日 is set) or comes back (引上げ), in ONE transaction
 * with the server history rows, the customer's live agreement (its レンタル台数 and サーバー機種) and the
 * customer. Every record is written through its resource's own save (`saveInTransaction`: validation, the
 * server policy's status rules, edit conflicts, audit rows); the first refusal leaves nothing written.
 *
 * Servers are stock one by one (a serial number each, in the server ledger), not as item quantities: a
 * server's movement between a warehouse and a customer is its own record's 状態・保管倉庫・設置先顧客 and the
 * history row that names both ends.
 */
import type { Transaction } from 'kysely';
import { isDay } from '../../lib/day';
import { agreementResource } from '../../lib/resources/agreement';
import { clientResource } from '../../lib/resources/client';
import { serverHistoryResource } from '../../lib/resources/server-history';
import { titleOf } from '../../lib/resources/types';
import { serverResource } from '../../lib/resources/water-server';
import { moveKindOf, type ServerMoveKind } from '../../lib/servers/move';
import { locking, retryOnUnique } from '../db/concurrency';
import { resourceView, type Cell, type Database, type ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { type WriteActor, findRecord, refusalOf, saveInTransaction, type WriteContext, systemInsert } from '../resources';
import { japanToday } from '../http/clock';

/** What `server_upd` was asked (the call's parameters, parsed). */
export interface MoveRequest {
  /** `id`: the server that goes to the customer (設置・交換) or comes back (引上げ). */
  serverId?: number;
  /** `cl_id`: the customer; none = 引上げ. */
  customerId?: number;
  /** `item_id`: the model (mt_server_model code): with no `id`, the first server of it in stock by serial number. */
  model?: string;
  /** `old_id`: the customer's installed server the new one replaces (交換). */
  oldId?: number;
  /** `sk_id`: the warehouse a server comes back to (引上げ; 交換: default the new server's warehouse). */
  warehouseId?: number;
  /** The day of the move (YYYY-MM-DD, default today in Japan). */
  date?: string;
  /** The `modified` the moving server (`id`) was shown with; the old server's as `oldModified`. */
  modified?: string;
  oldModified?: string;
  note?: string;
}

export interface MoveAnswer {
  kind: ServerMoveKind;
  /** The moved server as stored afterwards (the new one of an exchange). */
  server: ResourceRow;
  /** The server an exchange took back. */
  replaced?: ResourceRow;
  /** The customer's agreement the move updated. */
  agreement?: ResourceRow;
  /** The server history rows written (`sh_id`). */
  history: number[];
}

const problem = (field: string, message: string): ApiError => badRequest(message, { fields: { [field]: message } });

const serialOf = (server: ResourceRow): string => `製造番号 ${String(server.sv_serial_no)}`;

/** Locks a live server until the move commits (a second move of it waits, then sees where it went) and reads it with its labels. */
async function lockedServer(trx: Transaction<Database>, id: number, field: string): Promise<ResourceRow> {
  const view = resourceView(trx);
  const found = await locking(view, view.selectFrom('water_server').select('sv_id').where('sv_id', '=', id).where('deleted', '=', 0), 'update').executeTakeFirst();
  if (!found) throw problem(field, `サーバーが見つかりません（ID ${id}）。一覧を読み込み直して選び直してください。`);
  return findRecord(trx, serverResource, id);
}

/** The first server of a model in stock (by serial number), for a move that names the model only. */
async function serverOfModel(trx: Transaction<Database>, model: string | undefined): Promise<number> {
  if (!model) throw problem('id', '設置するサーバーを選んでください（機種だけを指定するときは item_id）。');
  const view = resourceView(trx);
  const row = await locking(view, view.selectFrom('water_server').select('sv_id')
    .where('sv_model', '=', model).where('sv_status', '=', 'stock').where('deleted', '=', 0)
    .orderBy('sv_serial_no').orderBy('sv_id').limit(1), 'update').executeTakeFirst();
  if (!row) throw problem('item_id', `機種「${model}」の在庫サーバーがありません。`);
  return Number(row.sv_id);
}

/** Why a server cannot go out to a customer, or nothing. */
function notInstallable(server: ResourceRow, customerId: number): string | undefined {
  const status = String(server.sv_status);
  if (status === 'stock') return undefined;
  if (status === 'disposed') return `${serialOf(server)}は廃棄済みのため設置できません。`;
  if (status === 'installed') {
    return Number(server.sv_cl_id) === customerId
      ? `${serialOf(server)}は既にこの顧客に設置されています。`
      : `${serialOf(server)}は既に「${String(server.sv_cl_id_label ?? '')}」に設置されています。先に引上げてください。`;
  }
  const text = serverResource.fields.find((f) => f.name === 'status')?.options?.find((o) => o.value === status)?.text ?? status;
  return `${serialOf(server)}は「${text}」です。メンテナンスを終えて在庫に戻してから設置してください。`;
}

/** The customer's agreement a move changes: the newest live one (契約中, or also 休止中 when a server comes back). */
async function liveAgreement(trx: Transaction<Database>, customerId: number, statuses: readonly string[]): Promise<ResourceRow | undefined> {
  const view = resourceView(trx);
  const row = await view.selectFrom('agreement').select('ag_id')
    .where('ag_cl_id', '=', customerId).where('ag_status', 'in', statuses).where('deleted', '=', 0)
    .orderBy('ag_contract_date', 'desc').orderBy('ag_id', 'desc').limit(1).executeTakeFirst();
  return row ? findRecord(trx, agreementResource, Number(row.ag_id)) : undefined;
}

async function installedCount(trx: Transaction<Database>, customerId: number): Promise<number> {
  const row = await resourceView(trx).selectFrom('water_server').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sv_cl_id', '=', customerId).where('sv_status', '=', 'installed').where('deleted', '=', 0).executeTakeFirstOrThrow();
  return row.n;
}

/** One server history row (insert only: the history is never edited), audit-logged with the move's call. */
async function writeHistory(trx: Transaction<Database>, actor: WriteActor, values: Record<string, Cell>): Promise<number> {
  const [recordId] = await systemInsert(trx, actor, serverHistoryResource, [values]);
  return recordId;
}

/** A server back in a warehouse as メンテ待ち (引上げ, or the old one of an exchange). */
async function takeBack(trx: Transaction<Database>, actor: WriteActor, server: ResourceRow, warehouseId: number | undefined, date: string, modified: string | undefined, exchange: boolean): Promise<ResourceRow> {
  if (warehouseId === undefined) throw problem('sk_id', '引上げたサーバーを保管する倉庫を選んでください。');
  if (String(server.sv_install_date) > date) throw problem('date', `${exchange ? '交換日' : '引上げ日'}（${date}）は${serialOf(server)}の設置日（${String(server.sv_install_date)}）以降にしてください。`);
  return saveInTransaction(trx, actor, serverResource, Number(server.sv_id), {
    status: 'waiting', cl_id: '', sk_id: String(warehouseId), ...(exchange ? { exchange_date: date } : {}), modified: modified ?? server.modified,
  });
}

async function move(trx: Transaction<Database>, actor: WriteActor, request: MoveRequest, kind: ServerMoveKind, date: string): Promise<MoveAnswer> {
  const note = request.note ?? '';
  const history = async (server: ResourceRow, row: Record<string, Cell>) =>
    writeHistory(trx, actor, { sv_id: Number(server.sv_id), date, usr_id: actor.userId, note, ...row });

  if (kind === 'takeback') {
    if (request.serverId === undefined) throw problem('id', '引上げるサーバーを選んでください。');
    const server = await lockedServer(trx, request.serverId, 'id');
    if (server.sv_status !== 'installed' || server.sv_cl_id === null) throw problem('id', `${serialOf(server)}はどの顧客にも設置されていません。`);
    const customerId = Number(server.sv_cl_id);
    const saved = await takeBack(trx, actor, server, request.warehouseId, date, request.modified, false);
    const agreement = await liveAgreement(trx, customerId, ['1', '2']);
    const updated = agreement && (await saveInTransaction(trx, actor, agreementResource, Number(agreement.ag_id), { server_count: String(await installedCount(trx, customerId)), modified: agreement.modified }));
    const id = await history(saved, { kind: 'takeback', cl_id: customerId, sk_id: Number(saved.sv_sk_id), status: String(saved.sv_status) });
    return { kind, server: saved, agreement: updated, history: [id] };
  }

  const customerId = request.customerId!;
  const customer = await resourceView(trx).selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name', 'modified']).where('cl_id', '=', customerId).where('deleted', '=', 0).executeTakeFirst();
  if (!customer) throw problem('cl_id', `顧客が見つかりません（ID ${customerId}）。選び直してください。`);
  const customerName = titleOf(clientResource, customer);
  const server = await lockedServer(trx, request.serverId ?? (await serverOfModel(trx, request.model)), 'id');
  if (request.model && request.model !== server.sv_model) throw problem('item_id', `${serialOf(server)}の機種は「${String(server.sv_model)}」で、指定の機種「${request.model}」と違います。`);
  const refusal = notInstallable(server, customerId);
  if (refusal) throw problem('id', refusal);
  const old = kind === 'exchange' ? await lockedServer(trx, request.oldId!, 'old_id') : undefined;
  if (old && (old.sv_status !== 'installed' || Number(old.sv_cl_id) !== customerId)) throw problem('old_id', `${serialOf(old)}は「${customerName}」に設置されていません。交換するサーバーを選び直してください。`);
  const agreement = await liveAgreement(trx, customerId, ['1']);
  if (!agreement) throw problem('cl_id', `「${customerName}」には契約中の契約がありません。先に契約を登録してから${kind === 'exchange' ? '交換' : '設置'}してください。`);

  const from = server.sv_sk_id === null ? undefined : Number(server.sv_sk_id);
  const replaced = old && (await takeBack(trx, actor, old, request.warehouseId ?? from, date, request.oldModified, true));
  const maintained = String(server.sv_last_maintenance_date ?? '');
  const saved = await saveInTransaction(trx, actor, serverResource, Number(server.sv_id), {
    status: 'installed', cl_id: String(customerId), sk_id: '', install_date: date, next_due_date: '',
    // A maintenance done in the warehouse before this installation is not one of it (the next is due a year after installing).
    ...(maintained && maintained < date ? { last_maintenance_date: '' } : {}),
    ...(old ? { exchange_date: date } : {}),
    modified: request.modified ?? server.modified,
  });
  if (old) await saveInTransaction(trx, actor, clientResource, customerId, { server_changed: date, modified: customer.modified });
  const updated = await saveInTransaction(trx, actor, agreementResource, Number(agreement.ag_id), {
    server_count: String(await installedCount(trx, customerId)), server_model: String(saved.sv_model), modified: agreement.modified,
  });
  const ids = [await history(saved, { kind: old ? 'exchange_in' : 'install', cl_id: customerId, sk_id: from ?? null, status: 'installed', other_sv_id: old ? Number(old.sv_id) : null })];
  if (old && replaced) ids.push(await history(replaced, { kind: 'exchange_out', cl_id: customerId, sk_id: Number(replaced.sv_sk_id), status: String(replaced.sv_status), other_sv_id: Number(saved.sv_id) }));
  return { kind, server: saved, replaced, agreement: updated, history: ids };
}

/**
 * Moves a server (see the file's comment): 設置 `{ serverId, customerId }`, 交換 `{ serverId, customerId, oldId }`,
 * 引上げ `{ serverId, warehouseId }`. Refusals are 400 naming the field (`id`, `cl_id`, `old_id`, `sk_id`,
 * `item_id`, `date`), 409 for a stale `modified`; nothing is written then.
 * @example await moveServer(ctx, { serverId: 31, customerId: 12, oldId: 8, date: '2026-05-01' })
 */
export async function moveServer(ctx: WriteContext, request: MoveRequest): Promise<MoveAnswer> {
  const kind = moveKindOf({ cl_id: request.customerId === undefined ? '' : String(request.customerId), old_id: request.oldId === undefined ? '' : String(request.oldId) });
  const date = request.date || japanToday();
  if (!isDay(date)) throw problem('date', '日付は YYYY-MM-DD の形式の正しい日付で入力してください。');
  if (kind === 'exchange' && request.oldId === request.serverId) throw problem('old_id', '交換するサーバーと新しく設置するサーバーに同じサーバーは選べません。');
  try {
    return await retryOnUnique(ctx.db, (trx) => move(trx, ctx, request, kind, date));
  } catch (error) {
    throw refusalOf(error);
  }
}
