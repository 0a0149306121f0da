/**
 * The server process of the list benchmarks: the real app (config from the environment) plus a bare
 * Fastify route `POST /bare` answering `[]`, in as many processes as the server runs (`WEB_CONCURRENCY`,
 * server/cluster.ts). Tells the parent its port over IPC.
 */
import cluster from 'node:cluster';
import { buildApp } from '../server/app';
import { runWorkers } from '../server/cluster';
import { loadConfig } from '../server/config';

process.env.TZ ||= 'Asia/Tokyo';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent-bench-static', CORS_ORIGINS: '' });
const port = await runWorkers(config.workers, async () => {
  const app = await buildApp(config);
  app.post('/bare', async () => []);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, close: () => app.close() };
});
if (cluster.isPrimary) process.send?.({ port, workers: config.workers });
