/**
 * The servers area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { serversPlugin } from './plugin';
import { serverPolicy } from './server-policy';

export const serversArea = {
  plugin: serversPlugin,
  policies: { server: serverPolicy },
} satisfies ServerArea;
