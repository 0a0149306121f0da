/**
 * 消込 (allocation): a payment's parts allocated to the invoices of its billing customer (the top of the payment
 * customer's `parent_id` chain). One transaction per change: the allocation rows (`allocation`, `al_*`), the invoices'
 * 消込済額 `bl_allocated` and 残額 `bl_open` (derived, re-computed like 売掛残高: not stamped as a change of the invoice),
 * the payment's `modified` (the version the next allocation of the payment names) and one audit row per allocation
 * row added, changed or removed. Rules: the same billing customer; amounts whole yen with the payment's sign; Σ of a
 * payment's allocations within its amount; an invoice's allocations between 0 and its total (残額 never past zero).
 * Locks: the payment rows first, then the invoices, each lowest id first, so two allocations to one invoice queue and
 * the second sums what the first committed. ONE path, `allocateMany`, for one payment (`payment_allocate`) or twenty
 * thousand (a JACCS result): a statement per thousand payments or invoices, the checks in memory.
 *
 * A payment matched to an invoice that a later closing carried (繰越, migration 0054: settled by the invoice that carries
 * its unpaid part) is allocated to the invoice that carries it now — the customer's latest, at the end of the 繰越先
 * chain (`carryingInvoices`, issue 19) — whether it comes by hand, by auto 消込 or from a JACCS result.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { formatMoney } from '../../lib/format';
import { MESSAGES } from '../../lib/protocol';
import { ALLOCATION_LINES_MAX, allocationAmount, allocationTotals, type AllocationRow, type PaymentAllocation } from '../../lib/sales/allocation';
import { writeAudits, type AuditEntry } from '../audit/audit-log';
import { billingCustomersOf } from '../clients';
import { chunksOf, insertMany } from '../db/bulk-write';
import { isConcurrencyError, isUniqueError, locking } from '../db/concurrency';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/api-error';
import { nextStamp } from '../http/clock';
import type { WriteActor } from '../resources';

/** Who changes allocations, on which database (the payment policy imports this module, so not records.ts' type). */
export interface AllocationContext extends WriteActor {
  db: Kysely<Database>;
}

/** Two changes raced past each other on PostgreSQL (a deadlock, the pair's unique index): a stale edit. */
const refusalOf = (error: unknown): unknown => (isConcurrencyError(error) || isUniqueError(error) ? new ApiError(409, MESSAGES.conflict) : error);

/** Whose allocations: one payment's, or one invoice's. */
export type AllocationOwner = { py_id: number } | { bl_id: number };

/** What a call asks: the lines that replace the payment's allocations, or `auto` (its rest to the oldest open invoices). */
export type AllocationRequest = { modified: string } & ({ lines: unknown } | { auto: true });

/** One allocation line as checked: an invoice and an amount. */
interface Line {
  bl_id: number;
  amount: number;
}

interface Invoice {
  bl_id: number;
  bl_number: string;
  bl_cl_id: number;
  bl_total: number;
  /** Σ the allocations of other payments to it. */
  others: number;
  /** The number of the later invoice that carries it (繰越, see migration 0054); null while it is the customer's latest. */
  carriedBy: string | null;
}

const num = (value: unknown): number => Number(value ?? 0);

/** A refusal naming a line's field (`lines.{i}.{field}`, as child rows are named) as well as the message. */
const lineProblem = (index: number, field: 'bl_id' | 'amount', message: string): ApiError =>
  badRequest(message, { fields: { [`lines.${index}.${field}`]: message } });

/**
 * The allocations of a payment (by invoice closing date) or of an invoice (by payment date), with the invoice, the
 * payment and who made each.
 * @example await allocationsOf(db, { py_id: 12 }) // [{ al_id: 3, al_bl_id: 7, al_amount: 5400, bl_number: 'B202605-000007', … }]
 */
