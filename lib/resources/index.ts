/** Every declared resource, by call prefix. Adding a resource is one line here; the rest is derived from its declaration. */
import { agreementResource } from './agreement';
import { archiveResource } from './archive';
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
import { noticeResource } from './notice';
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

export const RESOURCES = {
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
  notice: noticeResource,
  archive: archiveResource,
} as const satisfies Record<string, ResourceDef>;

/** A declared resource's name (its call prefix): every registry keyed by resource is keyed by this, so a wrong key does not compile. */
export type ResourceName = keyof typeof RESOURCES;

/** Every declaration, typed as the common `ResourceDef` (what code looping over all resources reads). */
export const RESOURCE_LIST: readonly ResourceDef[] = Object.values(RESOURCES);

/** Every resource's name, in declaration order. */
export const RESOURCE_NAMES = Object.keys(RESOURCES) as readonly ResourceName[];

/** Whether a name read at run time (a call's prefix, a stored ref) is a declared resource's. */
export const isResourceName = (name: string): name is ResourceName => Object.hasOwn(RESOURCES, name);

/**
 * The declaration a name read at run time names, or undefined.
 * @example resourceNamed('client')?.label // '顧客'
 */
export const resourceNamed = (name: string): ResourceDef | undefined => (isResourceName(name) ? RESOURCES[name] : undefined);

/**
 * A registry's entry (keyed by `ResourceName`: detail sections, row details …) for a resource named at run time (a
 * declaration's `name`), or undefined.
 * @example byResource(DETAIL_SECTIONS, def.name)
 */
export const byResource = <T>(registry: Partial<Readonly<Record<ResourceName, T>>>, name: string): T | undefined =>
  isResourceName(name) ? registry[name] : undefined;

export type { ResourceDef, FieldDef, ColumnDef, Option, RelatedDef } from './types';
