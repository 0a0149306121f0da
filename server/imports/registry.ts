/**
 * The import kinds' handlers (server/imports/kinds/<kind>.ts), by kind: the machinery (server/imports/plugin.ts) runs
 * the one registered for a file's kind; a kind declared in lib/imports/registry.ts without a handler is not offered.
 */
import type { ImportKind } from '../../lib/imports/registry';
import type { ImportKindHandler } from './kind';
import { clientImport } from './kinds/client';
import { jaccsResultImport } from './kinds/jaccs_result';
import { orderImport } from './kinds/order';
import { waybillImport, waybillSagawaImport } from './kinds/waybill';

export const IMPORT_HANDLERS: Partial<Record<ImportKind, ImportKindHandler>> = {
  client: clientImport,
  order: orderImport,
  waybill: waybillImport,
  waybill_sagawa: waybillSagawaImport,
  jaccs_result: jaccsResultImport,
};
