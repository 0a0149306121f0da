/**
 * Prepares a SQLite benchmark database once (for profiling the server by hand):
 * `node --import tsx bench/prepare-db.ts DIR` seeds BENCH_ROWS customers into DIR/app.db and the bench
 * admin user; then run `DATA_DIR=DIR node --cpu-prof --import tsx bench/bench-server.ts`.
 */
import { join } from 'node:path';
import { createUser } from '../server/auth/users';
import { openDatabase, refreshStatistics } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { seedSyntheticClients } from '../server/seed/seed';

const dir = process.argv[2];
if (!dir) throw new Error('usage: prepare-db.ts DIR');
const database = openDatabase({ dialect: 'sqlite', databaseUrl: '', sqliteFile: join(dir, 'app.db') });
await migrateToLatest(database.db, 'sqlite');
await createUser(database.db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
await seedSyntheticClients(database.db, Number(process.env.BENCH_ROWS ?? 100_000));
await refreshStatistics(database, { full: true });
await database.close();
