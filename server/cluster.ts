/**
 * Several server processes on one port (node:cluster). The server keeps nothing in memory between
 * calls (sessions, permissions and rate limits live in the database), so any process may answer any
 * call; a long call in one process (a count over a million orders, a month's regular deliveries) no
 * longer holds up the lists the others answer. SQLite takes the processes' writes one at a time
 * (WAL, busy_timeout, transactions that lock when they begin: server/db/connect.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { CONSOLE_LOG, type ProcessLog } from './http/log';

export interface Served {
  /** The listening app (its port is answered). */
  app: FastifyInstance;
  /**
   * Stops the app and what it holds (the database): the requests in flight answered, the jobs in flight given until
   * `deadline` (ms since the epoch) to finish (server/http/shutdown.ts `stopApp`).
   */
  close(deadline: number): Promise<void>;
}

export interface StopOptions {
  /** How long a stop waits for the work in flight before the process ends anyway (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs?: number;
  /** Where the processes' own events go (server/http/log.ts); without it, the console. */
  log?: ProcessLog;
}

/** A worker that dies sooner than this after its start is not restarted (it would only die again). */
const MIN_LIFETIME_MS = 5_000;
/** The primary waits this much longer than the workers' own limit before it kills them. */
const PRIMARY_GRACE_MS = 5_000;

/** The port a listening app took (the one asked for, or the one the system gave for port 0). */
export function listeningPort(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * Runs `stop` once on the first SIGINT / SIGTERM (saying so when `say`), then exits with the code it answers (0 when
 * it ended well); exits 1 if the process has not ended `limitMs` after the signal.
 */
function onStopSignal(stop: (deadline: number) => Promise<number>, limitMs: number, log: ProcessLog, say: boolean): void {
  let stopping = false;
  const handle = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    if (say) log.warn({ signal }, 'stopping: finishing the requests and jobs in flight');
    const deadline = Date.now() + limitMs;
    setTimeout(() => {
      log.error({ limitMs }, 'stopping: the work in flight did not end within the limit; ending anyway');
      process.exit(1);
    }, limitMs).unref();
    stop(deadline).then((code) => process.exit(code), (error: unknown) => {
      log.error({ err: error }, 'stopping failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => handle('SIGINT'));
  process.on('SIGTERM', () => handle('SIGTERM'));
}

/**
 * Runs `serve` in `workers` processes sharing its port, or in this process when `workers` is 1.
 * Call it from the script every process runs: in the primary it forks the workers and answers the port
 * once the first listens (restarting a worker that dies, stopping all on SIGINT/SIGTERM); in a worker it
 * serves and answers that worker's port (a worker that died leaves its running jobs to the sweep of server/jobs: the
 * other processes fail them). A stop signal lets each process finish its work in flight within
 * `shutdownTimeoutMs` and exits 0 when every process did (1 when one had to be ended). One limit of Node's round-robin
 * handoff (nodejs/node#21940): a connection the primary hands to the last listening worker in the instant it stops
 * listening is held, unanswered, until the primary exits; a load balancer's connect time-out sends it elsewhere.
 * @example const port = await runWorkers(config.workers, async () => { …; return { app, close } })
 */
export async function runWorkers(workers: number, serve: () => Promise<Served>, options: StopOptions = {}): Promise<number> {
  const limitMs = options.shutdownTimeoutMs ?? 30_000;
  const log = options.log ?? CONSOLE_LOG;
  if (cluster.isWorker || workers <= 1) {
    const served = await serve();
    const port = listeningPort(served.app);
    // A worker stops when the primary tells it to (SIGTERM); the primary alone speaks for the server.
    onStopSignal(async (deadline) => {
      await served.close(deadline);
      return 0;
    }, limitMs, log, !cluster.isWorker);
    if (cluster.isWorker) process.send?.({ listening: port });
    return port;
  }
  return new Promise((resolve, reject) => {
    let stopping: ((code: number) => void) | undefined;
    let stopCode = 0;
    let answered = false;
    const started = new Map<Worker, number>();
    const start = (): void => {
      const worker = cluster.fork();
      started.set(worker, Date.now());
      worker.on('message', (message: { listening?: number }) => {
        if (typeof message?.listening === 'number' && !answered) {
          answered = true;
          resolve(message.listening);
        }
      });
    };
    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (started.get(worker) ?? 0);
      started.delete(worker);
      if (stopping) {
        if (code !== 0) stopCode = 1;
        if (started.size === 0) stopping(stopCode);
        return;
      }
      log.error({ workerPid: worker.process.pid, code, signal, restarted: lived >= MIN_LIFETIME_MS }, 'a server process ended');
      if (lived >= MIN_LIFETIME_MS) start();
      else if (started.size === 0) {
        if (!answered) reject(new Error('the server processes could not start'));
        process.exit(1);
      }
    });
    for (let i = 0; i < workers; i++) start();
    onStopSignal(async () => {
      const ended = new Promise<number>((resolve) => {
        stopping = resolve;
      });
      const timer = setTimeout(() => {
        for (const worker of started.keys()) worker.process.kill('SIGKILL');
      }, limitMs + PRIMARY_GRACE_MS);
      if (started.size === 0) stopping?.(0);
      for (const worker of started.keys()) worker.process.kill('SIGTERM');
      const code = await ended;
      clearTimeout(timer);
      return code;
    }, limitMs + 2 * PRIMARY_GRACE_MS, log, true);
  });
}
