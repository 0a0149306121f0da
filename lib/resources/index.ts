/** Every declared resource, by call prefix. Adding a resource is one line here. */
import { agreementResource } from './agreement';
import { bottleResource } from './bottle';
import { clientResource } from './client';
import { contactResource } from './contact';
import { dailyResource } from './daily';
import { itemResource } from './item';
import { orderResource } from './order';
import { reportResource } from './report';
import { soukoResource } from './souko';
import { taxResource } from './tax';
import type { ResourceDef } from './types';
import { userResource } from './user';
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
  souko: soukoResource,
  server: serverResource,
  bottle: bottleResource,
  tax: taxResource,
};

export type { ResourceDef, FieldDef, ColumnDef, Option, RelatedDef } from './types';
