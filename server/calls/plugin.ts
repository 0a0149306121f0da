/**
 * `POST {DB_API_PREFIX}/:call`: looks the call up in the one call table, checks the auth key and
 * the role's areas (read from the database with the session, so a change applies to the next call),
 * and runs the handler (DESIGN §3); its answer is a JSON array or a file (`FileAnswer`).
 */
import type { FastifyInstance } from 'fastify';
import { can } from '../../lib/permissions';
import { AUTH_KEY_ERROR, MESSAGES } from '../../lib/protocol';
import { findSession } from '../auth/auth-key';
import { ApiError } from '../http/api-error';
import { sendFile } from '../http/file-reply';
import { readParams } from '../http/params';
import { isFileAnswer, type AreaOptions } from './call-table';

/** Registers the one database-API route over the call table. */
export async function callsPlugin(app: FastifyInstance, { calls, database, config }: AreaOptions): Promise<void> {
  app.post<{ Params: { call: string } }>(`${config.dbApiPrefix}/:call`, async (request, reply) => {
    const name = request.params.call;
    const def = calls.get(name);
    if (!def) throw new ApiError(404, MESSAGES.unknownCall);
    const params = readParams(request.body);
    const user = await findSession(database.db, params.authKey ?? '', config.authKeyTtlHours, undefined, database.reader);
    if (!user) throw new ApiError(401, AUTH_KEY_ERROR);
    const ctx = { call: name, params, user };
    if (def.area && !can(user.areas, def.area, def.level) && !def.allow?.(ctx)) throw new ApiError(403, MESSAGES.forbidden);
    const answer = await def.handler(ctx);
    return isFileAnswer(answer) ? sendFile(reply, answer) : answer;
  });
}
