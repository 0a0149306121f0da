/**
 * Small per-resource additions to the generic screens, by resource name. A resource that needs
 * more than the declaration gives adds one line here, not a copy of the screen.
 * - `DETAIL_EXTENSIONS`: short facts in the bar above the form (inside it: no forms of their own).
 * - `DETAIL_SECTIONS`: panels of their own below the form (tables, forms with their own submit): stock, a payment's
 *   消込, an invoice's rates, PDF and mail, and allocations.
 * - `ROW_DETAILS`: what a list row unfolds to.
 * - `RELATED_ACTIONS`: buttons beside a related tab's list, by `{parent resource}.{related resource}`.
 * - `LINES_EXTRAS`: what the lines editor of a resource's child rows shows beyond the declaration.
 * - `FORM_PANELS`: panels under the form of a new or saved record that follow what the form holds.
 */
import type { ComponentType } from 'react';
import { AuditChanges } from './audit-changes';
import { BillingAllocations, BillingDocuments, BillingRates, BillingRowDocuments } from './billing-detail';
import { BottleBalance } from './bottle-balance';
import { hodStops } from './hod-stops';
import { LastOrder } from './last-order';
import { MailPreview } from './mail-preview';
import { OpenItems } from './open-items';
import { PaymentAllocations } from './payment-allocation';
import { Receivable } from './receivable';
import { salesLines } from './sales-lines';
import { ServerMoves } from './server-moves';
import { ItemStock, WarehouseStock } from './stock';
import { ItemTaxRate } from './tax-rate';
import type { DetailExtensionProps, FormPanelProps, LinesExtras, RelatedActionProps, RowDetailProps } from './types';

export type { DetailExtensionProps, FormPanelProps, LinesExtras, RelatedActionProps, RowDetailProps } from './types';

export const DETAIL_EXTENSIONS: Record<string, readonly ComponentType<DetailExtensionProps>[]> = {
  client: [LastOrder, BottleBalance, Receivable],
  item: [ItemTaxRate],
  mailtemplate: [MailPreview],
};

export const DETAIL_SECTIONS: Record<string, readonly ComponentType<DetailExtensionProps>[]> = {
  souko: [WarehouseStock],
  item: [ItemStock],
  payment: [PaymentAllocations],
  billing: [BillingRates, BillingDocuments, BillingAllocations],
};

/** What a list row unfolds to (a toggle per row): the audit log's before → after, an invoice's PDF, reprint and mail. */
export const ROW_DETAILS: Record<string, ComponentType<RowDetailProps>> = {
  log: AuditChanges,
  billing: BillingRowDocuments,
};

/** Buttons beside a related tab's list: the customer's サーバー tab installs, exchanges and takes back servers. */
export const RELATED_ACTIONS: Record<string, ComponentType<RelatedActionProps>> = {
  'client.server': ServerMoves,
};

/** The lines editor's additions per resource with children (the order's come from its own screen). */
export const LINES_EXTRAS: Record<string, LinesExtras> = {
  hodreport: hodStops,
  sales: salesLines,
};

/** Under the form, new or saved: the payment screen shows the chosen customer's balance and open items. */
export const FORM_PANELS: Record<string, readonly ComponentType<FormPanelProps>[]> = {
  payment: [OpenItems],
};
