/**
 * Users (lib/resources/user.ts): the role must be a live role; a new user needs a password; the
 * e-mail of a deleted user stays taken (it still names their history and the column is unique);
 * the last active 管理 user can be neither deleted, deactivated nor given another role; nobody
 * deletes themselves; deleting or deactivating a user ends their sessions, a new password ends all
 * of them but the session that set it (one's own change). What a user may change
 * on their own profile is the declaration's `owner` (checked generically in ../records.ts).
 */
import type { Transaction } from 'kysely';
import { ADMIN_ROLE } from '../../lib/permissions';
import { deleteUserKeys } from './auth-key';
import { locking, serialize } from '../db/concurrency';
import type { Database, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import type { ResourcePolicy } from '../resources';

export const USER_MESSAGES = {
  unknownRole: (role: string) => `権限「${role}」は登録されていません。権限を選び直してください。`,
  passwordRequired: 'パスワードを入力してください。',
  deletedEmail: 'このメールアドレスは削除済みのユーザーが使っていたため登録できません。別のメールアドレスを入力してください。',
  lastAdmin: `有効な「${ADMIN_ROLE}」のユーザーが他にいないため、このユーザーの権限の変更・無効化・削除はできません。先に別のユーザーを「${ADMIN_ROLE}」にしてください。`,
  deleteSelf: '自分自身のユーザーは削除できません。',
} as const;

const fieldError = (field: string, message: string) => badRequest(message, { fields: { [field]: message } });

/** Whether a stored user row is an active 管理. */
const isActiveAdmin = (row: ResourceRow): boolean => row.user_role === ADMIN_ROLE && Number(row.user_active) === 1;

/**
 * Refuses when no other live, active 管理 user exists. Demotions take turns (`serialize`): two at once of
 * the last two admins would each still see the other.
 */
async function keepAnotherAdmin(trx: Transaction<Database>, userId: number): Promise<void> {
  await serialize(trx, 'active-admins');
  const other = await trx
    .selectFrom('user')
    .select('user_id')
    .where('user_role', '=', ADMIN_ROLE)
    .where('user_active', '=', 1)
    .where('deleted', '=', 0)
    .where('user_id', '<>', userId)
    .limit(1)
    .executeTakeFirst();
  if (!other) throw badRequest(USER_MESSAGES.lastAdmin);
}

export const userPolicy: ResourcePolicy = {
  async beforeSave({ trx, id, current, columns }) {
    const role = columns.user_role;
    if (role !== undefined && role !== current?.user_role) {
      // Held until the save commits: a concurrent delete or rename of the role waits, then counts this user.
      const found = await locking(trx, trx.selectFrom('role').select('role_id').where('role_name', '=', role).where('deleted', '=', 0), 'share').executeTakeFirst();
      if (!found) throw fieldError('role', USER_MESSAGES.unknownRole(String(role)));
    }
    if (!current && !columns.user_password) throw fieldError('password', USER_MESSAGES.passwordRequired);
    const email = columns.user_email;
    if (email !== undefined && email !== current?.user_email) {
      let taken = trx.selectFrom('user').select('user_id').where('user_email', '=', String(email)).where('deleted', '=', 1);
      if (id !== undefined) taken = taken.where('user_id', '<>', id);
      if (await taken.executeTakeFirst()) throw fieldError('email', USER_MESSAGES.deletedEmail);
    }
    if (current && id !== undefined && isActiveAdmin(current) && !isActiveAdmin({ ...current, ...columns })) await keepAnotherAdmin(trx, id);
  },

  async afterSave({ trx, actor, id, current, columns, saved }) {
    if (id === undefined || !current) return;
    if (Number(current.user_active) === 1 && Number(saved.user_active) !== 1) await deleteUserKeys(trx, id);
    // A new password hash was written (an admin's reset or one's own change): every other session ends.
    else if (columns.user_password !== undefined) await deleteUserKeys(trx, id, actor.user?.user_id === id ? actor.user.keyHash : undefined);
  },

  async beforeDelete({ trx, actor, id, current }) {
    if (id === actor.userId) throw badRequest(USER_MESSAGES.deleteSelf);
    if (isActiveAdmin(current)) await keepAnotherAdmin(trx, id);
  },

  async afterDelete({ trx, id }) {
    await deleteUserKeys(trx, id);
  },
};
