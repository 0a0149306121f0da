/** Every declared resource, by call prefix. Adding a resource is one line here. */
import { agreementResource } from './agreement';
import { auditLogResource } from './audit-log';
import { billingResource } from './billing';
import { bottleResource } from './bottle';
import { clientResource } from './client';
import { companyResource } from './company';
import { contactResource } from './contact';
import { dailyResource } from './daily';
import { deliveryFeeResource } from './delivery-fee';
import { hodPauseResource } from './hod-pause';
import { hodReportResource } from './hod-report';
import { itemResource } from './item';
import { mailTemplateResource } from './mail-template';
import { masterOptionResource } from './master-option';
import { orderResource } from './order';
import { orderSettingResource } from './order-setting';
import { paymentResource } from './payment';
import { reportResource } from './report';
import { salesResource } from './sales';
import { soukoResource } from './souko';
import { taxResource } from './tax';
import { roleResource } from './role';
import { serverHistoryResource } from './server-history';
import type { ResourceDef } from './types';
import { userResource } from './user';
import { yayoiSettingResource } from './yayoi-setting';
import { serverResource } from './water-server';

export const RESOURCES: Record<string, ResourceDef> = {
  client: clientResource,
  order: orderResource,
  contact: contactResource,
  report: reportResource,
  daily: dailyResource,
  agreement: agreementResource,
  item: itemResource,
  user: userResource,
  role: roleResource,
  mailtemplate: mailTemplateResource,
  master_option: masterOptionResource,
  deliveryfee: deliveryFeeResource,
  log: auditLogResource,
  souko: soukoResource,
  server: serverResource,
  bottle: bottleResource,
  tax: taxResource,
  hodpause: hodPauseResource,
  hodreport: hodReportResource,
  ordersetting: orderSettingResource,
  company: companyResource,
  payment: paymentResource,
  sales: salesResource,
  billing: billingResource,
  serverhistory: serverHistoryResource,
  yayoisetting: yayoiSettingResource,
};

/** A declared resource's name (its call prefix): every registry keyed by resource is keyed by this, so a wrong key does not compile. */
export type ResourceName = keyof typeof RESOURCES;

export type { ResourceDef, FieldDef, ColumnDef, Option, RelatedDef } from './types';
