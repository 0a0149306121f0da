/**
 * The sales area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { paymentPolicy } from './payment-policy';
import { salesPlugin } from './plugin';
import { salesPolicy } from './sales-policy';

export const salesArea = {
  plugin: salesPlugin,
  policies: { sales: salesPolicy, payment: paymentPolicy },
} satisfies ServerArea;
