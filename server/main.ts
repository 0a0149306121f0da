/**
 * The server: config → database → migrations → first-start seed → jobs of a dead server failed (once, in the
 * primary process) → the
 * server processes (`WEB_CONCURRENCY`, server/cluster.ts), each with its own database connection, listening.
 * Start: `node --import tsx server/main.ts` (the npm scripts set TZ=Asia/Tokyo).
 */
import cluster from 'node:cluster';
import { buildApp } from './app';
import { runWorkers } from './cluster';
import { loadConfig } from './config';
import { openDatabase, refreshStatistics } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { moveDiskFiles } from './disk-files';
import { openJobDatabase, type JobDatabase } from './jobs/job-db';
import { failAbandonedJobs } from './jobs/jobs';
import { seedIfEmpty } from './seed/seed';

// Business dates are Japan dates; set before any date is computed (the npm scripts set it too).
process.env.TZ ||= 'Asia/Tokyo';

const config = loadConfig();
let jobStore: JobDatabase | undefined;
if (cluster.isPrimary) {
  const database = openDatabase(config);
  await migrateToLatest(database.db, database.dialect);
  // Files an older server kept under DATA_DIR go into the database (server/disk-files.ts).
  await moveDiskFiles(database.db, config.dataDir);
  await seedIfEmpty(database, config);
  await refreshStatistics(database);
  await database.close();
  // Jobs a dead server left 'running' are failed (their transaction never committed); the primary keeps the store
  // open to do the same for a worker that dies while it runs one.
  jobStore = await openJobDatabase(config);
  await failAbandonedJobs(jobStore.db);
  if (config.workers <= 1) await jobStore.close();
}
const onWorkerExit = jobStore && config.workers > 1 ? (pid: number) => failAbandonedJobs(jobStore.db, [pid]) : undefined;
const port = await runWorkers(config.workers, async () => {
  const database = openDatabase(config);
  const app = await buildApp(config, { database });
  await app.listen({ port: config.port, host: config.host });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}, onWorkerExit);
if (cluster.isPrimary) {
  console.log(`宅配水 業務管理 / HOD back office: http://localhost:${port}/  (also http://localhost:${port}/dev/)`);
  console.log(`Database: ${config.dialect === 'postgres' ? 'PostgreSQL' : config.sqliteFile} · ${config.workers} server process${config.workers === 1 ? '' : 'es'}`);
}
