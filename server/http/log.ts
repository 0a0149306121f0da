/**
 * The server's log: JSON lines on stdout (pino, the logger Fastify is built on), one per event, each with its level,
 * time, pid and host; a request's lines carry its id (`reqId`: the incoming `x-request-id` when it is a sane token,
 * else a new UUID, echoed in the answer's `x-request-id`) and, once its auth key is checked, the user's id (`userId`).
 * Nothing else about a person is logged: no request bodies (form fields, passwords, auth keys, e-mail addresses,
 * names), no headers, no query strings, no client addresses, and of an error only its type, message, code, the
 * schema names PostgreSQL gives and its stack — never the row values PostgreSQL puts in `detail`.
 * At `LOG_LEVEL=info` every request is one line (`request`: method, path, status, ms, userId); the default `warn` logs
 * only failures (a 5xx with its error) and the process's own events (a stop, a worker ended, a lost database connection).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import type { Config } from '../config';

export type { Logger } from 'pino';

/** Where a process's own events are written: its pino logger (`createLogger`), or `CONSOLE_LOG` in scripts. */
export interface ProcessLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The console, for code run outside the server (scripts, benchmarks) that is given no logger. */
export const CONSOLE_LOG: ProcessLog = {
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) => console.error(message, fields),
};

/** An incoming request id is kept when it is a token like a UUID or a proxy's trace id; anything else is replaced. */
const SANE_REQUEST_ID = /^[\w.:=+/-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The id of a request: the `x-request-id` a proxy or client sent when sane, else a new UUID (Fastify's `genReqId`).
 * @example requestIdOf({ headers: { 'x-request-id': 'lb-7f3a' } }) // 'lb-7f3a'
 */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** A path without its query string (a query may carry anything a client typed). */
export const pathOf = (url: string | undefined): string => (url ?? '').split('?')[0];

/** What is logged of an error: no `detail` (PostgreSQL puts row values there), no parameters, no own fields. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { type: error.name, message: error.message };
  for (const key of ['code', 'statusCode', 'table', 'column', 'constraint', 'routine'] as const) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  fields.stack = error.stack;
  if (error.cause !== undefined) fields.cause = errorFields(error.cause);
  return fields;
}

/** Headers and fields that are never written even if a line names them (defence in depth: none is logged on purpose). */
const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["set-cookie"]', 'req.headers["x-api-key"]', 'req.body', 'req.query',
  'res.headers["set-cookie"]', 'authKey', 'auth_key', 'password', 'userPassword', 'userEmail', 'email', 'body', 'params',
];

/**
 * The process's logger at `LOG_LEVEL` (`silent`: nothing). Fastify logs through it too (`buildApp`).
 * @example const log = createLogger(config); log.warn({ signal }, 'stopping')
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: {
      req: (request: { method?: string; url?: string }) => ({ method: request.method, url: pathOf(request.url) }),
      res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
      err: errorFields,
    },
  });
}

/** Notes the caller of a request once its auth key is known: its id goes on the request's log lines from here on. */
export function logUser(request: FastifyRequest, userId: number): void {
  request.log = request.log.child({ userId });
}

/**
 * Echoes the request id in every answer and, when the logger is at `info` or finer, logs one line per answered request.
 * @example logRequests(app, log)
 */
export function logRequests(app: FastifyInstance, log: Logger | undefined): void {
  const everyRequest = log?.isLevelEnabled('info') ?? false;
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    return payload;
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!everyRequest) return;
    request.log.info({ method: request.method, url: pathOf(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  });
}
