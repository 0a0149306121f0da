/**
 * First-start seed (DESIGN §1): when there is no user yet, creates the admin account and — unless
 * SEED=0 — a demo company: staff of every role, master tables, 320 customers and their orders.
 * Generated passwords are printed once.
 */
import { numberOrder } from '../resources/policies/order';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ADMIN_ROLE } from '../../lib/permissions';
import { clientResource } from '../../lib/resources/client';
import { agreementResource } from '../../lib/resources/agreement';
import { contactResource } from '../../lib/resources/contact';
import { dailyResource } from '../../lib/resources/daily';
import { mailTemplateResource } from '../../lib/resources/mail-template';
import { masterOptionResource } from '../../lib/resources/master-option';
import { orderResource } from '../../lib/resources/order';
import { reportResource } from '../../lib/resources/report';
import { createUser } from '../auth/users';
import type { Config } from '../config';
import type { AppDatabase } from '../db/connect';
import type { Database } from '../db/schema';
import { nextStamp } from '../http/clock';
import { searchText } from '../resources/columns';
import { bulkInsert } from './bulk-insert';
import { MASTER_TABLES, SEED_USERS, generateClients, generateOrders, type SeedClient } from './data/generate';
import { generateAgreements, generateContacts, generateDailies, generateReports, type SeedStaff } from './data/generate-crm';
import { SEED_MAIL_TEMPLATES } from './data/mail-templates';
import { seedDeliveryRounds } from './hod';
import { seedStock } from './stock';

export const DEFAULT_ADMIN_EMAIL = 'admin@example.jp';
export const DEMO_CLIENTS = 320;
export const DEMO_ORDERS = 1200;
export const DEMO_CONTACTS = 400;
export const DEMO_REPORTS = 160;

/** A readable random password (16 characters, base64url). */
export const generatePassword = (): string => randomBytes(12).toString('base64url');

/** Display width in a terminal: East Asian wide characters take two columns. */
const width = (text: string): number => [...text].reduce((n, ch) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1), 0);

/**
 * A framed box of lines for the console.
 * @example box(['初回起動 / First start'])
 */
export function box(lines: readonly string[]): string {
  const inner = Math.max(...lines.map(width));
  const pad = (line: string) => `║ ${line}${' '.repeat(inner - width(line))} ║`;
  return [`╔${'═'.repeat(inner + 2)}╗`, ...lines.map(pad), `╚${'═'.repeat(inner + 2)}╝`].join('\n');
}

/** Writes every `mt_*` table of the demo data into master_option. */
export async function seedMasters(db: Kysely<Database>): Promise<void> {
  const stamp = nextStamp();
  const rows = Object.entries(MASTER_TABLES).flatMap(([table, options]) =>
    options.map((o, i) => {
      const row = { mo_table: table, mo_value: o.value, mo_text: o.text, mo_flg: o.flg ?? 0, mo_sort: (i + 1) * 10 };
      return { ...row, mo_search: searchText(masterOptionResource, row), created: stamp, modified: stamp };
    }),
  );
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200) await trx.insertInto('master_option').values(rows.slice(i, i + 200)).execute();
  });
}

/**
 * A record's creation time from one of its dates, JST 10:00 (older records look older); `fallback` when it has none.
 * @example createdOnDay('contract_date', now)({ contract_date: '2024-04-01' }) // '2024-04-01T01:00:00.000Z'
 */
