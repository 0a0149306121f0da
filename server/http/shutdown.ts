/**
 * Stopping a server process without dropping work (SIGTERM / SIGINT, server/cluster.ts; the limit is
 * `SHUTDOWN_TIMEOUT_MS`):
 * 1. the app closes: it stops listening, answers every new request (one that arrives on a connection still open)
 *    503 `[{ error }]` with `Connection: close`, and closes the idle keep-alive connections;
 * 2. the requests in flight are answered, each with `Connection: close`, so their keep-alive connections end too
 *    (an answer already streaming when the stop came closes its connection as soon as it is idle);
 * 3. the jobs in flight get until a tenth of the limit before its end to finish; those still running then are
 *    cancelled (their transaction rolls back) — and when even that does not end in time the process ends anyway at
 *    the limit, leaving the job to be marked failed (server/jobs);
 * 4. the database closes and the process exits 0.
 * A plain `app.close()` (tests) does 1, 2 and 4 and cancels running jobs at once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../lib/protocol';
import { pathOf } from './log';
import type { Jobs, JobSpec } from '../jobs/jobs';

/** While a stop waits for requests in flight, it names them in the log this often. */
const STOP_REPORT_MS = 5_000;

/** The moment (ms since the epoch) until which a stopping app lets its jobs run. */
const jobDeadlines = new WeakMap<FastifyInstance, number>();

/**
 * Once the app closes, every answer ends its connection, and a connection that becomes idle is closed; a request that
 * arrives then is answered 503 as the protocol answers (`[{ error }]` in Japanese: Fastify's own `return503OnClosing`
 * answer is English JSON, so the app turns that off).
 * @example drainConnections(app)
 */
export function drainConnections(app: FastifyInstance): void {
  let closing = false;
  /** The answers under way, so a stop that waits says what it waits for (their paths and times are read then). */
  const answering = new Map<FastifyRequest, FastifyReply>();
  let report: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    report = setInterval(() => {
      if (answering.size === 0) return;
      const requests = [...answering.values()].map((reply) => ({ url: pathOf(reply.request.url), ms: Math.round(reply.elapsedTime) }));
      app.log.warn({ requests }, 'stopping: still answering the requests in flight');
    }, STOP_REPORT_MS);
    report.unref();
  });
  app.addHook('onClose', async () => clearInterval(report));
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      await reply.code(503).type('application/json; charset=utf-8').send([{ error: MESSAGES.stopping }]);
      return;
    }
    answering.set(request, reply);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onRequestAbort', async (request) => {
    answering.delete(request);
  });
  app.addHook('onResponse', async (request) => {
    answering.delete(request);
    // The socket is idle only after the answer's last byte left: close it then.
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
}

export interface JobsInFlight {
  /** The jobs to give the areas: the same, with their work followed. */
  jobs: Jobs;
  /** Waits until no job work of this process is running, or until `deadline` (ms since the epoch); true when none runs. */
  settled(deadline: number): Promise<boolean>;
}

/**
 * Follows the work of the jobs this process starts, so a stop can wait for it.
 * @example const inFlight = followJobs(await createJobs(config, database)); …; await inFlight.settled(Date.now() + 5000)
 */
export function followJobs(jobs: Jobs): JobsInFlight {
  const working = new Set<Promise<unknown>>();
  const start = <R>(spec: JobSpec<R>): Promise<number> => jobs.start<R>({
    ...spec,
    work: (run) => {
      const work = spec.work(run);
      working.add(work);
      const done = () => working.delete(work);
      work.then(done, done);
      return work;
    },
  });
  return {
    jobs: { ...jobs, start },
    async settled(deadline) {
      while (working.size > 0) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
        });
        // Settled either way (a failed job has ended too); a job started meanwhile is waited for on the next turn.
        await Promise.race([Promise.allSettled([...working]), late]);
        clearTimeout(timer);
      }
      return true;
    },
  };
}

/** The moment until which a stopping app lets its jobs run (undefined: a plain close, which cancels them at once). */
export const jobDeadlineOf = (app: FastifyInstance): number | undefined => jobDeadlines.get(app);

/**
 * Stops the app the way a stop signal does: the requests in flight answered, then the jobs in flight given until a
 * tenth of the limit before `deadline` to finish (then cancelled). Ends when the app is closed.
 * @example await stopApp(app, Date.now() + config.shutdownTimeoutMs)
 */
export async function stopApp(app: FastifyInstance, deadline: number): Promise<void> {
  const limit = Math.max(0, deadline - Date.now());
  jobDeadlines.set(app, deadline - Math.round(limit / 10));
  await app.close();
}
