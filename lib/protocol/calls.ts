/**
 * The ONE call map (DESIGN §3): every `POST {dbApi}/{call}` — its name, its gate (the permission area and level
 * checked with `can()`; a null area: any logged-in user) and, as types, its parameters and the row its answer
 * array holds. The server's `addCall` registers by it (a name not in it does not compile, the gate comes from it),
 * the client's `call()`, `download()` and `upload()` read their types from it, `canCall(name)` its gate, and
 * `npm run docs` writes docs/calls.md from it.
 *
 * Resource calls (`{r}_lst`, `{r}_dtl`, `{r}_save` …) are derived from the resource names and the declarations
 * (lib/resources RESOURCES), never written per resource. Not re-exported from lib/protocol.ts: it reads the
 * declarations, which import lib/protocol.ts.
 */
import type { AccountingExportRow } from '../accounting/yayoi';
import type { MailBatchPreview } from '../billing/mail-batch';
import type { ArchiveDeliveryRow, BillingRateRow, BillingSendRow, ClosingItems, ClosingListRow, ClosingPreview, ClosingRestoreResult, ClosingWarning, LateEntry } from '../closing/answers';
import type { ClientCodeAssignment } from '../clients/code-assign';
import type { HodListRow, HodPreview } from '../hod/kinds';
import type { Uriage } from '../hod/uriage';
import type { ImportPreview } from '../imports/kinds';
import type { ImportRunInfo } from '../imports/runs';
import type { JaccsFailure, JaccsPreview } from '../jaccs/contract';
import type { JobInfo, JobStarted } from '../jobs';
import type { B2Preview } from '../orders/b2';
import type { StatusResult } from '../orders/status';
import type { Area } from '../permissions';
import type { RenderedMail } from '../mail-template';
import type { PostalAddress } from '../postal';
import type { CountExactAnswer, CountMore, FilterValue, HomeNotice, MailStatus, MasterOption, PaginationAnswer, RoleMine, SavedSearch, Verb } from '../protocol';
import { RESOURCES, type ResourceName } from '../resources';
import type { RowOf } from '../resources/row';
import type { BottleBalance } from '../resources/bottle';
import type { HodReportSlip } from '../resources/hod-report';
import { mailTemplateResource } from '../resources/mail-template';
import type { ReceivableSummary } from '../resources/sales';
import { allows, allowsBulk, type ResourceDef } from '../resources/types';
import type { AllocationRow, PaymentAllocation } from '../sales/allocation';
import type { RentalPreview } from '../sales/rental';
import type { AgingList, SalesReport } from '../sales/report';
import type { StockAnswer, StockMoveAnswer } from '../stock';

/** What a call's form parameters may hold (objects are sent as JSON). */
export type WireParams = Record<string, string | number | boolean | object | null | undefined>;

/** The gate of a call: `can(areas, area, level)`; a null area lets any logged-in user through. */
export interface CallGate {
  area: Area | null;
  level: 'read' | 'write';
}

/** A call's types: the parameters it takes and one row of its answer array (`FileRow`: it answers a file). */
export interface CallSig<P extends WireParams = WireParams, A = unknown> {
  params: P;
  answer: A;
}

/** The answer of a call that answers a file (`download`), not a JSON array. */
export interface FileRow {
  file: true;
}

export { RESOURCE_NAMES, type ResourceName } from '../resources';

/**
 * The row of resource `R` as its calls answer it (`{r}_lst`, `{r}_dtl`, `{r}_save` …): its declared columns typed from
 * the declaration (`RowOf`, lib/resources/row.ts), plus the answer's other columns (`{column}_label`, a list's computed
 * columns) as unknown.
 */
export type ResourceRowOf<R extends ResourceName> = RowOf<(typeof RESOURCES)[R]> & Record<string, unknown>;

/** The verbs a resource's calls may have (`upd` is no generic call). */
export type ResourceVerb = Exclude<Verb, 'upd'>;

type Id = number | string;
/** Parameters of a list, its count, pagination, sum and CSV (ListQuery, all optional on the wire). */
export type ListParams = WireParams & {
  n?: number;
  p?: number;
  col?: string;
  odr?: string;
  kw?: string;
  postData?: Record<string, FilterValue> | string;
};
type SaveData = Record<string, unknown> | string;

