/**
 * Several server processes on one port (node:cluster). The server keeps nothing in memory between
 * calls (sessions, permissions and rate limits live in the database), so any process may answer any
 * call; a long call in one process (a count over a million orders, a month's regular deliveries) no
 * longer holds up the lists the others answer. SQLite takes the processes' writes one at a time
 * (WAL, busy_timeout, transactions that lock when they begin: server/db/connect.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import type { FastifyInstance } from 'fastify';

export interface Served {
  /** The listening app (its port is answered). */
  app: FastifyInstance;
  /** Stops the app and what it holds (the database). */
  close(): Promise<void>;
}

/** A worker that dies sooner than this after its start is not restarted (it would only die again). */
const MIN_LIFETIME_MS = 5_000;

/** The port a listening app took (the one asked for, or the one the system gave for port 0). */
export function listeningPort(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * Runs `stop` once on the first SIGINT / SIGTERM (saying so when `say` is given); exits 1 if it has not
 * exited the process within 10 s.
 */
function onStopSignal(stop: () => Promise<void> | void, say?: (line: string) => void): void {
  let stopping = false;
  const handle = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    say?.(`${signal}: stopping…`);
    setTimeout(() => process.exit(1), 10_000).unref();
    void stop();
  };
  process.on('SIGINT', () => handle('SIGINT'));
  process.on('SIGTERM', () => handle('SIGTERM'));
}

/**
 * Runs `serve` in `workers` processes sharing its port, or in this process when `workers` is 1.
 * Call it from the script every process runs: in the primary it forks the workers and answers the port
 * once the first listens (restarting a worker that dies, stopping all on SIGINT/SIGTERM); in a worker it
 * serves and answers that worker's port. `onWorkerExit` runs in the primary with the pid of a worker that ended (its
 * running jobs are failed).
 * @example const port = await runWorkers(config.workers, async () => { …; return { port, close } })
 */
export async function runWorkers(workers: number, serve: () => Promise<Served>, onWorkerExit?: (pid: number) => Promise<unknown>): Promise<number> {
  if (cluster.isWorker || workers <= 1) {
    const served = await serve();
    const port = listeningPort(served.app);
    // A worker stops when the primary tells it to (SIGTERM); the primary alone speaks for the server.
    onStopSignal(async () => {
      try {
        await served.close();
        process.exit(0);
      } catch (error) {
        console.error(error);
        process.exit(1);
      }
    }, cluster.isWorker ? undefined : (line) => console.log(line));
    if (cluster.isWorker) process.send?.({ listening: port });
    return port;
  }
  return new Promise((resolve, reject) => {
    let stopping = false;
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
      if (onWorkerExit && worker.process.pid) void onWorkerExit(worker.process.pid).catch((error: unknown) => console.error(error));
      if (stopping) {
        if (started.size === 0) process.exit(0);
        return;
      }
      console.error(`server process ${worker.process.pid} ended (${signal ?? code})${lived < MIN_LIFETIME_MS ? '' : '; starting another'}`);
      if (lived >= MIN_LIFETIME_MS) start();
      else if (started.size === 0) {
        if (!answered) reject(new Error('the server processes could not start'));
        process.exit(1);
      }
    });
    for (let i = 0; i < workers; i++) start();
    onStopSignal(() => {
      stopping = true;
      if (started.size === 0) process.exit(0);
      for (const worker of started.keys()) worker.process.kill('SIGTERM');
    }, (line) => console.log(line));
  });
}