export async function allocationsOf(db: Kysely<Database> | Transaction<Database>, owner: AllocationOwner): Promise<AllocationRow[]> {
  let query = db.selectFrom('allocation')
    .innerJoin('billing', 'billing.bl_id', 'allocation.al_bl_id')
    .innerJoin('payment', 'payment.py_id', 'allocation.al_py_id')
    .leftJoin('user', 'user.user_id', 'allocation.al_usr_id')
    .select([
      'allocation.al_id', 'allocation.al_bl_id', 'allocation.al_py_id', 'allocation.al_amount', 'allocation.created', 'user.user_name',
      'billing.bl_number', 'billing.bl_sime_ym', 'billing.bl_closing_date', 'billing.bl_total', 'billing.bl_open',
      'payment.py_date', 'payment.py_kind', 'payment.py_amount',
    ]);
  query = 'py_id' in owner
    ? query.where('allocation.al_py_id', '=', owner.py_id).orderBy('billing.bl_closing_date').orderBy('allocation.al_bl_id')
    : query.where('allocation.al_bl_id', '=', owner.bl_id).orderBy('payment.py_date').orderBy('allocation.al_py_id');
  const rows = await query.execute();
  return rows.map((r) => ({
    al_id: num(r.al_id), al_bl_id: num(r.al_bl_id), al_py_id: num(r.al_py_id), al_amount: num(r.al_amount), created: String(r.created),
    user_name: String(r.user_name ?? ''), bl_number: String(r.bl_number ?? ''), bl_sime_ym: String(r.bl_sime_ym ?? ''),
    bl_closing_date: String(r.bl_closing_date ?? ''), bl_total: num(r.bl_total), bl_open: num(r.bl_open),
    py_date: String(r.py_date ?? ''), py_kind: String(r.py_kind ?? ''), py_amount: num(r.py_amount),
  }));
}

/**
 * Re-computes the invoices' 消込済額 and 残額 from their allocations, a thousand invoices per statement (their
 * allocations summed once, grouped, not once per column).
 * @example await recomputeAllocated(trx, [7, 9])
 */
export async function recomputeAllocated(trx: Transaction<Database>, billingIds: readonly number[]): Promise<void> {
  const ids = [...new Set(billingIds)].sort((a, b) => a - b);
  for (const chunk of chunksOf(ids, 1000)) {
    await sql`UPDATE billing SET bl_allocated = s.total, bl_open = CASE WHEN billing.bl_carried_by IS NULL THEN billing.bl_total - s.total ELSE 0 END
      FROM (SELECT b.bl_id AS id, COALESCE(SUM(a.al_amount), 0) AS total FROM billing b LEFT JOIN allocation a ON a.al_bl_id = b.bl_id
        WHERE b.bl_id IN (${sql.join(chunk)}) GROUP BY b.bl_id) AS s
      WHERE billing.bl_id = s.id`.execute(trx);
  }
}

/**
 * Why a payment's amount or customer may not change, nor the payment be deleted: the invoices it is allocated to
 * (undefined when none). The payment policy asks it with the payment row locked.
 * @example await allocatedRefusal(trx, 12, '削除') // 'この入金は請求書 B202605-000007 に消込済みのため削除できません。先に消込を取り消してください。'
 */
export async function allocatedRefusal(trx: Transaction<Database>, paymentId: number, what: string): Promise<string | undefined> {
  const rows = await trx.selectFrom('allocation').innerJoin('billing', 'billing.bl_id', 'allocation.al_bl_id')
    .select(['billing.bl_number']).where('allocation.al_py_id', '=', paymentId).orderBy('billing.bl_number').execute();
  if (rows.length === 0) return undefined;
  const numbers = rows.map((r) => String(r.bl_number));
  const named = numbers.length > 5 ? `${numbers.slice(0, 5).join('、')} ほか${numbers.length - 5}件` : numbers.join('、');
  return `この入金は請求書 ${named} に消込済みのため${what}できません。先に消込を取り消してください。`;
}

