/**
 * The server process of the client-list benchmark: the real app (config from the environment)
 * plus a bare Fastify route `POST /bare` answering `[]`, in the same process. Tells the parent
 * its port over IPC.
 */
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';

process.env.TZ ||= 'Asia/Tokyo';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent-bench-static', CORS_ORIGINS: '' });
const app = await buildApp(config);
app.post('/bare', async () => []);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