/** The calls of resource R, verb by verb. */
interface ResourceVerbSigs<R extends ResourceName> {
  lst: CallSig<ListParams, ResourceRowOf<R>>;
  /** `[n]`, or `[LIMITS.countCap, { more: true }]` for a filtered total past the cap. */
  cnt: CallSig<ListParams, number | CountMore>;
  pagination: CallSig<ListParams, PaginationAnswer>;
  sum: CallSig<ListParams, Record<string, number>>;
  csv: CallSig<ListParams & { cols?: string; enc?: string }, FileRow>;
  dtl: CallSig<{ id: Id }, ResourceRowOf<R>>;
  save: CallSig<{ id?: Id; postData: SaveData }, ResourceRowOf<R>>;
  bulk_save: CallSig<{ postData: { rows: Record<string, unknown>[] } | string }, ResourceRowOf<R>>;
  del: CallSig<{ id: Id }, { id: number }>;
}

/** `{r}_{verb}` of every resource. */
export type ResourceCallName<V extends ResourceVerb = ResourceVerb> = `${ResourceName}_${V}`;
type ResourceSigOf<N extends string> = {
  [R in ResourceName]: { [V in ResourceVerb]: N extends `${R}_${V}` ? ResourceVerbSigs<R>[V] : never }[ResourceVerb];
}[ResourceName];
type ResourceCalls = { [N in ResourceCallName]: ResourceSigOf<N> };

/** A call's entry in the map: its gate, and its types as phantoms (never set at run time). */
export interface CallEntry<P extends WireParams, A> extends CallGate {
  readonly types?: CallSig<P, A>;
}
const gate = <P extends WireParams = WireParams, A = Record<string, unknown>>(area: Area | null, level: 'read' | 'write'): CallEntry<P, A> => ({ area, level });

type Period = { from: string; to: string };
type Closing = { sime_gp: string | number; sime_ym: string | number };
type JobParams = WireParams & { kind?: string; scope?: string; state?: string; n?: number };

