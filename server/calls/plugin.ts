/**
 * `POST {DB_API_PREFIX}/:call`: looks the call up in the one call table, checks the auth key and
 * the role's areas (read from the database with the session, so a change applies to the next call; on
 * PostgreSQL kept between calls until a change is announced, server/auth/session-cache.ts),
 * and runs the handler (DESIGN §3); its answer is a JSON array or a file (`FileAnswer`). A call that
 * takes a file (`upload`) is sent as `multipart/form-data` and passes the same gate before its file
 * is read (server/calls/upload.ts); a multipart body to any other call is refused unread.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import { writeAudit } from '../audit/audit-log';
import { findSession, openSessionCache, type SessionCache } from '../auth';
import type { AppDatabase } from '../db/connect';
import { ApiError, badRequest, wrongAuthKey } from '../http/api-error';
import { sendFile } from '../http/file-reply';
import { logUser } from '../http/log';
import { readParams, type Params } from '../http/params';
import { isFileAnswer, type AreaOptions, type CallContext, type CallDef, type FileAnswer, type UploadCallDef } from './call-table';
import { discardBody, openUpload } from './upload';

/** The caller behind the auth key, let through the call's gate: 401 without a live key, 403 without the area. */
async function authorise(database: AppDatabase, cache: SessionCache | undefined, authKeyTtlHours: number, name: string, def: CallDef, params: Params): Promise<CallContext> {
  const user = await findSession(database.db, params.authKey ?? '', authKeyTtlHours, undefined, database.reader, cache);
  if (!user) throw wrongAuthKey();
  const ctx = { call: name, params, user };
  if (def.area && !can(user.areas, def.area, def.level) && !def.allow?.(ctx)) throw new ApiError(403, MESSAGES.forbidden);
  return ctx;
}

const answer = (reply: FastifyReply, result: unknown[] | FileAnswer) => (isFileAnswer(result) ? sendFile(reply, result) : result);

/** Registers the one database-API route over the call table. */
export async function callsPlugin(app: FastifyInstance, { calls, database, config }: AreaOptions): Promise<void> {
  // Multipart bodies are read by the call that takes them (streamed, with its limits), never parsed up front.
  await app.register(multipart, { throwFileSizeLimit: false });
  // PostgreSQL: sessions kept between calls while a change to them is announced at once (server/auth/session-cache.ts).
  const cache = database.dialect === 'postgres' && config.databaseUrl ? await openSessionCache(config.databaseUrl, (line) => app.log.warn(line)) : undefined;
  if (cache) app.addHook('onClose', () => cache.close());
  // The request's log lines name the caller (its user id, nothing else about them) from here on.
  const gate = async (request: FastifyRequest, name: string, def: CallDef, params: Params) => {
    const ctx = await authorise(database, cache, config.authKeyTtlHours, name, def, params);
    logUser(request, ctx.user.user_id);
    return ctx;
  };

  /** A call taking a file: its fields, the gate, the file to the handler, then the upload's audit row. */
  async function runUpload(request: Parameters<typeof openUpload>[0], name: string, def: UploadCallDef): Promise<unknown[] | FileAnswer> {
    if (!request.isMultipart()) {
      await gate(request, name, def, readParams(request.body));
      throw badRequest(MESSAGES.uploadMissing);
    }
    const open = await openUpload(request, def.upload);
    try {
      const ctx = await gate(request, name, def, open.params);
      const upload = open.file();
      const result = await def.handler({ ...ctx, upload });
      if (open.overLimit) throw open.refusal(undefined);
      await writeAudit(database.db, {
        userId: ctx.user.user_id,
        call: name,
        table: def.upload.auditTable,
        recordId: null,
        changes: { ファイル名: [null, upload.name], サイズ: [null, upload.size], 種類: [null, upload.type] },
      });
      return result;
    } catch (error) {
      throw open.refusal(error);
    } finally {
      open.discard();
    }
  }

  app.post<{ Params: { call: string } }>(`${config.dbApiPrefix}/:call`, async (request, reply) => {
    const name = request.params.call;
    const def = calls.get(name);
    if (!def) {
      if (request.isMultipart()) discardBody(request);
      throw new ApiError(404, MESSAGES.unknownCall);
    }
    if (def.upload) return answer(reply, await runUpload(request, name, def));
    if (request.isMultipart()) {
      discardBody(request);
      throw new ApiError(415, MESSAGES.uploadNotAccepted);
    }
    const params = readParams(request.body);
    const ctx = await gate(request, name, def, params);
    return answer(reply, await def.handler(ctx));
  });
}
