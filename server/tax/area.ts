/**
 * The tax area as the application is wired from it (server/areas.ts): the policies of
 * the resources it rules.
 */
import type { ServerArea } from '../resources';
import { taxPolicy } from './tax-policy';

export const taxArea = {
  policies: { tax: taxPolicy },
} satisfies ServerArea;
