/**
 * Test set-up on the SQLite file of this worker's e2e server (the server is real; only the preconditions
 * a user could not create from the screens yet are written here).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { hashPassword } from '../../server/auth/password';
import { jobFileOf } from '../../server/jobs/job-db';
import { E2E } from '../../playwright.config';

function open() {
  const db = new Database(join(E2E.dataDir, 'app.db'));
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Sets a demo staff member's password (the seed prints a generated one only once). */
export async function setPassword(email: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  const db = open();
  try {
    db.prepare('UPDATE user SET user_password = ? WHERE user_email = ?').run(hash, email);
  } finally {
    db.close();
  }
}

/** Makes every auth key of the user expire now, as if the session had timed out. */
export function expireKeys(email: string): void {
  const db = open();
  try {
    db.prepare('UPDATE auth_key SET ak_expires = ? WHERE ak_user_id = (SELECT user_id FROM user WHERE user_email = ?)')
      .run(new Date(Date.now() - 60_000).toISOString(), email);
  } finally {
    db.close();
  }
}

/**
 * One row of a read-only query on the e2e database (e.g. a seeded record a test works with).
 * @example readRow<{ cl_id: number }>('SELECT cl_id FROM client WHERE deleted = 0 LIMIT 1')
 */
export function readRow<T>(query: string, ...params: (string | number)[]): T {
  const db = open();
  try {
    const row = db.prepare(query).get(...params) as T | undefined;
    if (!row) throw new Error(`no row for ${query}`);
    return row;
  } finally {
    db.close();
  }
}

/**
 * Writes to the e2e database what no screen may create (a value a master no longer offers, as an
 * import or an older version left it).
 * @example writeRows('UPDATE client SET cl_area = ? WHERE cl_id = ?', 'A99', 3)
 */
export function writeRows(query: string, ...params: (string | number)[]): void {
  const db = open();
  try {
    db.prepare(query).run(...params);
  } finally {
    db.close();
  }
}

/**
 * Runs a statement on the e2e server's job store (SQLite keeps jobs in a file of their own, server/jobs/job-db.ts):
 * a job another server process or user runs, as the screens watch it.
 * @example writeJob('UPDATE job SET job_done = ? WHERE job_id = ?', 10, 3)
 */
export function writeJob(statement: string, ...params: (string | number)[]): number {
  const db = new Database(jobFileOf(join(E2E.dataDir, 'app.db')));
  db.pragma('busy_timeout = 5000');
  try {
    return Number(db.prepare(statement).run(...params).lastInsertRowid);
  } finally {
    db.close();
  }
}
