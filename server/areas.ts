/**
 * Every server area, in the order buildApp registers their plugins: each brings its calls, the policies of the
 * resources it rules and the services it lends the resource pipeline (server/resources/registry.ts), so the
 * pipeline imports no area. `registerServerAreas` runs before the first save of a process: buildApp, the seed,
 * a test's or benchmark's direct writes.
 */
import { accountingPlugin } from './accounting/plugin';
import { auditArea } from './audit/area';
import { authArea } from './auth/area';
import { billingArea } from './billing/area';
import { callsPlugin } from './calls/plugin';
import { clientsArea } from './clients/area';
import { closingPlugin } from './closing/plugin';
import { downloadPlugin } from './download/plugin';
import { exportsPlugin } from './exports/plugin';
import { hodArea } from './hod/area';
import { importsPlugin } from './imports/plugin';
import { jaccsPlugin } from './jaccs/plugin';
import { jobsPlugin } from './jobs/plugin';
import { mailArea } from './mail/area';
import { masterArea } from './master/area';
import { ordersArea } from './orders/area';
import { postalPlugin } from './postal/plugin';
import { registerAreas, type ServerArea } from './resources/registry';
import { resourcesPlugin } from './resources/plugin';
import { salesArea } from './sales/area';
import { searchPlugin } from './search/plugin';
import { serversArea } from './servers/area';
import { staticPlugin } from './static/plugin';
import { stockArea } from './stock/area';
import { taxArea } from './tax/area';

/** The areas; the calls plugin serves the call table the others filled, the static plugin comes last. */
export const SERVER_AREAS: readonly ServerArea[] = [
  authArea,
  { plugin: resourcesPlugin },
  { plugin: searchPlugin },
  masterArea,
  mailArea,
  { plugin: postalPlugin },
  stockArea,
  serversArea,
  { plugin: jobsPlugin },
  hodArea,
  salesArea,
  { plugin: closingPlugin },
  billingArea,
  { plugin: accountingPlugin },
  { plugin: downloadPlugin },
  { plugin: jaccsPlugin },
  ordersArea,
  clientsArea,
  { plugin: importsPlugin },
  { plugin: exportsPlugin },
  auditArea,
  taxArea,
  { plugin: callsPlugin },
  { plugin: staticPlugin },
];

/** Gives the resource pipeline the areas' policies and services (again: no change). */
export function registerServerAreas(): void {
  registerAreas(SERVER_AREAS);
}
