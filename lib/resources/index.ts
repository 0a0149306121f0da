/** Every declared resource, by call prefix. Adding a resource is one line here. */
import { agreementResource } from './agreement';
import { clientResource } from './client';
import { contactResource } from './contact';
import { dailyResource } from './daily';
import { itemResource } from './item';
import { mailTemplateResource } from './mail-template';
import { orderResource } from './order';
import { reportResource } from './report';
import { roleResource } from './role';
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
  role: roleResource,
  mailtemplate: mailTemplateResource,
};

export type { ResourceDef, FieldDef, ColumnDef, Option, RelatedDef } from './types';