/** The payments, locked lowest id first until the change commits (a thousand per statement); a deleted one is missing. */
async function lockedPayments(trx: Transaction<Database>, ids: readonly number[]): Promise<Map<number, ResourceRow>> {
  const out = new Map<number, ResourceRow>();
  for (const chunk of chunksOf([...new Set(ids)].sort((a, b) => a - b), 1000)) {
    const rows = await locking(trx, trx.selectFrom('payment').select(['py_id', 'py_cl_id', 'py_amount', 'modified'])
      .where('py_id', 'in', chunk).where('deleted', '=', 0).orderBy('py_id'), 'update').execute();
    for (const r of rows) out.set(num(r.py_id), r);
  }
  return out;
}

/** The payments' allocation rows, by payment (in id order). */
async function storedOf(trx: Transaction<Database>, paymentIds: readonly number[]): Promise<Map<number, ResourceRow[]>> {
  const out = new Map<number, ResourceRow[]>();
  for (const chunk of chunksOf([...new Set(paymentIds)], 1000)) {
    const rows = await trx.selectFrom('allocation').select(['al_id', 'al_py_id', 'al_bl_id', 'al_amount']).where('al_py_id', 'in', chunk).orderBy('al_id').execute();
    for (const r of rows) out.set(num(r.al_py_id), [...(out.get(num(r.al_py_id)) ?? []), r]);
  }
  return out;
}

/** The invoices (live ones), locked lowest id first, each with Σ of every allocation to it (`others` still 0). */
async function lockedInvoices(trx: Transaction<Database>, ids: readonly number[]): Promise<Map<number, Invoice & { allocated: number }>> {
  const out = new Map<number, Invoice & { allocated: number }>();
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  for (const chunk of chunksOf(sorted, 1000)) {
    const rows = await locking(trx, trx.selectFrom('billing').select(['bl_id', 'bl_number', 'bl_cl_id', 'bl_total', 'bl_carried_by']).where('bl_id', 'in', chunk).where('deleted', '=', 0).orderBy('bl_id'), 'update').execute();
    const carriers = rows.flatMap((r) => (r.bl_carried_by === null || r.bl_carried_by === undefined ? [] : [num(r.bl_carried_by)]));
    const numberOf = new Map(carriers.length === 0 ? [] : (await trx.selectFrom('billing').select(['bl_id', 'bl_number']).where('bl_id', 'in', carriers).execute()).map((r) => [num(r.bl_id), String(r.bl_number)]));
    const sums = await trx.selectFrom('allocation').select(['al_bl_id', (eb) => eb.fn.sum<number>('al_amount').as('sum')])
      .where('al_bl_id', 'in', chunk).groupBy('al_bl_id').execute();
    const sumOf = new Map(sums.map((o) => [num(o.al_bl_id), num(o.sum)]));
    for (const r of rows) {
      const id = num(r.bl_id);
      const carriedBy = r.bl_carried_by === null || r.bl_carried_by === undefined ? null : numberOf.get(num(r.bl_carried_by)) ?? String(r.bl_carried_by);
      out.set(id, { bl_id: id, bl_number: String(r.bl_number), bl_cl_id: num(r.bl_cl_id), bl_total: num(r.bl_total), others: 0, carriedBy, allocated: sumOf.get(id) ?? 0 });
    }
  }
  return out;
}

/** More 繰越 steps than a century of monthly closings. */
const MAX_CARRIES = 1200;

/**
 * The invoice that carries each invoice now: the end of its 繰越先 chain (`bl_carried_by`, followed a step per query, a
 * statement per thousand invoices), itself when it is not carried.
 * @example await carryingInvoices(trx, [7]) // Map { 7 => 12 } (7 carried by 9, 9 by 12)
 */
