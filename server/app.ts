/**
 * Builds the Fastify application: one plugin per area (server/areas.ts), each adding its calls to the one call
 * table; the calls plugin serves them under DB_API_PREFIX (DESIGN §3).
 */
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { YAYOI_LATE_HEADER } from '../lib/accounting/yayoi';
import { CSV_HEADERS, LIMITS } from '../lib/protocol';
import { registerServerAreas, SERVER_AREAS } from './areas';
import type { AreaOptions, CallTable } from './calls/call-table';
import type { Config } from './config';
import { openDatabase, type AppDatabase } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { errorHandler } from './http/error-handler';
import { formBody } from './http/form-body';
import { healthRoute } from './http/healthz';
import { createLogger, logRequests, requestIdOf, type Logger } from './http/log';
import { securityHeaders } from './http/security-headers';
import { drainConnections, followJobs, jobDeadlineOf } from './http/shutdown';
import { logFileSweepsTo } from './files';
import { notFoundHandler } from './static/plugin';
import { createJobs } from './jobs/jobs';
import { onJobAbandoned } from './jobs/abandoned';
import { removeJobFiles } from './files';

// A job whose server died may leave files half written (a batch's PDF and ZIP): whichever server's sweep fails the job
// removes them with it (server/jobs/abandoned.ts; the primary's start-up sweep too, as main.ts imports this module).
onJobAbandoned(async (job, database) => {
  await removeJobFiles(database.db, job.job_id);
});

export interface BuildOptions {
  /** An open, migrated database; without it the app opens and migrates its own and closes it on close. */
  database?: AppDatabase;
  /** The process's logger (server/http/log.ts); without it the app makes its own at `LOG_LEVEL`. */
  log?: Logger;
}

/**
 * The application, ready to `listen` (or `inject` in tests).
 * @example const app = await buildApp(loadConfig()); await app.listen({ port: 3000 })
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  registerServerAreas();
  let database = options.database;
  if (!database) {
    database = openDatabase(config);
    await migrateToLatest(database.db, database.dialect);
  }
  const log = config.logLevel === 'silent' ? undefined : (options.log ?? createLogger(config));
  if (log) logFileSweepsTo(log);
  // Typed as Fastify's logger, so the app's type does not carry pino's.
  const loggerInstance: FastifyBaseLogger | undefined = log;
  const app = Fastify({
    // JSON lines, a request id on each (server/http/log.ts); one line per request at `info`, written by logRequests.
    ...(loggerInstance ? { loggerInstance } : { logger: false }),
    genReqId: requestIdOf,
    logController: new LogController({ disableRequestLogging: true }),
    // A stop closes the idle keep-alive connections (and server/http/shutdown.ts the ones whose answer ends meanwhile).
    forceCloseConnections: 'idle',
    // A request that arrives while the app closes gets the protocol's 503 (server/http/shutdown.ts), not Fastify's.
    return503OnClosing: false,
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
  logRequests(app, log);
  drainConnections(app);
  app.addHook('onSend', securityHeaders(config));
  app.setNotFoundHandler(notFoundHandler(config));
  formBody(app);
  // A bundle served from another origin reads a download's name and counts (lib/client/api/fetcher.ts `download`).
  const exposedHeaders = ['content-disposition', ...Object.values(CSV_HEADERS), 'x-invoice-pages', 'x-invoice-reissue', 'x-invoice-sha256', YAYOI_LATE_HEADER];
  if (config.corsOrigins.length) await app.register(cors, { origin: config.corsOrigins, methods: ['GET', 'POST'], exposedHeaders });

  const calls: CallTable = new Map();
  app.decorate('callTable', calls);
  const inFlight = followJobs(await createJobs(config, database, log));
  const { jobs } = inFlight;
  // Once the requests in flight are answered and before the database closes: a stop lets the running jobs finish
  // until its deadline (server/http/shutdown.ts); then a job still running is asked to stop and rolls back.
  app.addHook('onClose', async () => {
    const deadline = jobDeadlineOf(app);
    if (deadline !== undefined && !(await inFlight.settled(deadline))) app.log.warn('stopping: a job did not finish within the limit; it is cancelled and rolls back');
    await jobs.close();
  });
  healthRoute(app, database);
  const areas: AreaOptions = { calls, database, config, jobs };
  for (const area of SERVER_AREAS) if (area.plugin) await app.register(area.plugin, areas);
  return app;
}
