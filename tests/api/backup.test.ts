/**
 * `npm run backup` / `npm run restore FILE` (scripts/backup.ts, scripts/restore.ts; server/db/backup.ts, restore.ts)
 * against the real server (server/main.ts in a process) on each dialect: a backup taken while customers are being
 * saved, restored over the stopped server's newer data and into an empty database, holds every save acknowledged before
 * the backup began and none begun after it ended; the migrations are those of the code. A damaged backup (a byte
 * changed, cut short), one of the other dialect or of a newer version, and a restore while the database is in use are
 * refused with their Japanese message and change nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { BACKUP_MESSAGES } from '../../lib/backup/messages';
import { loadConfig, type DialectName } from '../../server/config';
import { sha256Of, type BackupManifest } from '../../server/db/backup';
import { MIGRATION_NAMES } from '../../server/db/migrate';
import { restoreDatabase } from '../../server/db/restore';
import { dialects } from './harness';
import { builtServer, startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'backup@example.jp', password: 'backup-password-2026' };
const PREFIX = '負荷保存商事';
const UNCHANGED = /復元していません（データベースは変更していません）。/;

/**
 * Runs the built scripts/{name}.ts (beside the built server, scripts/build-server.mjs) as `npm run {name}` does, with a
 * server's environment; its exit code and output.
 */