export async function carryingInvoices(trx: Transaction<Database>, ids: readonly number[]): Promise<Map<number, number>> {
  const out = new Map(ids.map((id) => [id, id]));
  let pending = [...new Set(ids)];
  // A chain moves to later invoices, a step per closing: the bound only keeps a damaged one from looping.
  for (let hops = 0; pending.length > 0 && hops < MAX_CARRIES; hops++) {
    const step = new Map<number, number>();
    for (const chunk of chunksOf(pending, 1000)) {
      const rows = await trx.selectFrom('billing').select(['bl_id', 'bl_carried_by']).where('bl_id', 'in', chunk).where('bl_carried_by', 'is not', null).execute();
      for (const r of rows) step.set(num(r.bl_id), num(r.bl_carried_by));
    }
    for (const [id, at] of out) {
      const to = step.get(at);
      if (to !== undefined) out.set(id, to);
    }
    pending = [...new Set(step.values())];
  }
  return out;
}

/**
 * The lines with each one naming an invoice carried since moved to the invoice that carries it (amounts to one invoice
 * summed); a line kept as it was (`kept`: the payment's allocations before) stays where it is.
 */
function carriedLines(lines: readonly Line[], carriers: ReadonlyMap<number, number>, kept: ReadonlyMap<number, number>): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const to = kept.get(line.bl_id) === line.amount ? line.bl_id : carriers.get(line.bl_id) ?? line.bl_id;
    const same = out.find((l) => l.bl_id === to);
    if (same) same.amount += line.amount;
    else out.push({ bl_id: to, amount: line.amount });
  }
  return out;
}

/** Each payment customer's billing customer (the top of its chain) with its name (会社名, else 氏名), set-based. */
async function billingOf(trx: Transaction<Database>, clientIds: readonly number[]): Promise<Map<number, { id: number; name: string }>> {
  const tops = await billingCustomersOf(trx, clientIds);
  const names = new Map<number, string>();
  for (const chunk of chunksOf([...new Set(tops.values())], 1000)) {
    const rows = await trx.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('cl_id', 'in', chunk).execute();
    for (const r of rows) names.set(num(r.cl_id), String(r.cl_co_name || r.cl_name || `ID ${num(r.cl_id)}`));
  }
  return new Map(clientIds.map((id) => {
    const top = tops.get(id);
    return [id, top === undefined ? { id, name: '' } : { id: top, name: names.get(top) ?? '' }];
  }));
}

/** The lines sent, each checked alone (an invoice id, an amount); the first problem refuses them all. */
function sentLines(input: unknown): Line[] {
  const lines = typeof input === 'string' ? (() => {
    try {
      return JSON.parse(input) as unknown;
    } catch {
      return undefined;
    }
  })() : input;
  if (!Array.isArray(lines)) throw badRequest('消込の明細（lines）を配列で指定してください。');
  if (lines.length > ALLOCATION_LINES_MAX) throw badRequest(`一度に消込できる請求書は${ALLOCATION_LINES_MAX}件までです。`);
  const seen = new Set<number>();
  return lines.map((line: unknown, i): Line => {
    const row = (typeof line === 'object' && line !== null ? line : {}) as Record<string, unknown>;
    const id = Number(row.bl_id);
    if (!Number.isInteger(id) || id <= 0) throw lineProblem(i, 'bl_id', `${i + 1}行目：請求書を選んでください。`);
    if (seen.has(id)) throw lineProblem(i, 'bl_id', `${i + 1}行目：同じ請求書が2回指定されています。1行にまとめてください。`);
    seen.add(id);
    const amount = allocationAmount(row.amount);
    if (!amount.ok) throw lineProblem(i, 'amount', `${i + 1}行目：${amount.message}`);
    return { bl_id: id, amount: amount.amount };
  });
}

/**
 * Auto: the payment's rest (amount − what is allocated) to the open invoices (`open`: the billing customer's invoices
 * still open with the payment's sign, oldest closing first), each up to what it lacks; the existing allocations stay.
 */
