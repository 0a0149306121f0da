/**
 * The server ledger's call beside the generic `server_*` ones: `server_upd` (spec §7 "update: id, cl_id,
 * item_id"), which installs, exchanges or takes back a server (server/servers/move.ts).
 */
import type { FastifyInstance } from 'fastify';
import { addCall, type AreaOptions } from '../calls/call-table';
import { optionalId, text } from '../http/params';
import { moveServer } from './move';

/** Registers `server_upd`: area 在庫 (the server ledger's), write. */
export async function serversPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'server_upd', {
    handler: async ({ call, params, user }) => {
      const answer = await moveServer({ db, userId: user.user_id, call, user }, {
        serverId: optionalId(params.id),
        customerId: optionalId(params.cl_id),
        model: text(params, 'item_id', 30) || undefined,
        oldId: optionalId(params.old_id),
        warehouseId: optionalId(params.sk_id),
        date: text(params, 'date', 10) || undefined,
        modified: text(params, 'modified', 40) || undefined,
        oldModified: text(params, 'old_modified', 40) || undefined,
        note: text(params, 'note', 200),
      });
      return [answer];
    },
  });
}
