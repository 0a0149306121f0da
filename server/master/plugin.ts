/**
 * `master_lst`: the options of one master table (`mt_*`), as `{ value, text, id, flg, checked }`.
 */
import type { FastifyInstance } from 'fastify';
import type { MasterOption } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import type { AppDatabase } from '../db/connect';
import { badRequest } from '../http/api-error';

const MASTER_TABLE = /^mt_[a-z0-9_]+$/;

type VirtualMaster = (db: AppDatabase['db']) => Promise<MasterOption[]>;
const option = (value: string | number, text: string, id: number): MasterOption => ({ value: String(value), text, id, flg: 0, checked: false });

/**
 * Masters answered from other tables, so a select offers the live records: staff (`mt_user`,
 * active users by name) and roles (`mt_role`, the live rows of the `role` table, value = label).
 */
export const VIRTUAL_MASTERS: Record<string, VirtualMaster> = {
  mt_user: async (db) =>
    (await db.selectFrom('user').select(['user_id', 'user_name']).where('deleted', '=', 0).where('user_active', '=', 1).orderBy('user_kana').orderBy('user_id').execute())
      .map((u) => option(u.user_id, u.user_name, u.user_id)),
  mt_role: async (db) =>
    (await db.selectFrom('role').select(['role_id', 'role_name']).where('deleted', '=', 0).orderBy('role_id').execute())
      .map((r) => option(String(r.role_name), String(r.role_name), Number(r.role_id))),
};

/** Registers `master_lst`. */
export async function masterPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'master_lst', {
    area: null, level: 'read',
    handler: async ({ params }) => {
      const table = (params.table ?? '').trim();
      if (!MASTER_TABLE.test(table) || table.length > 64) throw badRequest();
      const virtual = VIRTUAL_MASTERS[table];
      if (virtual) return virtual(db);
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
