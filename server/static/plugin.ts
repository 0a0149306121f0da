/**
 * The static bundle (Next export in STATIC_DIR) under `/` and `/dev/`, the runtime
 * `config.json` built from the environment, and the answer for unknown paths.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, type RuntimeConfig } from '../../lib/protocol';
import type { AreaOptions } from '../calls/call-table';
import type { Config } from '../config';
import { staticFileHeaders } from '../http/security-headers';

/**
 * The client's runtime configuration (DESIGN §4). The client calls `{loginApi}/api/login/`, so
 * loginApi is the login prefix without its `/api/login` tail.
 * @example runtimeConfig(loadConfig({})) // { dbApi: '/api/db', loginApi: '', mapsApiKey: '' }
 */
export function runtimeConfig(config: Config): RuntimeConfig {
  return {
    dbApi: config.dbApiPrefix,
    loginApi: config.loginApiPrefix.replace(/\/api\/login$/, ''),
    mapsApiKey: config.mapsApiKey,
  };
}

/** Serves the bundle, config.json and the `/dev` redirect. */
export async function staticPlugin(app: FastifyInstance, { config }: AreaOptions): Promise<void> {
  const body = JSON.stringify(runtimeConfig(config));
  for (const path of ['/config.json', '/dev/config.json']) {
    app.get(path, (_request, reply) => reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body));
  }
  app.get('/dev', (_request, reply) => reply.redirect('/dev/', 301));
  if (!existsSync(config.staticDir)) return;
  const setHeaders = staticFileHeaders(config);
  await app.register(fastifyStatic, { root: config.staticDir, prefix: '/', index: ['index.html'], setHeaders });
  await app.register(fastifyStatic, { root: config.staticDir, prefix: '/dev/', index: ['index.html'], decorateReply: false, setHeaders });
}

/**
 * Unknown paths: API prefixes answer `[{error: unknownCall}]`; other paths get the bundle's
 * 404.html (or index.html) with status 404, or a JSON not-found when there is no bundle.
 */
export function notFoundHandler(config: Config) {
  const apiPrefixes = [config.dbApiPrefix, config.loginApiPrefix];
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const path = request.url.split('?')[0];
    const isApi = apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      for (const file of ['404.html', 'index.html']) {
        const html = await readFile(join(config.staticDir, file)).catch(() => undefined);
        if (html) return reply.code(404).type('text/html; charset=utf-8').send(html);
      }
    }
    return reply.code(404).type('application/json; charset=utf-8').send([{ error: isApi ? MESSAGES.unknownCall : MESSAGES.notFound }]);
  };
}
