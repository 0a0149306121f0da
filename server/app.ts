/**
 * Builds the Fastify application: one plugin per area, each adding its calls to the one call
 * table; the calls plugin serves them under DB_API_PREFIX (DESIGN §3).
 */
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { YAYOI_LATE_HEADER } from '../lib/accounting/yayoi';
import { CSV_HEADERS, LIMITS } from '../lib/protocol';
import { authPlugin } from './auth/plugin';
import type { AreaOptions, CallTable } from './calls/call-table';
import { callsPlugin } from './calls/plugin';
import type { Config } from './config';
import { openDatabase, type AppDatabase } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { errorHandler } from './http/error-handler';
import { formBody } from './http/form-body';
import { securityHeaders } from './http/security-headers';
import { mailPlugin } from './mail/plugin';
import { postalPlugin } from './postal/plugin';
import { masterPlugin } from './master/plugin';
import { ordersPlugin } from './orders/plugin';
import { clientsPlugin } from './clients/plugin';
import { exportsPlugin } from './exports/plugin';
import { salesPlugin } from './sales/plugin';
import { closingPlugin } from './closing/plugin';
import { billingPlugin } from './billing/plugin';
import { accountingPlugin } from './accounting/plugin';
import { downloadPlugin } from './download/plugin';
import { noticePlugin } from './notice/plugin';
import { jaccsPlugin } from './jaccs/plugin';
import { resourcesPlugin } from './resources/plugin';
import { searchPlugin } from './search/plugin';
import { notFoundHandler, staticPlugin } from './static/plugin';
import { serversPlugin } from './servers/plugin';
import { stockPlugin } from './stock/plugin';
import { hodPlugin } from './hod/plugin';
import { createJobs } from './jobs/jobs';
import { jobsPlugin } from './jobs/plugin';
import { importsPlugin } from './imports/plugin';

export interface BuildOptions {
  /** An open, migrated database; without it the app opens and migrates its own and closes it on close. */
  database?: AppDatabase;
}

/**
 * The application, ready to `listen` (or `inject` in tests).
 * @example const app = await buildApp(loadConfig()); await app.listen({ port: 3000 })
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  let database = options.database;
  if (!database) {
    database = openDatabase(config);
    await migrateToLatest(database.db, database.dialect);
  }
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: LIMITS.maxBodyBytes,
    trustProxy: config.trustProxy,
    // Errors Fastify meets before routing (a malformed URL, an over-long call name) get the protocol's answer too.
    frameworkErrors: (error, request, reply) => void errorHandler(error, request, reply),
  });
  if (!options.database) {
    const owned = database;
    app.addHook('onClose', () => owned.close());
  }
  app.setErrorHandler(errorHandler);
  app.addHook('onSend', securityHeaders(config));
  app.setNotFoundHandler(notFoundHandler(config));
  formBody(app);
  // A bundle served from another origin reads a download's name and counts (lib/client/api/fetcher.ts `download`).
  const exposedHeaders = ['content-disposition', ...Object.values(CSV_HEADERS), 'x-invoice-pages', 'x-invoice-reissue', YAYOI_LATE_HEADER];
  if (config.corsOrigins.length) await app.register(cors, { origin: config.corsOrigins, methods: ['GET', 'POST'], exposedHeaders });

  const calls: CallTable = new Map();
  app.decorate('callTable', calls);
  const jobs = await createJobs(config, database);
  // Before the database closes: a running job is asked to stop and rolls back.
  app.addHook('preClose', () => jobs.close());
  const areas: AreaOptions = { calls, database, config, jobs };
  await app.register(authPlugin, areas);
  await app.register(resourcesPlugin, areas);
  await app.register(searchPlugin, areas);
  await app.register(masterPlugin, areas);
  await app.register(mailPlugin, areas);
  await app.register(postalPlugin, areas);
  await app.register(stockPlugin, areas);
  await app.register(serversPlugin, areas);
  await app.register(jobsPlugin, areas);
  await app.register(hodPlugin, areas);
  await app.register(salesPlugin, areas);
  await app.register(closingPlugin, areas);
  await app.register(billingPlugin, areas);
  await app.register(accountingPlugin, areas);
  await app.register(downloadPlugin, areas);
  await app.register(noticePlugin, areas);
  await app.register(jaccsPlugin, areas);
  await app.register(ordersPlugin, areas);
  await app.register(clientsPlugin, areas);
  await app.register(importsPlugin, areas);
  await app.register(exportsPlugin, areas);
  await app.register(callsPlugin, areas);
  await app.register(staticPlugin, areas);
  return app;
}
