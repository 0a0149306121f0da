/**
 * `master_lst`: the options of one master table (`mt_*`), as `{ value, text, id, flg, checked }`.
 */
import type { FastifyInstance } from 'fastify';
import type { MasterOption } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';

const MASTER_TABLE = /^mt_[a-z0-9_]+$/;

/** Registers `master_lst`. */
export async function masterPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'master_lst', {
    area: null, level: 'read',
    handler: async ({ params }) => {
      const table = (params.table ?? '').trim();
      if (!MASTER_TABLE.test(table) || table.length > 64) throw badRequest();
      const rows = await db
        .selectFrom('master_option')
        .select(['mo_id', 'mo_value', 'mo_text', 'mo_flg'])
        .where('mo_table', '=', table)
        .where('deleted', '=', 0)
        .orderBy('mo_sort')
        .orderBy('mo_id')
        .execute();
      return rows.map((row): MasterOption => ({ value: row.mo_value, text: row.mo_text, id: row.mo_id, flg: row.mo_flg, checked: false }));
    },
  });
}
