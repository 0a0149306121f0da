/**
 * The billing area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { billingPolicy } from './billing-policy';
import { billingPlugin } from './plugin';

export const billingArea = {
  plugin: billingPlugin,
  policies: { billing: billingPolicy },
} satisfies ServerArea;