function autoLines(payment: ResourceRow, open: readonly number[], existing: readonly Line[], invoices: ReadonlyMap<number, Invoice>): Line[] {
  const amount = num(payment.py_amount);
  const sign = Math.sign(amount);
  let rest = amount - existing.reduce((sum, l) => sum + l.amount, 0);
  if (rest === 0 || Math.sign(rest) !== sign) throw badRequest('この入金は全額消込済みです。');
  const lines = existing.map((l) => ({ ...l }));
  for (const id of open) {
    const invoice = invoices.get(id);
    if (!invoice || rest === 0) continue;
    const mine = lines.find((l) => l.bl_id === invoice.bl_id);
    const left = invoice.bl_total - invoice.others - (mine?.amount ?? 0);
    const take = sign > 0 ? Math.min(left, rest) : Math.max(left, rest);
    if (take === 0 || Math.sign(take) !== sign) continue;
    if (mine) mine.amount += take;
    else lines.push({ bl_id: invoice.bl_id, amount: take });
    rest -= take;
  }
  if (lines.length === existing.length && lines.every((l, i) => l.amount === existing[i].amount)) {
    throw badRequest('消込できる請求書がありません（残額のある請求書がありません）。');
  }
  return lines;
}

/**
 * Checks the lines against the payment and the invoices; throws the first refusal. `kept`: the payment's allocations
 * before, by invoice — one to an invoice carried since (繰越) may stay as it was, but none is added or changed there.
 */
function checkLines(lines: readonly Line[], payment: ResourceRow, invoices: ReadonlyMap<number, Invoice>, billing: { id: number; name: string }, kept: ReadonlyMap<number, number>): void {
  const amount = num(payment.py_amount);
  for (const [i, line] of lines.entries()) {
    const invoice = invoices.get(line.bl_id);
    if (!invoice) throw lineProblem(i, 'bl_id', `${i + 1}行目：請求書が見つかりません（ID ${line.bl_id}）。締め戻しされた可能性があります。`);
    if (invoice.bl_cl_id !== billing.id) {
      throw lineProblem(i, 'bl_id', `${i + 1}行目：請求書 ${invoice.bl_number} は別の請求先の請求書です。入金の請求先「${billing.name}」の請求書にだけ消込できます。`);
    }
    if (invoice.carriedBy !== null && kept.get(line.bl_id) !== line.amount) {
      throw lineProblem(i, 'bl_id', `${i + 1}行目：請求書 ${invoice.bl_number} の残額は次の請求書 ${invoice.carriedBy} に繰り越されています。消込は最新の請求書 ${invoice.carriedBy} にしてください。`);
    }
    if (Math.sign(line.amount) !== Math.sign(amount)) {
      throw lineProblem(i, 'amount', `${i + 1}行目：消込額は入金額と同じ符号で入力してください（入金 ${formatMoney(amount)}）。`);
    }
    const after = invoice.others + line.amount;
    const low = Math.min(0, invoice.bl_total);
    const high = Math.max(0, invoice.bl_total);
    if (after < low || after > high) {
      const open = invoice.bl_total - invoice.others;
      throw lineProblem(i, 'amount', `${i + 1}行目：請求書 ${invoice.bl_number} の残額 ${formatMoney(open)} を超えて消込できません。`);
    }
  }
  const total = lines.reduce((sum, l) => sum + l.amount, 0);
  if (Math.abs(total) > Math.abs(amount)) {
    const message = `消込額の合計 ${formatMoney(total)} が入金額 ${formatMoney(amount)} を超えています。`;
    throw badRequest(message, { fields: { lines: message } });
  }
}

/** The payment's allocations and totals as the calls answer them. */
async function answerOf(trx: Transaction<Database>, paymentId: number, modified: string): Promise<PaymentAllocation> {
  const payment = await trx.selectFrom('payment').select('py_amount').where('py_id', '=', paymentId).executeTakeFirstOrThrow();
  const amount = num(payment.py_amount);
  const allocations = await allocationsOf(trx, { py_id: paymentId });
  return { py_id: paymentId, amount, ...allocationTotals(amount, allocations), modified, allocations };
}

