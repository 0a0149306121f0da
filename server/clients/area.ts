/**
 * The clients area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { clientPolicy } from './client-policy';
import { clientsPlugin } from './plugin';

export const clientsArea = {
  plugin: clientsPlugin,
  policies: { client: clientPolicy },
} satisfies ServerArea;
