/**
 * The orders area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { orderPolicy } from './order-policy';
import { ordersPlugin } from './plugin';

export const ordersArea = {
  plugin: ordersPlugin,
  policies: { order: orderPolicy },
} satisfies ServerArea;
