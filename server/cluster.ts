/**
 * Several server processes on one port (node:cluster). The server keeps nothing in memory between
 * calls (sessions, permissions and rate limits live in the database), so any process may answer any
 * call; a long call in one process (a count over a million orders, a month's regular deliveries) no
 * longer holds up the lists the others answer. SQLite takes the processes' writes one at a time
 * (WAL, busy_timeout, transactions that lock when they begin: server/db/connect.ts).
 */
import cluster, { type Worker } from 'node:cluster';

export interface Served {
  port: number;
  close(): Promise<void>;
}

/** A worker that dies sooner than this after its start is not restarted (it would only die again). */
const MIN_LIFETIME_MS = 5_000;

/** Stops `served` and exits on SIGINT / SIGTERM (forced after 10 s). */
function exitOnSignals(served: () => Promise<void>, say: (line: string) => void): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping…`);
    setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await served();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * Runs `serve` in `workers` processes sharing its port, or in this process when `workers` is 1.
 * Call it from the script every process runs: in the primary it forks the workers and answers the port
 * once the first listens (restarting a worker that dies, stopping all on SIGINT/SIGTERM); in a worker it
 * serves and answers that worker's port.
 * @example const port = await runWorkers(config.workers, async () => { …; return { port, close } })
 */
export async function runWorkers(workers: number, serve: () => Promise<Served>): Promise<number> {
  if (cluster.isWorker || workers <= 1) {
    const served = await serve();
    // A worker stops when the primary tells it to (SIGTERM); the primary alone speaks for the server.
    exitOnSignals(() => served.close(), cluster.isWorker ? () => undefined : (line) => console.log(line));
    if (cluster.isWorker) process.send?.({ listening: served.port });
    return served.port;
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
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: stopping…`);
      setTimeout(() => process.exit(1), 10_000).unref();
      if (started.size === 0) process.exit(0);
      for (const worker of started.keys()) worker.process.kill('SIGTERM');
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}