/** Every call that is not a resource's generic call, with its gate. */
export const FIXED_CALLS = {
  // Session and shared lookups: any logged-in user.
  role_mine: gate<WireParams, RoleMine>(null, 'read'),
  logout: gate(null, 'read'),
  search_save: gate<WireParams, SavedSearch>(null, 'write'),
  search_lst: gate<{ srch_tbl: string }, SavedSearch>(null, 'read'),
  search_dtl: gate<{ srch_id: Id }, SavedSearch>(null, 'read'),
  search_sync: gate<{ srch_id: Id }>(null, 'write'),
  master_lst: gate<{ table: string }, MasterOption>(null, 'read'),
  mail_status: gate<WireParams, MailStatus>(null, 'read'),
  postal_lookup: gate<{ zipcode: string }, PostalAddress>(null, 'read'),
  notice_home: gate<WireParams, HomeNotice>(null, 'read'),
  job_dtl: gate<{ id: Id }, JobInfo>(null, 'read'),
  job_lst: gate<JobParams, JobInfo>(null, 'read'),
  job_cancel: gate<{ id: Id }, JobInfo>(null, 'write'),
  // Child rows of a record (ResourceDef.children.call): the parent resource's area.
  order_detail_lst: gate<{ od_id: Id }>(RESOURCES.order.area, 'read'),
  hodreport_stop_lst: gate<WireParams>(RESOURCES.hodreport.area, 'read'),
  sales_detail_lst: gate<WireParams>(RESOURCES.sales.area, 'read'),
  // Mail templates (server/mail): the template resource's area.
  mailtemplate_preview: gate<WireParams & { id: Id }, RenderedMail & { email: string }>(mailTemplateResource.area, 'read'),
  mailtemplate_send: gate<WireParams & { id: Id; to: string }, { sent: boolean; to: string; subject: string }>(mailTemplateResource.area, 'write'),
  // Clients, orders, delivery.
  client_code_assign: gate<{ commit?: string }, ClientCodeAssignment>('client', 'write'),
  order_warehouse: gate<{ ids: string; sk_id: Id }, { od_id: number }>('order', 'write'),
  order_previous: gate<{ od_id?: Id } | { cl_id: Id }>('order', 'read'),
  order_status: gate<WireParams & { status: string }, StatusResult>('order', 'write'),
  hod_preview: gate<Period & { n?: number; p?: number }, HodPreview>('order', 'read'),
  hod_generate: gate<Period, JobStarted>('order', 'write'),
  hod_list: gate<WireParams, HodListRow>('hod', 'read'),
  hod_uriage: gate<WireParams, Uriage>('hod', 'read'),
  hodreport_slip_lst: gate<{ hr_id: Id; modified?: string }, HodReportSlip>('hod', 'read'),
  // Stock.
  stock_lst: gate<WireParams, StockAnswer>('stock', 'read'),
  stock_move_lst: gate<WireParams, StockMoveAnswer>('stock', 'read'),
  stock_adjust: gate<{ sk_id: Id; postData: Record<string, unknown> }>('stock', 'write'),
  bottle_balance: gate<{ cl_id: Id }, BottleBalance>('stock', 'read'),
  server_upd: gate<WireParams>('stock', 'write'),
  // Sales, payments, closings, invoices.
  rental_preview: gate<WireParams, RentalPreview>('sales', 'read'),
  rental_generate: gate<WireParams, JobStarted>('sales', 'write'),
  allocation_lst: gate<{ bl_id: Id } | { py_id: Id }, AllocationRow>('sales', 'read'),
  payment_allocate: gate<WireParams & { py_id: Id; modified: string }, PaymentAllocation>('sales', 'write'),
  allocation_del: gate<{ al_id: Id }, PaymentAllocation>('sales', 'write'),
  salesreport: gate<WireParams, SalesReport>('sales', 'read'),
  salesreport_csv: gate<WireParams, FileRow>('sales', 'read'),
  aging_lst: gate<WireParams, AgingList>('sales', 'read'),
  sales_receivable: gate<WireParams, ReceivableSummary>('sales', 'read'),
  closing_preview: gate<Closing, ClosingPreview>('sales', 'read'),
  closing_preview_items: gate<WireParams, ClosingItems>('sales', 'read'),
  closing_warnings: gate<Closing, ClosingWarning>('sales', 'read'),
  closing_run: gate<WireParams, JobStarted>('sales', 'write'),
  closing_restore: gate<Closing & { reason?: string }, ClosingRestoreResult>('sales', 'write'),
  closing_lst: gate<WireParams, ClosingListRow>('sales', 'read'),
  closing_late: gate<{ cl_id: Id; date: string }, LateEntry>('sales', 'read'),
  billing_rate_lst: gate<{ bl_id: Id }, BillingRateRow>('sales', 'read'),
  billing_pdf: gate<{ id: Id }, FileRow>('sales', 'write'),
  billing_pint: gate<{ id: Id }, FileRow>('sales', 'write'),
  billing_pdf_batch: gate<WireParams, JobStarted>('sales', 'write'),
  billing_pdf_batch_file: gate<{ job_id: Id; format: string }, FileRow>('sales', 'read'),
  billing_mail: gate<{ id: Id }, { to?: string }>('sales', 'write'),
  billing_mail_batch_preview: gate<WireParams, MailBatchPreview>('sales', 'read'),
  billing_mail_batch: gate<WireParams, JobStarted>('sales', 'write'),
  billing_send_lst: gate<{ bl_id: Id }, BillingSendRow>('sales', 'read'),
  archive_file: gate<{ id: Id }, FileRow>('sales', 'read'),
  billing_link: gate<{ cl_id: Id }, { url: string; expires: string }>('sales', 'write'),
  billing_link_revoke: gate<{ cl_id: Id }, { revoked: number }>('sales', 'write'),
  archive_delivery_lst: gate<{ ar_id: Id }, ArchiveDeliveryRow>('sales', 'read'),
  // Exports and imports.
  export_yayoi: gate<WireParams & Period, FileRow>('import', 'write'),
  accounting_export_lst: gate<WireParams, AccountingExportRow>('import', 'read'),
  download_table: gate<WireParams & { table: string }, FileRow>('download', 'write'),
  jaccs_preview: gate<Closing, JaccsPreview>('import', 'read'),
  jaccs_request: gate<Closing & { reissue?: string }, FileRow>('import', 'write'),
  jaccs_failure_lst: gate<WireParams, JaccsFailure>('import', 'read'),
  export_b2_preview: gate<WireParams, B2Preview>('import', 'read'),
  export_b2: gate<{ ids: string; ship_date: string }, FileRow>('import', 'write'),
  // Imports: each kind checks its own area in the handler.
  import_preview: gate<WireParams & { kind: string }, ImportPreview>(null, 'write'),
  import_commit: gate<WireParams & { import_id: string }, JobStarted>(null, 'write'),
  import_errors_csv: gate<{ import_id: Id }, FileRow>(null, 'read'),
  import_lst: gate<{ kind: string; n?: number }, ImportRunInfo>(null, 'read'),
  import_template: gate<{ kind: string }, FileRow>(null, 'read'),
  // A list's exact total (server/resources/list-count.ts): the resource's area, checked in the handler.
  count_exact: gate<ListParams & { resource: string; wait?: number }, CountExactAnswer>(null, 'read'),
} as const;

