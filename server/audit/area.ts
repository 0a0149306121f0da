/**
 * The audit area as the application is wired from it (server/areas.ts): the policies of
 * the resources it rules.
 */
import type { ServerArea } from '../resources';
import { auditLogPolicy } from './audit-log-policy';

export const auditArea = {
  policies: { log: auditLogPolicy },
} satisfies ServerArea;
