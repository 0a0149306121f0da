/**
 * The login API (`POST {LOGIN_API_PREFIX}/`, DESIGN §3), the `logout` call and `role_mine` (the
 * caller's role and areas).
 * Failed logins make their account, address and pair wait a growing delay (429 with the seconds to
 * wait, before the password is checked; ./rate-limit.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MESSAGES, type RoleMine } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';
import { readParams } from '../http/params';
import { deleteAuthKey, issueAuthKey } from './auth-key';
import { DUMMY_HASH, verifyPassword } from './password';
import { beginAttempt, loginSucceeded } from './rate-limit';
import { loginRecord, normalizeEmail } from './users';
import { nowIso } from '../http/clock';

const MAX_CREDENTIAL = 254;

function loginError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send([{ errors: [{ message }] }]);
}

/** Registers the login route and the logout call. */
export async function authPlugin(app: FastifyInstance, { calls, database, config }: AreaOptions): Promise<void> {
  const { db } = database;

  const login = async (request: { body: unknown; ip: string }, reply: FastifyReply) => {
    const params = readParams(request.body);
    const email = normalizeEmail(params.userEmail ?? '');
    const password = params.userPassword ?? '';
    if (!email || !password) return loginError(reply, 400, MESSAGES.loginMissing);
    if (email.length > MAX_CREDENTIAL || password.length > MAX_CREDENTIAL) return loginError(reply, 401, MESSAGES.loginFailed);
    const attempt = await beginAttempt(db, { email, address: request.ip });
    if (!attempt.ok) return loginError(reply.header('retry-after', String(attempt.waitSeconds)), 429, MESSAGES.loginDelayed(attempt.waitSeconds));

    const user = await db
      .selectFrom('user')
      .selectAll()
      .where('user_email', '=', email)
      .where('deleted', '=', 0)
      .where('user_active', '=', 1)
      .executeTakeFirst();
    const ok = await verifyPassword(password, user?.user_password ?? DUMMY_HASH);
    if (!user || !ok) return loginError(reply, 401, MESSAGES.loginFailed);
    await loginSucceeded(db, attempt);
    const now = nowIso();
    await db.updateTable('user').set({ user_last_login: now }).where('user_id', '=', user.user_id).execute();
    const authKey = await issueAuthKey(db, user.user_id, config.authKeyTtlHours);
    return reply.send([loginRecord({ ...user, user_last_login: now }, authKey)]);
  };

  app.post(`${config.loginApiPrefix}/`, login);
  app.post(config.loginApiPrefix, login);

  // The caller's role and its areas, as the server checks them (the client builds its menus from this).
  addCall(calls, 'role_mine', {
    handler: async ({ user }) => {
      const answer: RoleMine = { user_id: user.user_id, user_name: user.user_name, user_role: user.user_role, areas: user.areas };
      return [answer];
    },
  });

  addCall(calls, 'logout', {
    handler: async ({ user }) => {
      await deleteAuthKey(db, user.keyHash);
      return [{ ok: true }];
    },
  });
}
