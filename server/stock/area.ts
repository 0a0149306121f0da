/**
 * The stock area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { bottlePolicy } from './bottle-policy';
import { itemPolicy } from './item-policy';
import { stockPlugin } from './plugin';
import { soukoPolicy } from './souko-policy';

export const stockArea = {
  plugin: stockPlugin,
  policies: { bottle: bottlePolicy, item: itemPolicy, souko: soukoPolicy },
} satisfies ServerArea;
