/**
 * Every failure becomes `[{ error: <Japanese message> }]` with its HTTP status; internal text and
 * stacks are logged, never answered (DESIGN §3).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../lib/protocol';
import { databaseUnavailable } from '../db/connect';
import { ApiError } from './api-error';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function answerOf(error: FastifyError | ApiError | Error): Answer {
  if (error instanceof ApiError) return { status: error.status, body: { error: error.message, ...error.extra } };
  // The database is unreachable (a lost connection, a failover): try again later, the process goes on.
  if (databaseUnavailable(error)) return { status: 503, body: { error: MESSAGES.unavailable } };
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  const code = 'code' in error ? error.code : '';
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, body: { error: MESSAGES.tooLarge } };
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, body: { error: MESSAGES.badRequest } };
  if (code === 'FST_ERR_BAD_URL') return { status: 400, body: { error: MESSAGES.badUrl } };
  // A call name longer than any call: no such call.
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return { status: 404, body: { error: MESSAGES.unknownCall } };
  if (status >= 400 && status < 500) return { status: status === 404 ? 404 : 400, body: { error: status === 404 ? MESSAGES.notFound : MESSAGES.badRequest } };
  return { status: 500, body: { error: MESSAGES.internal } };
}

/** Fastify error handler: maps any error to the `[{error}]` answer. */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = answerOf(error);
  if (status >= 500) request.log.error({ err: error }, 'internal error');
  return reply.code(status).type('application/json; charset=utf-8').send([body]);
}