const createdOnDay = (field: string, fallback = nextStamp()) => (record: object): string => {
  const day = String((record as Record<string, unknown>)[field] ?? '');
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T10:00:00+09:00`).toISOString() : fallback;
};

/** The demo company: staff, masters, customers, orders, mail templates and the stock area. Answers the staff password. */
async function seedDemo(db: Kysely<Database>, adminId: number): Promise<string> {
  const staffPassword = generatePassword();
  const staff = await db.transaction().execute(async (trx) => {
    const ids: SeedStaff[] = [];
    for (const user of SEED_USERS) {
      ids.push({ role: user.role, id: await createUser(trx, { email: user.email, password: staffPassword, name: user.name, kana: user.kana, role: user.role, team: user.team }) });
    }
    return ids;
  });
  await seedMasters(db);
  const clients = generateClients(DEMO_CLIENTS);
  const clientIds = await bulkInsert(db, clientResource, clients, { createdOf: createdOnDay('contract_date') });
  await seedRelations(db, clients.map((c, i) => ({ ...c, id: clientIds[i] })), staff);
  const orders = generateOrders(clientIds.length, DEMO_ORDERS).map((o) => ({
    cl_id: clientIds[o.clientIndex], date: o.date, status: o.status, uriage_total: o.total, biko: '',
  }));
  const orderIds = await bulkInsert(db, orderResource, orders, { createdOf: createdOnDay('date') });
  // The demo orders carry their numbers as orders entered on the screens do (the default format).
  await db.transaction().execute(async (trx) => {
    for (const id of orderIds) await numberOrder(trx, id);
  });
  await bulkInsert(db, mailTemplateResource, SEED_MAIL_TEMPLATES);
  await seedStock(db, adminId);
  await seedDeliveryRounds(db, adminId);
  return staffPassword;
}

/** Agreements, contacts, sales reports and daily reports of the demo company. */
async function seedRelations(db: Kysely<Database>, clients: readonly (SeedClient & { id: number })[], staff: readonly SeedStaff[]): Promise<void> {
  const ids = clients.map((c) => c.id);
  await bulkInsert(db, agreementResource, generateAgreements(clients), { createdOf: createdOnDay('contract_date') });
  await bulkInsert(db, contactResource, generateContacts(ids, staff, DEMO_CONTACTS), { createdOf: createdOnDay('uketsuke_date') });
  await bulkInsert(db, reportResource, generateReports(ids, staff, DEMO_REPORTS), { createdOf: createdOnDay('report_date') });
  await bulkInsert(db, dailyResource, generateDailies(staff), { createdOf: createdOnDay('report_date') });
}

/**
 * Seeds on first start (no users yet); prints the generated credentials once. Answers whether it seeded.
 * @example await seedIfEmpty(database, loadConfig())
 */
export async function seedIfEmpty(database: AppDatabase, config: Pick<Config, 'adminEmail' | 'adminPassword' | 'seed'>, log: (text: string) => void = console.log): Promise<boolean> {
  const { db } = database;
  const existing = await db.selectFrom('user').select('user_id').limit(1).executeTakeFirst();
  if (existing) return false;
  const email = config.adminEmail || DEFAULT_ADMIN_EMAIL;
  const password = config.adminPassword || generatePassword();
  let adminId: number;
  try {
    adminId = await createUser(db, { email, password, name: '管理者', kana: 'カンリシャ', role: ADMIN_ROLE, team: '管理チーム' });
  } catch (error) {
    // Another server process on the same database seeded first.
    if (await db.selectFrom('user').select('user_id').limit(1).executeTakeFirst()) return false;
    throw error;
  }
  const staffPassword = config.seed ? await seedDemo(db, adminId) : undefined;
  const lines = [
    '初回起動: 管理者アカウントを作成しました / First start: admin account created',
    `  メールアドレス / E-mail : ${email}`,
    `  パスワード / Password   : ${config.adminPassword ? '(ADMIN_PASSWORD の値 / as set in ADMIN_PASSWORD)' : password}`,
  ];
  if (staffPassword) {
    lines.push(
      '',
      `デモ会社を作成しました / Demo company seeded: 顧客 ${DEMO_CLIENTS} 件, 受注 ${DEMO_ORDERS} 件`,
      `  スタッフ ${SEED_USERS.length} 名 / staff accounts: ${SEED_USERS.map((u) => `${u.email} (${u.role})`).join(', ')}`,
      `  スタッフ共通パスワード / Staff password: ${staffPassword}`,
    );
  }
  lines.push('', 'この表示は一度だけです。控えてください。 / Shown only once: write it down.');
  log(box(lines.flatMap((line) => (width(line) > 100 ? wrap(line, 100) : [line]))));
  return true;
}

function wrap(line: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const part of line.split(/(?<=, )/)) {
    if (current && width(current + part) > max) {
      out.push(current);
      current = `    ${part}`;
    } else current += part;
  }
  if (current) out.push(current);
  return out;
}

/**
 * Loads `count` synthetic customers fast (benchmarks): the demo generator in chunks of 10,000 with
 * a seed per chunk, each chunk bulk-inserted. Deterministic for a given count.
 * @example await seedSyntheticClients(db, 100_000)
 */
export async function seedSyntheticClients(db: Kysely<Database>, count: number, chunk = 10_000): Promise<void> {
  for (let done = 0, seed = 101; done < count; done += chunk, seed++) {
    await bulkInsert(db, clientResource, generateClients(Math.min(chunk, count - done), seed));
  }
}

/**
 * Loads `count` synthetic orders of the customers with ids `firstClientId …` (benchmarks): the demo
 * order generator in chunks with a seed per chunk, bulk-inserted without lines or numbers.
 * @example await seedSyntheticOrders(db, 1, 100_000, 1_000_000)
 */
export async function seedSyntheticOrders(db: Kysely<Database>, firstClientId: number, clientCount: number, count: number, chunk = 50_000): Promise<void> {
  for (let done = 0, seed = 201; done < count; done += chunk, seed++) {
    const orders = generateOrders(clientCount, Math.min(chunk, count - done), seed).map((o) => ({
      cl_id: firstClientId + o.clientIndex, date: o.date, status: o.status, uriage_total: o.total, biko: '',
    }));
    await bulkInsert(db, orderResource, orders, { createdOf: createdOnDay('date') });
  }
}
