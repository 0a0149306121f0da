/**
 * The import kinds (issue 14): each kind's columns live in `lib/imports/columns/<kind>.ts` and its handler in
 * `server/imports/kinds/<kind>.ts` (the carriers' waybill kinds share one file of each); the one machinery
 * (server/imports) and the one screen (components/screens/system/import.tsx) read them from here. A kind not registered yet is answered 400 「この取込はまだ使えません。」.
 */
import { clientImportKind } from './columns/client';
import { orderImportKind } from './columns/order';
import { waybillImportKind, waybillSagawaImportKind } from './columns/waybill';
import { jaccsResultImportKind } from './columns/jaccs_result';
import type { ImportKindInfo } from './kinds';

import { isImportKind, type ImportKind } from './pages';

export { IMPORT_KIND_NAMES, isImportKind, type ImportKind } from './pages';

/** Every kind that can be imported now (others add their line as they land). */
export const IMPORT_KINDS: Partial<Record<ImportKind, ImportKindInfo>> = {
  client: clientImportKind,
  order: orderImportKind,
  waybill: waybillImportKind,
  waybill_sagawa: waybillSagawaImportKind,
  jaccs_result: jaccsResultImportKind,
};

/** The kind's declaration, or undefined for an unknown name or a kind not built yet. */
export const importKindInfo = (kind: string): ImportKindInfo | undefined => (isImportKind(kind) ? IMPORT_KINDS[kind] : undefined);
