/** Every declared resource, by call prefix. Adding a resource is one line here. */
import { clientResource } from './client';
import { orderResource } from './order';
import type { ResourceDef } from './types';

export const RESOURCES: Record<string, ResourceDef> = {
  client: clientResource,
  order: orderResource,
};

export type { ResourceDef, FieldDef, ColumnDef, Option } from './types';