function runScript(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', join(dirname(builtServer()), `${name}.js`), ...args], {
      env: { ...process.env, TZ: 'Asia/Tokyo', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const until = async (condition: () => boolean, what: string, ms = 60_000): Promise<void> => {
  for (const deadline = Date.now() + ms; !condition();) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** The customers of a database whose name starts with PREFIX, and its migrations (read without a server). */
async function contentOf(dialect: DialectName, where: { dataDir: string; databaseUrl: string }): Promise<{ names: Set<string>; migrations: string[] }> {
  const clients = `SELECT cl_co_name AS name FROM client WHERE cl_co_name LIKE '${PREFIX}%'`;
  const migrations = 'SELECT name FROM kysely_migration ORDER BY name';
  if (dialect === 'sqlite') {
    const database = new SQLite(join(where.dataDir, 'app.db'), { readonly: true, fileMustExist: true });
    try {
      return {
        names: new Set(database.prepare(clients).pluck().all() as string[]),
        migrations: database.prepare(migrations).pluck().all() as string[],
      };
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: where.databaseUrl });
  await client.connect();
  try {
    return {
      names: new Set((await client.query<{ name: string }>(clients)).rows.map((r) => r.name)),
      migrations: (await client.query<{ name: string }>(migrations)).rows.map((r) => r.name),
    };
  } finally {
    await client.end();
  }
}

/** An empty place to restore into: a new data folder, or a new PostgreSQL database without even a table. */
async function emptyTarget(dialect: DialectName): Promise<{ dataDir: string; databaseUrl: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hod-restore-'));
  if (dialect === 'sqlite') return { dataDir, databaseUrl: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `hod_test_restore_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

for (const dialect of dialects()) {
  describe(`backup and restore (${dialect})`, () => {
    let server: ServerProcess | undefined;
    let restored: ServerProcess | undefined;
    let empty: Awaited<ReturnType<typeof emptyTarget>> | undefined;
    const backupDir = mkdtempSync(join(tmpdir(), 'hod-backups-'));
    let manifestFile = '';
    /** Saves acknowledged before the backup began, and saves begun after it ended (their names). */
    let acknowledgedBefore: string[] = [];
    let begunAfter: string[] = [];

    before(async () => {
      server = await startServerProcess(dialect, ADMIN, 1);
      empty = await emptyTarget(dialect);
    });

    after(async () => {
      await restored?.close();
      await server?.close();
      await empty?.drop();
      rmSync(backupDir, { recursive: true, force: true });
    });

    const envOf = (where: { dataDir: string; databaseUrl: string }) => ({ DATA_DIR: where.dataDir, DATABASE_URL: where.databaseUrl, BACKUP_DIR: backupDir });

    it('takes a backup while customers are being saved', async () => {
      const login = await server!.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(login.status, 200, login.text);
      const authKey = String(login.body[0].auth_key);
      const saves: { name: string; started: number; acknowledged?: number }[] = [];
      let stop = false;
      let next = 0;
      const writer = async () => {
        while (!stop) {
          const save = { name: `${PREFIX}${++next}`, started: performance.now(), acknowledged: undefined as number | undefined };
          saves.push(save);
          const answer = await server!.post('/api/db/client_save', { authKey, postData: JSON.stringify({ co_name: save.name, tel_1: '03-1234-5678', status: '1' }) });
          assert.equal(answer.status, 200, answer.text);
          save.acknowledged = performance.now();
        }
      };
      const writers = [writer(), writer()];
      await until(() => saves.filter((s) => s.acknowledged).length >= 20, 'twenty saves acknowledged before the backup');
      const began = performance.now();
      const backup = await runScript('backup', [], envOf(server!));
      const ended = performance.now();
      assert.equal(backup.code, 0, backup.out);
      await until(() => saves.some((s) => s.started > ended && s.acknowledged), 'a save begun after the backup ended');
      stop = true;
      await Promise.all(writers);

      acknowledgedBefore = saves.filter((s) => s.acknowledged! < began).map((s) => s.name);
      begunAfter = saves.filter((s) => s.started > ended).map((s) => s.name);
      assert.ok(acknowledgedBefore.length >= 20);
      assert.ok(saves.some((s) => s.started > began && s.acknowledged! < ended), 'saves went on while the backup ran');

      manifestFile = /バックアップしました: (\S+\.json)/.exec(backup.out)?.[1] ?? '';
      assert.ok(existsSync(manifestFile), backup.out);
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
      assert.equal(manifest.dialect, dialect);
      assert.match(basename(manifestFile), new RegExp(`^hod-${dialect}-\\d{8}T\\d{6}Z\\.json$`));
      assert.deepEqual(new Set(manifest.migrations), new Set(MIGRATION_NAMES));
      assert.deepEqual(manifest.files.map((f) => f.role).sort(), dialect === 'sqlite' ? ['database', 'jobs'] : ['database']);
      for (const file of manifest.files) assert.equal(await sha256Of(join(backupDir, file.name)), file.sha256);
      // Only the finished backup's files are left (no part of one).
      assert.deepEqual(readdirSync(backupDir).sort(), [...manifest.files.map((f) => f.name), basename(manifestFile)].sort());
    });

    it('refuses to restore while the database is in use, and changes nothing', async () => {
      const config = loadConfig(envOf(server!));
      const names = (await contentOf(dialect, server!)).names.size;
      // A running SQLite server keeps the file open; on PostgreSQL a connection of a server (its pool drops idle ones).
      const connection = dialect === 'postgres' ? new pg.Client({ connectionString: server!.databaseUrl }) : undefined;
      await connection?.connect();
      try {
        await assert.rejects(restoreDatabase(config, manifestFile), (error: Error) => {
          assert.match(error.message, dialect === 'sqlite' ? /サーバーが動いています/ : /ほかの接続が \d+ 件あります/);
          assert.match(error.message, UNCHANGED);
          return true;
        });
      } finally {
        await connection?.end();
      }
      assert.equal((await contentOf(dialect, server!)).names.size, names);
      if (dialect === 'sqlite') assert.deepEqual(readdirSync(server!.dataDir).filter((f) => f.includes('restor')), []);
    });

    it('restores over the stopped server\'s newer data: every save acknowledged before the backup began, none begun after it ended', async () => {
      const stopped = new Promise((resolve) => server!.child.on('exit', resolve));
      server!.child.kill('SIGTERM');
      await stopped;
      const restore = await runScript('restore', [manifestFile], envOf(server!));
      assert.equal(restore.code, 0, restore.out);
      assert.match(restore.out, /復元しました/);
      if (dialect === 'sqlite') assert.match(restore.out, /復元前のデータは .*app\.db\.before-restore-\d{8}T\d{6}Z/);

      restored = await startServerProcess(dialect, ADMIN, 1, { on: server });
      server = undefined;
      const login = await restored.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(login.status, 200, login.text);
      const authKey = String(login.body[0].auth_key);
      const count = await restored.post('/api/db/client_cnt', { authKey, kw: PREFIX });
      assert.equal(count.status, 200, count.text);
      const seen = new Set<string>();
      for (let p = 1; seen.size < Number(count.body[0]); p++) {
        const page = await restored.post('/api/db/client_lst', { authKey, kw: PREFIX, n: '1000', p: String(p) });
        assert.equal(page.status, 200, page.text);
        assert.ok(page.body.length > 0, 'the list pages reach the count');
        for (const row of page.body) seen.add(String(row.cl_co_name));
      }
      assert.deepEqual(acknowledgedBefore.filter((name) => !seen.has(name)), [], 'every save acknowledged before the backup began is there');
      assert.deepEqual(begunAfter.filter((name) => seen.has(name)), [], 'no save begun after the backup ended is there');
      assert.deepEqual(new Set((await contentOf(dialect, restored)).migrations), new Set(MIGRATION_NAMES));
    });

    it('restores into an empty data folder or database', async () => {
      // Named by its data file rather than its manifest; in this process (the script's run is shown above).
      const { keptAside } = await restoreDatabase(loadConfig(envOf(empty!)), manifestFile.replace(/\.json$/, dialect === 'sqlite' ? '.db' : '.dump'));
      assert.deepEqual(keptAside, []);
      const content = await contentOf(dialect, empty!);
      assert.deepEqual(acknowledgedBefore.filter((name) => !content.names.has(name)), []);
      assert.deepEqual(new Set(content.migrations), new Set(MIGRATION_NAMES));
      if (dialect === 'sqlite') assert.ok(existsSync(join(empty!.dataDir, 'app-jobs.db')), 'the jobs\' file comes back beside the database');
    });

    it('refuses a damaged backup, one of the other dialect or of a newer version, and changes nothing', async () => {
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
      const data = manifest.files.find((f) => f.role === 'database')!;
      const damagedDir = mkdtempSync(join(tmpdir(), 'hod-damaged-'));
      const copy = () => {
        for (const file of [...manifest.files.map((f) => f.name), basename(manifestFile)]) copyFileSync(join(backupDir, file), join(damagedDir, file));
        return { manifest: join(damagedDir, basename(manifestFile)), data: join(damagedDir, data.name) };
      };
      const beforehand = await contentOf(dialect, empty!);
      const fingerprint = async () => (dialect === 'sqlite' ? await sha256Of(join(empty!.dataDir, 'app.db')) : '');
      const print = await fingerprint();
      try {
        // One byte changed: the npm script says so in Japanese and fails.
        const flipped = copy();
        const bytes = readFileSync(flipped.data);
        bytes[Math.floor(bytes.length / 2)] ^= 0x01;
        writeFileSync(flipped.data, bytes);
        const refused = await runScript('restore', [flipped.manifest], envOf(empty!));
        assert.equal(refused.code, 1, refused.out);
        assert.equal(refused.out.trim(), BACKUP_MESSAGES.checksumMismatch(data.name));
        assert.match(refused.out, UNCHANGED);

        const config = loadConfig(envOf(empty!));
        const refuses = async (file: string, message: RegExp, target = config) =>
          assert.rejects(restoreDatabase(target, file), (error: Error) => {
            assert.match(error.message, message);
            assert.match(error.message, UNCHANGED);
            return true;
          });
        // Cut short.
        const cut = copy();
        truncateSync(cut.data, Math.floor(data.size / 2));
        await refuses(cut.data, /途中で切れています/);
        // The manifest damaged, or missing.
        const broken = copy();
        writeFileSync(broken.manifest, readFileSync(broken.manifest, 'utf8').slice(0, 100));
        await refuses(broken.manifest, /目録.*壊れています/);
        rmSync(broken.manifest);
        await refuses(broken.data, /目録.*見つかりません/);
        // Of a version whose migrations this code does not know.
        const newer = copy();
        writeFileSync(newer.manifest, JSON.stringify({ ...manifest, migrations: [...manifest.migrations, '9999-from-the-future'] }));
        await refuses(newer.manifest, /新しい版で作られています.*9999-from-the-future/);
        // Of the other dialect.
        const other = dialect === 'sqlite'
          ? loadConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
          : loadConfig({ DATA_DIR: empty!.dataDir });
        await refuses(manifestFile, dialect === 'sqlite' ? /SQLite のものですが、設定されているデータベースは PostgreSQL です/ : /PostgreSQL のものですが、設定されているデータベースは SQLite です/, other);
      } finally {
        rmSync(damagedDir, { recursive: true, force: true });
      }
      const afterwards = await contentOf(dialect, empty!);
      assert.deepEqual(afterwards.names, beforehand.names);
      assert.deepEqual(afterwards.migrations, beforehand.migrations);
      assert.equal(await fingerprint(), print);
    });
  });
}
