/** The server-side rules of the resources that have any, by call prefix (see ../policy.ts). */
import type { ResourcePolicy } from '../policy';
import { auditLogPolicy } from './audit-log';
import { billingPolicy } from './billing';
import { bottlePolicy } from './bottle';
import { clientPolicy } from './client';
import { hodReportPolicy } from './hod-report';
import { hodPausePolicy } from './hod-pause';
import { itemPolicy } from './item';
import { mailTemplatePolicy } from './mail-template';
import { masterOptionPolicy } from './master-option';
import { orderPolicy } from './order';
import { serverPolicy } from './server';
import { soukoPolicy } from './souko';
import { taxPolicy } from './tax';
import { rolePolicy } from './role';
import { paymentPolicy } from './payment';
import { salesPolicy } from './sales';
import { userPolicy } from './user';

export const POLICIES: Record<string, ResourcePolicy> = {
  user: userPolicy,
  client: clientPolicy,
  role: rolePolicy,
  mailtemplate: mailTemplatePolicy,
  master_option: masterOptionPolicy,
  item: itemPolicy,
  souko: soukoPolicy,
  server: serverPolicy,
  bottle: bottlePolicy,
  tax: taxPolicy,
  hodpause: hodPausePolicy,
  hodreport: hodReportPolicy,
  order: orderPolicy,
  log: auditLogPolicy,
  sales: salesPolicy,
  payment: paymentPolicy,
  billing: billingPolicy,
};
