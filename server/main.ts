/**
 * The server process: config → database → migrations → first-start seed → listen.
 * Start: `node --import tsx server/main.ts` (the npm scripts set TZ=Asia/Tokyo).
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, refreshStatistics } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { seedIfEmpty } from './seed/seed';

// Business dates are Japan dates; set before any date is computed (the npm scripts set it too).
process.env.TZ ||= 'Asia/Tokyo';

const config = loadConfig();
const database = openDatabase(config);
await migrateToLatest(database.db, database.dialect);
await seedIfEmpty(database, config);
await refreshStatistics(database);
const app = await buildApp(config, { database });
await app.listen({ port: config.port, host: config.host });

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
console.log(`宅配水 業務管理 / HOD back office: http://localhost:${port}/  (also http://localhost:${port}/dev/)`);
console.log(`Database: ${database.dialect === 'postgres' ? 'PostgreSQL' : config.sqliteFile}`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping…`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await database.close();
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
