/**
 * The master area as the application is wired from it (server/areas.ts): its calls, the policies
 * of the resources it rules and the services it lends the resource pipeline.
 */
import { masterOffers, masterOptions } from './masters';
import type { ServerArea } from '../resources';
import { masterOptionPolicy } from './master-option-policy';
import { masterPlugin } from './plugin';

export const masterArea = {
  plugin: masterPlugin,
  policies: { master_option: masterOptionPolicy },
  // A `ref` drawn as a select is saved only with one of its master's choices; a CSV export labels values with them.
  services: { masterOffers, masterOptions },
} satisfies ServerArea;
