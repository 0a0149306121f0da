/**
 * `master_lst`: the options of one master table (`mt_*`), as `{ value, text, id, flg, checked }` (./masters.ts).
 */
import type { FastifyInstance } from 'fastify';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { masterOptions } from './masters';

const MASTER_TABLE = /^mt_[a-z0-9_]+$/;

/** Registers `master_lst`. */
export async function masterPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'master_lst', {
    handler: async ({ params, user }) => {
      const table = (params.table ?? '').trim();
      if (!MASTER_TABLE.test(table) || table.length > 64) throw badRequest();
      return masterOptions(db, user, table);
    },
  });
}
