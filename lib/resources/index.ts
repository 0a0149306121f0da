/** Every declared resource, by call prefix. Adding a resource is one line here. */
import { agreementResource } from './agreement';
import { auditLogResource } from './audit-log';
import { clientResource } from './client';
import { contactResource } from './contact';
import { dailyResource } from './daily';
import { deliveryFeeResource } from './delivery-fee';
import { itemResource } from './item';
import { mailTemplateResource } from './mail-template';
import { masterOptionResource } from './master-option';
import { orderResource } from './order';
import { reportResource } from './report';
import type { ResourceDef } from './types';
import { userResource } from './user';

export const RESOURCES: Record<string, ResourceDef> = {
  client: clientResource,
  order: orderResource,
  contact: contactResource,
  report: reportResource,
  daily: dailyResource,
  agreement: agreementResource,
  item: itemResource,
  user: userResource,
  mailtemplate: mailTemplateResource,
  master_option: masterOptionResource,
  deliveryfee: deliveryFeeResource,
  log: auditLogResource,
};

export type { ResourceDef, FieldDef, ColumnDef, Option, RelatedDef } from './types';
