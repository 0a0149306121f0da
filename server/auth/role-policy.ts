/**
 * Roles (lib/resources/role.ts): 管理 keeps every area at write and its name, and cannot be deleted;
 * ユーザー・権限管理 stays with 管理; a role some user holds cannot be deleted; renaming a role
 * renames it on its users in the same transaction. Areas are stored normalised (every area, known levels).
 * Without user management one sees only one's own role (the `mt_role` master of one's profile).
 */
import { ADMIN_ONLY_AREAS, ADMIN_ROLE, AREAS, can, normalizeAreas } from '../../lib/permissions';
import { userResource } from '../../lib/resources/user';
import { badRequest } from '../http/api-error';
import { type ResourcePolicy, systemUpdate } from '../resources';

export const ROLE_MESSAGES = {
  adminRename: `「${ADMIN_ROLE}」の権限名は変更できません。`,
  adminAreas: `「${ADMIN_ROLE}」はすべての業務を編集できる権限です。使える業務は変更できません。`,
  adminDelete: `「${ADMIN_ROLE}」の権限は削除できません。`,
  adminOnly: (area: string) => `「${area}」は「${ADMIN_ROLE}」の権限だけが使えます。`,
  inUse: (name: string, n: number) => `権限「${name}」は${n}人のユーザーに設定されているため削除できません。先にユーザーの権限を変更してください。`,
} as const;

export const rolePolicy: ResourcePolicy = {
  scope(user) {
    return can(user.areas, 'user_admin', 'read') ? undefined : (eb) => eb('role_name', '=', user.user_role);
  },

  async beforeSave({ current, columns }) {
    const name = String(columns.role_name ?? current?.role_name ?? '');
    if (current?.role_name === ADMIN_ROLE && columns.role_name !== undefined && columns.role_name !== ADMIN_ROLE) {
      throw badRequest(ROLE_MESSAGES.adminRename, { fields: { name: ROLE_MESSAGES.adminRename } });
    }
    if (columns.role_areas === undefined && current) return;
    const areas = normalizeAreas(columns.role_areas ?? '');
    if (name === ADMIN_ROLE) {
      if (Object.values(areas).some((level) => level !== 'write')) throw badRequest(ROLE_MESSAGES.adminAreas, { fields: { areas: ROLE_MESSAGES.adminAreas } });
    } else {
      const reserved = ADMIN_ONLY_AREAS.find((area) => areas[area] !== 'none');
      if (reserved) throw badRequest(ROLE_MESSAGES.adminOnly(AREAS[reserved]), { fields: { areas: ROLE_MESSAGES.adminOnly(AREAS[reserved]) } });
    }
    return { role_areas: JSON.stringify(areas) };
  },

  async afterSave({ trx, actor, current, saved }) {
    const before = current?.role_name;
    const after = saved.role_name;
    if (typeof before !== 'string' || before === after) return;
    // Every user row, deleted ones too: their history names the role by its current label.
    const users = await trx.selectFrom('user').select(['user_id', 'user_role', 'modified']).where('user_role', '=', before).execute();
    await systemUpdate(trx, actor, userResource, users.map((user) => ({ id: user.user_id, before: user, set: { user_role: String(after) } })), { modified: 'stamp' });
  },

  async beforeDelete({ trx, current }) {
    const name = String(current.role_name);
    if (name === ADMIN_ROLE) throw badRequest(ROLE_MESSAGES.adminDelete);
    const row = await trx
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_role', '=', name)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    const n = row.n;
    if (n > 0) throw badRequest(ROLE_MESSAGES.inUse(name, n));
  },
};
