/**
 * PostgreSQL: the sessions this server process has looked up, kept so a call needs no session query — and never
 * trusted past a change. Every change that can end or narrow a session (a key deleted, a user's password, role,
 * e-mail, name or active flag, any role row) is announced by triggers on the channel `session_change` when its
 * transaction commits (migration 0095); this process LISTENs on a connection of its own and drops what a notice
 * names as it arrives, so a revoked key is refused by every server, never after a time-out. The cache serves only
 * while that connection listens: when it is lost (an error, its end, or a `SELECT 1` every 2 s answered more than
 * 1 s late), everything kept is dropped and nothing is kept or served until it listens again. A lookup whose query began before the listening started, or during which any notice arrived,
 * is answered but not kept (it may have read what the notice changed). A hit is answered only after a `SELECT 1` on
 * the listening connection sent after the call arrived has come back (`barrier`): PostgreSQL delivers the notices of
 * every transaction committed before that to the listener first, so a change whose answer the caller has seen is
 * never missed; calls arriving together share one such round trip, which costs far less than the session query.
 * SQLite keeps no cache: its session query is a local read, not a round trip.
 */
import pg from 'pg';

/** What a cached session holds: the session query's row (server/auth/auth-key.ts). */
export interface CachedSession {
  user_id: number;
  user_email: string;
  user_name: string;
  user_role: string;
  role_areas: string | number | null;
  ak_expires: string;
}

export interface SessionCache {
  /** The session of a key hash, when kept and the listener is up (after reading the input already arrived). */
  get(keyHash: string): Promise<CachedSession | undefined>;
  /** A mark taken before a session query; `keep` stores its answer only if nothing changed since. */
  mark(): number;
  keep(keyHash: string, session: CachedSession, mark: number): void;
  /** Whether the cache serves now (the listener is connected). */
  readonly live: boolean;
  close(): Promise<void>;
}

const CHANNEL = 'session_change';
/** The listener's `application_name` (pg_stat_activity shows which connections listen). */
export const LISTENER_NAME = 'session-cache';
/** At most this many sessions are kept (the oldest go first). */
const MAX_ENTRIES = 10_000;
const RETRY_MS = 1_000;
/** The listener is asked `SELECT 1` this often; an answer later than PING_LATE_MS counts as a lost listener. */
const PING_MS = 2_000;
const PING_LATE_MS = 1_000;

/**
 * Opens the cache of a PostgreSQL database: connects its listener (and reconnects it when lost).
 * @example const cache = await openSessionCache(config.databaseUrl)
 */
export async function openSessionCache(databaseUrl: string, warn: (line: string) => void = console.warn): Promise<SessionCache> {
  const entries = new Map<string, CachedSession>();
  /** Bumped by every notice and by every loss or start of the listener: a lookup older than it is not kept. */
  let epoch = 0;
  let live = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  const dropAll = () => {
    entries.clear();
    epoch++;
  };
  const onNotice = (message: pg.Notification) => {
    epoch++;
    const payload = message.payload ?? '';
    if (payload.startsWith('k:')) {
      entries.delete(payload.slice(2));
    } else if (payload.startsWith('u:')) {
      const userId = Number(payload.slice(2));
      for (const [hash, session] of entries) if (session.user_id === userId) entries.delete(hash);
    } else {
      entries.clear();
    }
  };
  const lost = (reason: string) => {
    if (!live && !client) return;
    live = false;
    dropAll();
    clearInterval(ping);
    const old = client;
    client = undefined;
    old?.removeAllListeners();
    old?.on('error', () => undefined);
    void old?.end().catch(() => undefined);
    if (closed) return;
    warn(`session cache: the listener was lost (${reason}); sessions are read from the database until it is back`);
    retry = setTimeout(() => void connect(), RETRY_MS);
    retry.unref();
  };
  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ connectionString: databaseUrl, application_name: LISTENER_NAME });
    client = next;
    next.on('error', (error) => lost(error.message));
    next.on('end', () => lost('connection ended'));
    next.on('notification', onNotice);
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (client !== next || closed) return;
      // Whatever changed before the LISTEN took effect was never announced to this process: start empty.
      dropAll();
      live = true;
      // A connection that died without a word (a cut network) is found out by its late answer, not by TCP's time-outs.
      ping = setInterval(() => {
        const late = setTimeout(() => lost('no answer'), PING_LATE_MS);
        next.query('SELECT 1').then(() => clearTimeout(late), () => clearTimeout(late));
      }, PING_MS);
      ping.unref();
    } catch (error) {
      if (client === next) lost(error instanceof Error ? error.message : String(error));
    }
  }
  await connect();

  /**
   * A `SELECT 1` on the listening connection that began after the caller asked: PostgreSQL sends a listener the
   * notices of every transaction committed before it reads its next command, so once that answer is in, every change
   * committed before the call arrived has been read (and dropped from the cache). Calls arriving together share one.
   */
  let running: Promise<void> | undefined;
  let waiting: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const listener = client;
    if (!listener) return Promise.reject(new Error('not listening'));
    const done: Promise<void> = listener.query('SELECT 1').then(() => undefined);
    running = done;
    void done.catch(() => undefined).finally(() => {
      if (running === done) running = undefined;
    });
    return done;
  };
  const barrier = (): Promise<void> => {
    if (waiting) return waiting;
    if (!running) return start();
    const next = running.catch(() => undefined).then(() => {
      waiting = undefined;
      return start();
    });
    waiting = next;
    return next;
  };

  return {
    get live() {
      return live;
    },
    async get(keyHash) {
      if (!live || !entries.has(keyHash)) return undefined;
      try {
        await barrier();
      } catch {
        return undefined;
      }
      return live ? entries.get(keyHash) : undefined;
    },
    mark: () => (live ? epoch : -1),
    keep(keyHash, session, mark) {
      if (!live || mark !== epoch) return;
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(keyHash, session);
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(retry);
      clearInterval(ping);
      entries.clear();
      const old = client;
      client = undefined;
      old?.removeAllListeners();
      old?.on('error', () => undefined);
      await old?.end().catch(() => undefined);
    },
  };
}