type FixedCalls = { [N in keyof typeof FIXED_CALLS]: (typeof FIXED_CALLS)[N] extends CallEntry<infer P, infer A> ? CallSig<P, A> : never };

/** The call map as types: every call's name → its parameters and answer row. */
export type Calls = FixedCalls & ResourceCalls;
export type CallName = keyof Calls;
export type ParamsOf<N extends CallName> = Calls[N]['params'];
export type AnswerOf<N extends CallName> = Calls[N]['answer'];
/** The calls answering a file (`download`). */
export type FileCallName = { [N in CallName]: AnswerOf<N> extends FileRow ? N : never }[CallName];

/** The calls that start a job (they answer its id; lib/client/api/use-job.ts follows it). */
export type JobCallName = { [N in CallName]: AnswerOf<N> extends JobStarted ? N : never }[CallName];

/** `{r}_{verb}` of a declared resource, typed: `resourceCall(def, 'lst')`. */
export const resourceCall = <V extends ResourceVerb>(def: Pick<ResourceDef, 'name'>, verb: V): `${ResourceName}_${V}` => `${def.name as ResourceName}_${verb}`;

/** The call of a resource's child rows (`ResourceDef.children.call`, e.g. `order_detail_lst`), typed. */
export const childRowsCall = (children: { call: string }): ChildRowsCallName => children.call as ChildRowsCallName;
export type ChildRowsCallName = 'order_detail_lst' | 'hodreport_stop_lst' | 'sales_detail_lst';

/** The generic calls a resource has, from its declaration (what server/resources/plugin.ts registers). */
export function resourceVerbs(def: ResourceDef): Set<ResourceVerb> {
  const verbs = new Set<ResourceVerb>(['lst', 'cnt', 'pagination', 'dtl']);
  if (def.list.totals?.length) verbs.add('sum');
  if (def.single === undefined) verbs.add('csv');
  if (allows(def, 'create') || allows(def, 'edit')) {
    verbs.add('save');
    if (allowsBulk(def)) verbs.add('bulk_save');
    if (allows(def, 'delete')) verbs.add('del');
  }
  return verbs;
}

const READS: ReadonlySet<ResourceVerb> = new Set(['lst', 'cnt', 'pagination', 'sum', 'csv', 'dtl']);

/** Every call with its gate, at run time: the fixed calls and the generic calls of each resource. */
export const CALL_GATES: ReadonlyMap<CallName, CallGate> = new Map<CallName, CallGate>([
  ...Object.values(RESOURCES).flatMap((def) =>
    [...resourceVerbs(def)].map((verb): [CallName, CallGate] => [resourceCall(def, verb), { area: def.area, level: READS.has(verb) ? 'read' : 'write' }])),
  ...Object.entries(FIXED_CALLS).map(([name, { area, level }]): [CallName, CallGate] => [name as CallName, { area, level }]),
]);

/** Whether a name is a call of the map. */
export const isCallName = (name: string): name is CallName => CALL_GATES.has(name as CallName);
