/**
 * Staff accounts: creating them (seed, tests) and the login record of spec §3.
 */
import type { Kysely, Selectable } from 'kysely';
import type { LoginUser } from '../../lib/protocol';
import type { Database, UserTable } from '../db/schema';
import { nextStamp } from '../http/clock';
import { userResource } from '../../lib/resources/user';
import { searchText } from '../resources';
import { hashPassword } from './password';

export interface NewUser {
  email: string;
  password: string;
  name: string;
  kana?: string;
  role: string;
  team?: string;
}

/** E-mail addresses are compared in lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Creates an active user with a hashed password; returns its id.
 * @example await createUser(db, { email: 'a@example.jp', password: 'pw', name: '山田', role: '管理' })
 */
export async function createUser(db: Kysely<Database>, user: NewUser): Promise<number> {
  const stamp = nextStamp();
  const values = { user_email: normalizeEmail(user.email), user_name: user.name, user_kana: user.kana ?? '', user_team: user.team ?? '' };
  const row = await db
    .insertInto('user')
    .values({
      ...values,
      user_search: searchText(userResource, values),
      user_role: user.role,
      user_password: await hashPassword(user.password),
      user_last_login: null,
      created: stamp,
      modified: stamp,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  return row.user_id;
}

/** The login answer's user record, keys exactly as DESIGN §3 lists them. */
export function loginRecord(user: Selectable<UserTable>, authKey: string): LoginUser {
  return {
    auth_key: authKey,
    created: user.created,
    deleted: user.deleted,
    modified: user.modified,
    user_email: user.user_email,
    user_id: user.user_id,
    user_kana: user.user_kana,
    user_last_login: user.user_last_login,
    user_name: user.user_name,
    user_role: user.user_role,
  };
}