/** One payment's change as checked: the payment (locked), its allocation rows before and the lines that replace them. */
interface Checked {
  payment: ResourceRow;
  stored: readonly ResourceRow[];
  lines: readonly Line[];
}

/**
 * Writes the changes of payments' allocations inside `trx`: the rows removed (one statement per thousand), changed and
 * added (multi-row inserts), one audit row each, the invoices' 残額 (one statement per thousand) and the payments'
 * version (one stamp later than all of theirs, one statement per thousand). Answers the stamp.
 */
async function writeChanges(trx: Transaction<Database>, actor: WriteActor, changes: readonly Checked[]): Promise<string> {
  const stamp = nextStamp(changes.map((c) => String(c.payment.modified)).sort().at(-1));
  const audits: AuditEntry[] = [];
  const audit = (recordId: number, changes: Record<string, [number | null, number | null]>) =>
    audits.push({ userId: actor.userId, call: actor.call, table: 'allocation', recordId, at: stamp, jobId: actor.jobId, changes });
  const removed: number[] = [];
  const added: ResourceRow[] = [];
  const touched: number[] = [];
  for (const { payment, stored, lines } of changes) {
    const paymentId = num(payment.py_id);
    const wanted = new Map(lines.map((l) => [l.bl_id, l.amount]));
    for (const row of stored) {
      const id = num(row.al_id);
      const before = num(row.al_amount);
      const after = wanted.get(num(row.al_bl_id));
      touched.push(num(row.al_bl_id));
      if (after === before) continue;
      if (after === undefined) {
        removed.push(id);
        audit(id, { al_bl_id: [num(row.al_bl_id), null], al_py_id: [paymentId, null], al_amount: [before, null] });
      } else {
        await trx.updateTable('allocation').set({ al_amount: after, al_usr_id: actor.userId }).where('al_id', '=', id).execute();
        audit(id, { al_amount: [before, after] });
      }
    }
    const storedIds = new Set(stored.map((r) => num(r.al_bl_id)));
    for (const l of lines) {
      touched.push(l.bl_id);
      if (!storedIds.has(l.bl_id)) added.push({ al_bl_id: l.bl_id, al_py_id: paymentId, al_amount: l.amount, al_usr_id: actor.userId, created: stamp });
    }
  }
  for (const chunk of chunksOf(removed, 1000)) await trx.deleteFrom('allocation').where('al_id', 'in', chunk).execute();
  for (const row of await insertMany(trx, 'allocation', added, ['al_id', 'al_bl_id', 'al_py_id', 'al_amount'])) {
    audit(num(row.al_id), { al_bl_id: [null, num(row.al_bl_id)], al_py_id: [null, num(row.al_py_id)], al_amount: [null, num(row.al_amount)] });
  }
  await writeAudits(trx, audits);
  await recomputeAllocated(trx, touched);
  for (const chunk of chunksOf(changes.map((c) => num(c.payment.py_id)), 1000)) {
    await trx.updateTable('payment').set({ modified: stamp }).where('py_id', 'in', chunk).execute();
  }
  return stamp;
}

/** One payment's change of allocations, as `allocateMany` takes it. */
export interface AllocationChange {
  py_id: number;
  /** The lines that replace the payment's allocations (`[]` removes them all), or `auto`: its rest to the oldest open invoices. */
  lines: readonly { bl_id: number; amount: number }[] | 'auto';
  /** The payment's version as its screen read it (stale: 409); left out for a payment the running transaction wrote itself. */
  modified?: string;
}

