/**
 * Server configuration, read once from the environment.
 */
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { LIMITS } from '../lib/protocol';

export type DialectName = 'sqlite' | 'postgres';

/** The SMTP server mails are sent through (test sends of mail templates); no host: sending is off. */
export interface SmtpConfig {
  host: string;
  port: number;
  /** Implicit TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  pass: string;
  /** The sender address (MAIL_FROM; SMTP_USER when that is an address). */
  from: string;
}

export interface Config {
  port: number;
  host: string;
  /** `postgres` when DATABASE_URL is a postgres:// URL, else the SQLite file. */
  dialect: DialectName;
  databaseUrl: string;
  /** SQLite file (only for the sqlite dialect). */
  sqliteFile: string;
  dataDir: string;
  /** Where `npm run backup` writes (BACKUP_DIR; default `backups/` beside DATA_DIR). */
  backupDir: string;
  dbApiPrefix: string;
  loginApiPrefix: string;
  corsOrigins: string[];
  mapsApiKey: string;
  /** Where customers reach this server (PUBLIC_URL): the invoice download page's links start with it. */
  publicUrl: string;
  adminEmail: string;
  adminPassword: string;
  staticDir: string;
  seed: boolean;
  authKeyTtlHours: number;
  /** Log level of the server log (`silent` turns it off; tests use it). */
  logLevel: string;
  /**
   * The reverse proxies whose X-Forwarded-For is trusted (false: none, the socket's address is the
   * client): addresses, CIDR ranges or proxy-addr's names. The client is the first address from the
   * right of that header that is not a trusted proxy, so an address a client writes into it itself is
   * never taken (login limits count per client address).
   */
  trustProxy: false | string[];
  /** Our company's name in mails (`{{自社名}}`, the sender's display name). */
  companyName: string;
  smtp: SmtpConfig;
  /**
   * Server processes answering on the one port (`WEB_CONCURRENCY`; default: the machine's cores with SQLite,
   * half of them with PostgreSQL, at least 1 and at most 4). The server keeps nothing in memory between calls, so any process can answer any call; one
   * process's long call (a count over a million orders) no longer holds up the others' lists.
   */
  workers: number;
  /**
   * How long a stop (SIGTERM / SIGINT) waits for the requests and jobs in flight before the process ends anyway
   * (`SHUTDOWN_TIMEOUT_MS`, default 30 s). A job still running then is cancelled (rolled back) if it can be, else left
   * to be marked failed.
   */
  shutdownTimeoutMs: number;
  /**
   * Saves a batch builds and writes at a time (`BATCH_CHUNK`, default 2,000): a regular-delivery run reports its progress
   * after each chunk; a smaller chunk reports more often, a larger one writes in fewer statements.
   */
  batchChunk: number;
}

type Env = Record<string, string | undefined>;

const trimSlash = (value: string): string => value.replace(/\/+$/, '');

/**
 * PUBLIC_URL (`https://billing.example.jp`), else this server's own address (`http://localhost:3000` when it listens on
 * every interface): what customers' links to the invoice download page start with.
 */
function publicUrlOf(env: Env): string {
  const given = trimSlash(env.PUBLIC_URL?.trim() ?? '');
  if (given) {
    if (!/^https?:\/\/[^/\s]+/.test(given)) throw new Error(`PUBLIC_URL must be an http(s) URL, got "${given}"`);
    return given;
  }
  const host = env.HOST?.trim() || '0.0.0.0';
  return `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${env.PORT?.trim() || '3000'}`;
}
const withLeadingSlash = (value: string): string => (value.startsWith('/') ? value : `/${value}`);

function positiveNumber(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

function workersOf(value: string | undefined, dialect: DialectName): number {
  // SQLite works inside the server processes; PostgreSQL's own processes need cores too (bench/order-list.ts on
  // 2 cores: one server process answered PostgreSQL lists at p95 11–13 ms, two at 12–16 ms, same throughput).
  const cores = dialect === 'sqlite' ? availableParallelism() : Math.floor(availableParallelism() / 2);
  if (value === undefined || value.trim() === '') return Math.max(1, Math.min(4, cores));
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 32) throw new Error(`WEB_CONCURRENCY must be 1..32, got "${value}"`);
  return n;
}

