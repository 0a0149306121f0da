/**
 * The server: config → database → migrations → first-start seed → jobs of a dead server failed (once, in the
 * primary process; then every server process sweeps them, server/jobs/abandoned.ts) → the
 * server processes (`WEB_CONCURRENCY`, server/cluster.ts), each with its own database connection, listening.
 * Start: `node --import tsx server/main.ts` (the npm scripts set TZ=Asia/Tokyo).
 */
import cluster from 'node:cluster';
import { buildApp } from './app';
import { runWorkers } from './cluster';
import { loadConfig } from './config';
import { databaseUnavailable, openDatabase, refreshStatistics } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { moveDiskFiles } from './disk-files';
import { createLogger } from './http/log';
import { stopApp } from './http/shutdown';
import { sweepAbandonedJobs } from './jobs/abandoned';
import { openJobDatabase } from './jobs/job-db';
import { seedIfEmpty } from './seed/seed';

// Business dates are Japan dates; set before any date is computed (the npm scripts set it too).
process.env.TZ ||= 'Asia/Tokyo';

const config = loadConfig();
// JSON lines on stdout (server/http/log.ts); the two lines saying where the server listens stay plain.
const log = createLogger(config);
// A failure nothing caught still ends the process (a worker is started again), but as a log line — except a database
// connection that ended where no listener had it (a pool other than postgresPool's): its query failed on its own, the
// pool drops the connection, and the process goes on.
process.on('uncaughtException', (error) => {
  if (databaseUnavailable(error)) {
    log.warn({ err: error }, 'PostgreSQL: a connection ended');
    return;
  }
  log.fatal({ err: error }, 'uncaught exception');
  process.exit(1);
});
if (cluster.isPrimary) {
  const database = openDatabase(config);
  await migrateToLatest(database.db, database.dialect);
  // Files an older server kept under DATA_DIR go into the database (server/disk-files.ts).
  await moveDiskFiles(database.db, config.dataDir);
  await seedIfEmpty(database, config);
  await refreshStatistics(database);
  // Jobs a dead server left 'running' are failed (their transaction never committed): this host's whose process is
  // gone, another host's only once its heartbeat is a minute old. A worker that dies later is the others' to sweep.
  const jobStore = await openJobDatabase(config, log);
  await sweepAbandonedJobs(jobStore, database, log);
  await jobStore.close();
  await database.close();
}
const port = await runWorkers(config.workers, async () => {
  const database = openDatabase(config, log);
  const app = await buildApp(config, { database, log });
  await app.listen({ port: config.port, host: config.host });
  return {
    app,
    close: async (deadline) => {
      await stopApp(app, deadline);
      await database.close();
    },
  };
}, { shutdownTimeoutMs: config.shutdownTimeoutMs, log });
if (cluster.isPrimary) {
  console.log(`宅配水 業務管理 / HOD back office: http://localhost:${port}/  (also http://localhost:${port}/dev/)`);
  console.log(`Database: ${config.dialect === 'postgres' ? 'PostgreSQL' : config.sqliteFile} · ${config.workers} server process${config.workers === 1 ? '' : 'es'}`);
}