/**
 * Changes the allocations of many payments inside `trx` — the ONE allocation path (`payment_allocate` is one payment,
 * a JACCS result 20,000): the payments locked lowest id first (one statement per thousand), their billing customers and
 * allocation rows read set-based, the invoices locked lowest id first (one statement per thousand, with Σ of their
 * allocations), every change checked in memory in the order given by the 消込 rules (`checkLines`; an invoice's
 * allocations include what the earlier changes of the batch gave it), then the accepted ones written by `writeChanges`.
 * A refusal (404 payment gone, 409 stale, 400 naming the line) throws — the caller's transaction decides — or, with
 * `refused`, is reported by the change's index and leaves that change out. Each payment once. Answers the payments'
 * new version (the same stamp for all; '' for a refused change).
 * @example await allocateMany(trx, actor, [{ py_id: 12, lines: [{ bl_id: 7, amount: 5400 }] }, { py_id: 13, lines: 'auto' }])
 */
export async function allocateMany(trx: Transaction<Database>, actor: WriteActor, changes: readonly AllocationChange[], options: { refused?: (index: number, error: unknown) => void } = {}): Promise<string[]> {
  if (new Set(changes.map((c) => c.py_id)).size !== changes.length) throw new Error('allocateMany: a payment given twice');
  const left = new Set<number>();
  const refuse = (index: number, error: unknown): void => {
    if (!options.refused) throw error;
    left.add(index);
    options.refused(index, error);
  };
  const payments = await lockedPayments(trx, changes.map((c) => c.py_id));
  for (const [i, change] of changes.entries()) {
    const payment = payments.get(change.py_id);
    if (!payment) refuse(i, notFound());
    else if (change.modified !== undefined && (!change.modified || change.modified !== String(payment.modified))) refuse(i, new ApiError(409, MESSAGES.conflict));
  }
  const live = [...changes.keys()].filter((i) => !left.has(i));
  const billing = await billingOf(trx, [...new Set(live.map((i) => num(payments.get(changes[i].py_id)!.py_cl_id)))]);
  const stored = await storedOf(trx, live.map((i) => changes[i].py_id));
  // Auto: the billing customer's invoices still open with the payment's sign, oldest closing first.
  const open = new Map<number, number[]>();
  for (const i of live.filter((k) => changes[k].lines === 'auto')) {
    const payment = payments.get(changes[i].py_id)!;
    const rows = await trx.selectFrom('billing').select(['bl_id']).where('bl_cl_id', '=', billing.get(num(payment.py_cl_id))!.id).where('deleted', '=', 0)
      .where('bl_open', num(payment.py_amount) > 0 ? '>' : '<', 0).orderBy('bl_closing_date').orderBy('bl_id').execute();
    open.set(i, rows.map((r) => num(r.bl_id)));
  }
  // Lines naming an invoice a later closing carried go to the invoice that carries it now.
  const carriers = await carryingInvoices(trx, live.flatMap((i) => (changes[i].lines === 'auto' ? [] : (changes[i].lines as readonly Line[]).map((l) => l.bl_id))));
  const sent = new Map(live.flatMap((i) => {
    const lines = changes[i].lines;
    if (lines === 'auto') return [];
    const kept = new Map((stored.get(changes[i].py_id) ?? []).map((r) => [num(r.al_bl_id), num(r.al_amount)]));
    return [[i, carriedLines(lines, carriers, kept)] as const];
  }));
  const invoices = await lockedInvoices(trx, live.flatMap((i) => [
    ...(stored.get(changes[i].py_id) ?? []).map((r) => num(r.al_bl_id)), ...(open.get(i) ?? []), ...(sent.get(i) ?? []).map((l) => l.bl_id),
  ]));
  // Σ allocations per invoice as the batch goes: each accepted change replaces its own part.
  const allocated = new Map([...invoices.values()].map((v) => [v.bl_id, v.allocated]));
  const accepted: Checked[] = [];
  const stamps = changes.map(() => '');
  for (const i of live) {
    const change = changes[i];
    const payment = payments.get(change.py_id)!;
    const rows = stored.get(change.py_id) ?? [];
    const mine = new Map(rows.map((r) => [num(r.al_bl_id), num(r.al_amount)]));
    const existing = rows.map((r): Line => ({ bl_id: num(r.al_bl_id), amount: num(r.al_amount) }));
    // The invoices as this payment sees them: what the others allocated.
    const seen = new Map<number, Invoice>();
    const given = sent.get(i);
    for (const id of [...mine.keys(), ...(open.get(i) ?? []), ...(given ?? []).map((l) => l.bl_id)]) {
      const invoice = invoices.get(id);
      if (invoice) seen.set(id, { ...invoice, others: (allocated.get(id) ?? 0) - (mine.get(id) ?? 0) });
    }
    try {
      const lines = given ?? autoLines(payment, open.get(i) ?? [], existing, seen);
      checkLines(lines, payment, seen, billing.get(num(payment.py_cl_id))!, mine);
      for (const [id, amount] of mine) allocated.set(id, (allocated.get(id) ?? 0) - amount);
      for (const l of lines) allocated.set(l.bl_id, (allocated.get(l.bl_id) ?? 0) + l.amount);
      accepted.push({ payment, stored: rows, lines });
    } catch (error) {
      refuse(i, error);
    }
  }
  if (accepted.length === 0) return stamps;
  const stamp = await writeChanges(trx, actor, accepted);
  for (const i of live) if (!left.has(i)) stamps[i] = stamp;
  return stamps;
}