function portOf(value: string | undefined, fallback = 3000, name = 'PORT'): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be 0..65535, got "${value}"`);
  return n;
}

const isOn = (value: string | undefined): boolean => ['1', 'true', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());

/** What TRUST_PROXY=on trusts: a proxy on this host or on a private network. */
const PRIVATE_PROXIES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: off (default), on (PRIVATE_PROXIES) or the proxies' addresses / CIDR ranges, comma-separated. */
function proxiesOf(value: string | undefined): false | string[] {
  const text = (value ?? '').trim();
  if (text === '' || ['0', 'false', 'no', 'off'].includes(text.toLowerCase())) return false;
  if (isOn(text)) return [...PRIVATE_PROXIES];
  const list = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address);
    const maxBits = version === 6 ? 128 : 32;
    const ok = PRIVATE_PROXIES.includes(entry) || (version !== 0 && extra === undefined && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits)));
    if (!ok) throw new Error(`TRUST_PROXY must be off, on or proxy addresses / CIDR ranges, got "${entry}"`);
  }
  return list;
}

function smtpOf(env: Env): SmtpConfig {
  const user = env.SMTP_USER?.trim() ?? '';
  return {
    host: env.SMTP_HOST?.trim() ?? '',
    port: portOf(env.SMTP_PORT, 587, 'SMTP_PORT'),
    secure: isOn(env.SMTP_SECURE),
    user,
    pass: env.SMTP_PASS ?? '',
    from: env.MAIL_FROM?.trim() || (user.includes('@') ? user : ''),
  };
}

/**
 * Reads the configuration from an environment (default `process.env`).
 * @example loadConfig({ PORT: '0', DATA_DIR: '/tmp/x' }).sqliteFile // '/tmp/x/app.db'
 */
export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = (env.DATABASE_URL ?? '').trim();
  const dialect: DialectName = /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
  const dataDir = resolve(env.DATA_DIR?.trim() || 'data');
  return {
    port: portOf(env.PORT),
    host: env.HOST?.trim() || '0.0.0.0',
    dialect,
    databaseUrl,
    sqliteFile: join(dataDir, 'app.db'),
    dataDir,
    backupDir: resolve(env.BACKUP_DIR?.trim() || join(dirname(dataDir), 'backups')),
    dbApiPrefix: trimSlash(withLeadingSlash(env.DB_API_PREFIX?.trim() || '/api/db')),
    loginApiPrefix: trimSlash(withLeadingSlash(env.LOGIN_API_PREFIX?.trim() || '/api/login')),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((s) => trimSlash(s.trim())).filter(Boolean),
    mapsApiKey: env.MAPS_API_KEY?.trim() ?? '',
    publicUrl: publicUrlOf(env),
    adminEmail: env.ADMIN_EMAIL?.trim() ?? '',
    adminPassword: env.ADMIN_PASSWORD ?? '',
    staticDir: resolve(env.STATIC_DIR?.trim() || 'out'),
    seed: !['0', 'false', 'no', 'off'].includes((env.SEED ?? '1').trim().toLowerCase()),
    authKeyTtlHours: positiveNumber(env.AUTH_KEY_TTL_HOURS, LIMITS.authKeyTtlHours, 'AUTH_KEY_TTL_HOURS'),
    logLevel: env.LOG_LEVEL?.trim() || 'warn',
    trustProxy: proxiesOf(env.TRUST_PROXY),
    companyName: env.COMPANY_NAME?.trim() || 'アクア宅配センター',
    smtp: smtpOf(env),
    workers: workersOf(env.WEB_CONCURRENCY, dialect),
    shutdownTimeoutMs: positiveNumber(env.SHUTDOWN_TIMEOUT_MS, 30_000, 'SHUTDOWN_TIMEOUT_MS'),
    batchChunk: Math.max(1, Math.floor(positiveNumber(env.BATCH_CHUNK, 2000, 'BATCH_CHUNK'))),
  };
}
