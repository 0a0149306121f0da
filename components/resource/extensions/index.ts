/**
 * Small per-resource additions to the generic screens, by resource name (`ResourceName`: a misspelled key does not compile; read with `byResource`). A resource that needs
 * more than the declaration gives adds one line here, not a copy of the screen.
 * - `DETAIL_EXTENSIONS`: short facts in the bar above the form (inside it: no forms of their own).
 * - `DETAIL_SECTIONS`: panels of their own below the form (tables, forms with their own submit): stock, a payment's
 *   消込, an invoice's rates, PDF and mail, and allocations; an archived invoice's stored file and deliveries; the 保証金 slips a delivery round made; 自社情報's
 *   顧客コードの一括採番.
 * - `ROW_DETAILS`: what a list row unfolds to.
 * - `RELATED_ACTIONS`: buttons beside a related tab's list, by parent resource, then related resource.
 * - `LINES_SECTIONS`: a resource's child rows drawn with more than the declaration (the lines editor with its additions).
 * - `FORM_PANELS`: panels under the form of a new or saved record that follow what the form holds.
 */
import type { ComponentType } from 'react';
import type { ResourceName } from '@/lib/resources';
import { AuditChanges } from './audit-changes';
import { ArchiveFile, ArchiveRowFile, BillingAllocations, BillingDocuments, BillingRates, BillingRowDocuments } from './billing-detail';
import { BottleBalance } from './bottle-balance';
import { ClientCodeAssign } from './client-codes';
import { HodReportSlips } from './hod-report-slips';
import { HodStops } from './hod-stops';
import { LateEntryNotice } from './late-entry';
import { LastOrder } from './last-order';
import { MailPreview } from './mail-preview';
import { OpenItems } from './open-items';
import { PaymentAllocations } from './payment-allocation';
import { Receivable } from './receivable';
import { SalesLines } from './sales-lines';
import { ServerMoves } from './server-moves';
import { ItemStock, WarehouseStock } from './stock';
import { ItemTaxRate } from './tax-rate';
import type { DetailExtensionProps, FormPanelProps, LinesSectionProps, RelatedActionProps, RowDetailProps } from './types';

export type { DetailExtensionProps, FormPanelProps, LinesSectionProps, RelatedActionProps, RowDetailProps } from './types';

export const DETAIL_EXTENSIONS: Partial<Record<ResourceName, readonly ComponentType<DetailExtensionProps>[]>> = {
  client: [LastOrder, BottleBalance, Receivable],
  item: [ItemTaxRate],
  mailtemplate: [MailPreview],
};

export const DETAIL_SECTIONS: Partial<Record<ResourceName, readonly ComponentType<DetailExtensionProps>[]>> = {
  souko: [WarehouseStock],
  item: [ItemStock],
  payment: [PaymentAllocations],
  billing: [BillingRates, BillingDocuments, BillingAllocations],
  archive: [ArchiveFile],
  hodreport: [HodReportSlips],
  company: [ClientCodeAssign],
};

/** What a list row unfolds to (a toggle per row): the audit log's before → after, an invoice's PDF, reprint and mail. */
export const ROW_DETAILS: Partial<Record<ResourceName, ComponentType<RowDetailProps>>> = {
  log: AuditChanges,
  billing: BillingRowDocuments,
  archive: ArchiveRowFile,
};

/** Buttons beside a related tab's list: the customer's サーバー tab installs, exchanges and takes back servers. */
export const RELATED_ACTIONS: Partial<Record<ResourceName, Partial<Record<ResourceName, ComponentType<RelatedActionProps>>>>> = {
  client: { server: ServerMoves },
};

/**
 * The child rows of a resource drawn with additions to the one lines editor (the order's come from its own screen):
 * the round's stops with their totals row, the sales slip's lines priced live with the slip's totals per rate.
 */
export const LINES_SECTIONS: Partial<Record<ResourceName, ComponentType<LinesSectionProps>>> = {
  hodreport: HodStops,
  sales: SalesLines,
};

/**
 * Under the form, new or saved: the payment screen shows the chosen customer's balance and open items; a slip or payment
 * dated in a closed period says which closing will bill it.
 */
export const FORM_PANELS: Partial<Record<ResourceName, readonly ComponentType<FormPanelProps>[]>> = {
  sales: [LateEntryNotice],
  payment: [LateEntryNotice, OpenItems],
};