/**
 * Replaces a payment's allocations by the lines sent (`[{ bl_id, amount }]`; an empty list removes them all), or with
 * `auto` allocates what is left of it to the oldest open invoices of its billing customer. `modified` is the payment's
 * as the screen read it: a stale one is refused (409). Any refusal (400 naming the line) writes nothing. One payment
 * through `allocateMany`.
 * @example await allocatePayment(ctx, 12, { modified, lines: [{ bl_id: 7, amount: 5400 }] })
 * @example await allocatePayment(ctx, 12, { modified, auto: true })
 */
export async function allocatePayment(ctx: AllocationContext, paymentId: number, request: AllocationRequest): Promise<PaymentAllocation> {
  const lines = 'lines' in request ? sentLines(request.lines) : 'auto';
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const [stamp] = await allocateMany(trx, ctx, [{ py_id: paymentId, lines, modified: request.modified }]);
      return answerOf(trx, paymentId, stamp);
    });
  } catch (error) {
    throw refusalOf(error);
  }
}

/**
 * Removes one allocation (取り消し): only that one; the invoice's 残額 and the payment's 未消込 grow by its amount.
 * 404 when it is gone (removed by someone else, or its invoice restored).
 * @example await deleteAllocation(ctx, 3)
 */
export async function deleteAllocation(ctx: AllocationContext, allocationId: number): Promise<PaymentAllocation> {
  const gone = () => new ApiError(404, 'この消込は見つかりません。すでに取り消されたか、請求書が締め戻しされています。');
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('allocation').select(['al_py_id']).where('al_id', '=', allocationId).executeTakeFirst();
      if (!found) throw gone();
      const paymentId = num(found.al_py_id);
      const payment = (await lockedPayments(trx, [paymentId])).get(paymentId);
      if (!payment) throw notFound();
      const stored = (await storedOf(trx, [paymentId])).get(paymentId) ?? [];
      if (!stored.some((r) => num(r.al_id) === allocationId)) throw gone();
      await lockedInvoices(trx, stored.map((r) => num(r.al_bl_id)));
      const lines = stored.filter((r) => num(r.al_id) !== allocationId).map((r): Line => ({ bl_id: num(r.al_bl_id), amount: num(r.al_amount) }));
      return answerOf(trx, paymentId, await writeChanges(trx, ctx, [{ payment, stored, lines }]));
    });
  } catch (error) {
    throw refusalOf(error);
  }
}
