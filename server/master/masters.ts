/**
 * The masters (`mt_*`): the options of one master table as `{ value, text, id, flg, checked }`, stored in
 * `master_option` or answered from other tables (virtual masters). `master_lst` (./plugin.ts) answers them;
 * the resource pipeline checks a `ref`'s choice and labels a CSV export's values with them (given to it as
 * services, server/resources/registry.ts).
 */
import { ADMIN_ROLE, can, effectiveAreas } from '../../lib/permissions';
import type { MasterOption } from '../../lib/protocol';
import { clientResource } from '../../lib/resources/client';
import { roleResource } from '../../lib/resources/role';
import { titleOf } from '../../lib/resources/types';
import type { SessionUser } from '../calls/call-table';
import type { AppDatabase } from '../db/connect';
import { resourceView } from '../db/schema';
import { policyOf } from '../resources';
import { auditCalls, auditTables } from '../../lib/system/audit';

/** A master answered from another table: the rows the caller may see. */
type VirtualMaster = (db: AppDatabase['db'], user: SessionUser) => Promise<MasterOption[]>;
const option = (value: string | number, text: string, id: number): MasterOption => ({ value: String(value), text, id, flg: 0, checked: false });

/** Masters that list records, the same for every caller: what a `ref` drawn as a select offers. */
const RECORD_MASTERS: Record<string, (db: AppDatabase['db']) => Promise<MasterOption[]>> = {
  mt_user: async (db) =>
    (await db.selectFrom('user').select(['user_id', 'user_name']).where('deleted', '=', 0).where('user_active', '=', 1).orderBy('user_kana').orderBy('user_id').execute())
      .map((u) => option(u.user_id, u.user_name, u.user_id)),
  mt_driver: async (db) => {
    const staff = await db.selectFrom('user')
      .leftJoin('role', (join) => join.onRef('role.role_name', '=', 'user.user_role').on('role.deleted', '=', 0))
      .select(['user.user_id', 'user.user_name', 'user.user_role', 'role.role_areas'])
      .where('user.deleted', '=', 0).where('user.user_active', '=', 1)
      .orderBy('user.user_kana').orderBy('user.user_id').execute();
    const drivers = staff.filter((u) => can(effectiveAreas(u.user_role, u.role_areas), 'hod', 'write'));
    return [...drivers.filter((u) => u.user_role !== ADMIN_ROLE), ...drivers.filter((u) => u.user_role === ADMIN_ROLE)]
      .map((u) => option(u.user_id, u.user_name, u.user_id));
  },
  mt_dairiten: async (db) =>
    (await db.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('cl_dairiten_flag', '=', 1).where('deleted', '=', 0)
      .orderBy('cl_co_name_kana').orderBy('cl_id').execute())
      .map((c) => option(c.cl_id, titleOf(clientResource, c), c.cl_id)),
  // Live warehouses by code (a customer's 出荷倉庫, a server's 保管倉庫); those out of use say so.
  // Warehouses in use: one out of use (使用停止) is offered for no new choice (a stored one still shows by its name).
  mt_warehouse: async (db) =>
    (await db.selectFrom('warehouse').select(['sk_id', 'sk_name']).where('deleted', '=', 0).where((eb) => eb.or([eb('sk_active', 'is', null), eb('sk_active', '<>', 0)])).orderBy('sk_code').orderBy('sk_id').execute())
      .map((w) => option(w.sk_id, w.sk_name, w.sk_id)),
  // Live returnable bottle items (the bottle ledger's 商品).
  mt_returnable_item: async (db) =>
    (await db.selectFrom('item').select(['it_id', 'it_name']).where('deleted', '=', 0).where('it_returnable', '=', 1).orderBy('it_code').orderBy('it_id').execute())
      .map((i) => option(i.it_id, i.it_name, i.it_id)),
};

/**
 * Masters answered from other tables, so a select offers the live records: staff (`mt_user`,
 * active users by name), drivers (`mt_driver`: active staff whose role may record deliveries, i.e.
 * write the 配送 area — the 配送 role first, then 管理, who may do everything), agencies
 * (`mt_dairiten`: live customers marked 代理店), roles (`mt_role`, the live rows of the `role` table, value = label),
 * warehouses (`mt_warehouse`), returnable bottle items (`mt_returnable_item`) and the audit log's
 * kinds of data and calls (`mt_log_table`, `mt_log_call`). Roles, and the log's kinds and calls, are
 * only those the caller may read rows of (the role resource's scope; the log's readers).
 */
export const VIRTUAL_MASTERS: Record<string, VirtualMaster> = {
  ...RECORD_MASTERS,
  mt_role: async (db, user) => {
    const scope = policyOf(roleResource.name)?.scope?.(user);
    let query = resourceView(db).selectFrom(roleResource.table).select(['role_id', 'role_name']).where('deleted', '=', 0);
    if (scope) query = query.where(scope);
    return (await query.orderBy('role_id').execute()).map((r) => option(String(r.role_name), String(r.role_name), Number(r.role_id)));
  },
  // The audit log's kinds of data and writing calls (the /system/log filters).
  mt_log_table: async (_db, user) => auditTables(user.areas).map((o, i) => option(o.value, o.text, i + 1)),
  mt_log_call: async (_db, user) => auditCalls(user.areas).map((o, i) => option(o.value, o.text, i + 1)),
};

/**
 * Whether a master offers a value now: a `ref` drawn as a select may be saved only with one of
 * its choices (the stored value may stay).
 * @example await masterOffers(db, 'mt_driver', 7) // false for a 経理 user
 */
export async function masterOffers(db: AppDatabase['db'], master: string, value: string | number): Promise<boolean> {
  const records = RECORD_MASTERS[master];
  if (records) return (await records(db)).some((o) => o.value === String(value));
  // Masters that depend on the caller (roles, the log's kinds) are never a reference's choices.
  if (VIRTUAL_MASTERS[master]) return true;
  const row = await db.selectFrom('master_option').select('mo_id').where('mo_table', '=', master).where('mo_value', '=', String(value)).where('deleted', '=', 0).executeTakeFirst();
  return row !== undefined;
}

/**
 * The options of one master table as the caller may see them (virtual masters from their tables).
 * @example await masterOptions(db, user, 'mt_pmt_method') // [{ value: '1', text: '口座振替', … }]
 */
export async function masterOptions(db: AppDatabase['db'], user: SessionUser, table: string): Promise<MasterOption[]> {
  const virtual = VIRTUAL_MASTERS[table];
  if (virtual) return virtual(db, user);
  const rows = await db
    .selectFrom('master_option')
    .select(['mo_id', 'mo_value', 'mo_text', 'mo_flg'])
    .where('mo_table', '=', table)
    .where('deleted', '=', 0)
    .orderBy('mo_sort')
    .orderBy('mo_id')
    .execute();
  return rows.map((row): MasterOption => ({ value: row.mo_value, text: row.mo_text, id: row.mo_id, flg: row.mo_flg, checked: false }));
}
