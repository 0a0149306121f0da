/** The server-side rules of the resources that have any, by call prefix (see ../policy.ts). */
import type { ResourcePolicy } from '../policy';
import { auditLogPolicy } from '../../audit/audit-log-policy';
import { billingPolicy } from '../../billing/billing-policy';
import { bottlePolicy } from '../../stock/bottle-policy';
import { clientPolicy } from '../../clients/client-policy';
import { hodReportPolicy } from '../../hod/hod-report-policy';
import { hodPausePolicy } from '../../hod/hod-pause-policy';
import { itemPolicy } from '../../stock/item-policy';
import { mailTemplatePolicy } from '../../mail/mail-template-policy';
import { masterOptionPolicy } from '../../master/master-option-policy';
import { orderPolicy } from '../../orders/order-policy';
import { serverPolicy } from '../../servers/server-policy';
import { soukoPolicy } from '../../stock/souko-policy';
import { taxPolicy } from '../../tax/tax-policy';
import { rolePolicy } from '../../auth/role-policy';
import { paymentPolicy } from '../../sales/payment-policy';
import { salesPolicy } from '../../sales/sales-policy';
import { userPolicy } from '../../auth/user-policy';

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
