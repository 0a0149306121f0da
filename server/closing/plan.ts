/**
 * What a group's closing of a month would write (仮締め, `closing_preview`), read in a few set-based queries and
 * computed by the pure arithmetic (lib/closing/arithmetic.ts): the run (server/closing/run.ts) writes exactly this.
 *
 * - Billing customers of the group: the tops of the 請求親顧客 chains (live customers without a parent) whose 締日
 *   `cl_sime_gp` is the group; their delivery sites (every customer below them) bill through them, so the sites'
 *   slips and payments roll up to the top. A site's own 締日 is not read.
 * - Taken: the live slips and payments of those customers not yet billed (`sl_bli_id` / `py_bli_id` null) dated on or
 *   before the closing date (`takenOf`: the run reads what it stamps by the same conditions; partial indexes of
 *   migration 0041). A group's closings go month after month, so these are the period's, plus — in a group's first
 *   closing, or for a customer that came from another group — what was never billed before (a first invoice's
 *   `period_from` then starts at the oldest of them), and the late entries (issue 19: dated on or before the previous
 *   closing date, saved after it; billed exactly as if dated in the period, the invoice's period unchanged).
 * - 前回請求額: the billing customer's latest invoice's 今回請求額 (by closing date), else the opening balances
 *   (開始売掛残高) of the customer and its sites.
 * - Four statements, each joining the group's recursive query: the customers; the slips' rows per rate summed per
 *   billing customer and rate (what the arithmetic reads: one summed slip gives the same invoice); the slips counted;
 *   the payments summed. A closing of 100,000 slip lines reads a few tens of thousands of rows, never the slips one by
 *   one (the drill-down of one customer does: `closingItems`).
 * - Terms: the billing customer's 税転嫁 and 消費税端数処理; 入金予定日 from its 回収月・回収日 (lib/closing/period).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { invoiceFigures, isIssued, sumFigures, type SlipRate } from '../../lib/closing/arithmetic';
import type { ClosingItems, ClosingPreview, ClosingPreviewRow } from '../../lib/closing/answers';
import { closingDateOf, closingLabel, dueDateOf, shiftMonth, type ClosingPeriod } from '../../lib/closing/period';
import { monthLabel } from '../../lib/format';
import { moneyTermsOf } from '../../lib/money/totals';
import { taxClassOf } from '../../lib/tax';
import { isPostgres } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { ApiError } from '../http/api-error';
import { cellText } from '../../lib/resources/checks';

type Db = Kysely<Database>;
type Raw = Record<string, string | number | null>;

/** Longer than any real chain of 請求親顧客 (billing-chain.ts refuses loops). */
const MAX_DEPTH = 100;

/** One billing customer's invoice: the preview's row, its due date and how many slips and payments it takes. */
export interface PlannedInvoice {
  row: ClosingPreviewRow;
  due_date: string;
  slips: number;
  payments: number;
  /** The oldest slip or payment date it takes (a late entry's, or one of a month skipped). */
  oldest: string | undefined;
}

export interface ClosingPlan {
  period: ClosingPeriod;
  /** The invoices issued, by customer id. */
  invoices: PlannedInvoice[];
  /** Every billing customer of the group (issued or not). */
  customers: Set<number>;
}

/**
 * The group as a recursive query (`grp(top_id, id)`: every billing customer of the group — or the one `only` — and
 * every customer below it), which each read joins: one statement each, whatever the group's size.
 * @example sql`${groupOf('20')} SELECT top_id, id FROM grp`
 */
export const groupOf = (gp: string, only?: number): RawBuilder<unknown> => sql`WITH RECURSIVE grp(top_id, id, depth) AS (
    SELECT cl_id, cl_id, 0 FROM client WHERE cl_parent_id IS NULL AND deleted = 0 AND cl_sime_gp = ${gp}${only === undefined ? sql`` : sql` AND cl_id = ${only}`}
    UNION ALL
    SELECT grp.top_id, c.cl_id, grp.depth + 1 FROM grp JOIN client c ON c.cl_parent_id = grp.id
      WHERE c.cl_id <> grp.top_id AND grp.depth < ${MAX_DEPTH})`;

/**
 * The rows of `table` a closing takes (not billed, live, dated up to `to`), joined to each customer of the group as
 * `s` (slips) or `p` (payments): a FROM fragment to follow `grp`, and the condition for the WHERE. Each customer's rows
 * are found by its index whatever the statistics say — how many rows are unbilled changes by a month's worth at every
 * closing, faster than statistics follow, and a plan trusting a stale count (one unbilled row) scans them once per
 * customer. PostgreSQL: a LATERAL subquery per customer; SQLite keeps the order a CROSS JOIN gives (it has no LATERAL).
 * Never a walk of the ledger by date either (every customer's billed history would come along).
 * @example const t = takenOf(db, 'sales', '2025-05-20'); sql`${groupOf('20')} SELECT s.sl_id FROM grp ${t.from} WHERE ${t.where}`
 */
export function takenOf(db: Db, table: 'sales' | 'payment', to: string): { from: RawBuilder<unknown>; where: RawBuilder<unknown> } {
  const [alias, client, billed, date] = table === 'sales' ? ['s', 'sl_cl_id', 'sl_bli_id', 'sl_date'] : ['p', 'py_cl_id', 'py_bli_id', 'py_date'];
  const joined = sql`${sql.ref(`${alias}.${client}`)} = grp.id AND ${sql.ref(`${alias}.${billed}`)} IS NULL AND ${sql.ref(`${alias}.deleted`)} = 0 AND ${sql.ref(`${alias}.${date}`)} <= ${to}`;
  return isPostgres(db)
    ? { from: sql`CROSS JOIN LATERAL (SELECT * FROM ${sql.table(table)} ${sql.raw(alias)} WHERE ${joined}) ${sql.raw(alias)}`, where: sql`TRUE` }
    : { from: sql`CROSS JOIN ${sql.table(table)} ${sql.raw(alias)}`, where: joined };
}

const nameOf = (row: { cl_co_name?: unknown; cl_name?: unknown; cl_id?: unknown }): string => cellText(row.cl_co_name) || cellText(row.cl_name) || `ID ${cellText(row.cl_id)}`;

/** What the slips and payments of each billing customer add up to. */
interface Taken {
  slips: number;
  payments: number;
  paid: number;
  /** The oldest slip or payment date. */
  oldest: string | undefined;
  rates: SlipRate[];
}

/** The group's billing customers (with their latest invoice's total, `prev`, and Σ the opening balances of them and their sites) and what each takes. */
async function groupLedger(db: Db, gp: string, to: string, only?: number) {
  const group = groupOf(gp, only);
  const slipsTaken = takenOf(db, 'sales', to);
  const paymentsTaken = takenOf(db, 'payment', to);
  const [customers, rates, slips, payments] = await Promise.all([
    sql<Raw>`${group}
      SELECT grp.top_id, c.cl_id, c.cl_co_name, c.cl_name, c.cl_opening_balance, c.cl_zei_ten, c.cl_zei_kiri, c.cl_collect_cycle, c.cl_collect_day,
        CASE WHEN grp.top_id = c.cl_id THEN (SELECT b.bl_total FROM billing b WHERE b.bl_cl_id = c.cl_id AND b.deleted = 0
          ORDER BY b.bl_closing_date DESC, b.bl_id DESC LIMIT 1) END AS prev
      FROM grp JOIN client c ON c.cl_id = grp.id`.execute(db),
    sql<Raw>`${group}
      SELECT grp.top_id, r.slr_key, r.slr_tax_class, r.slr_rate, SUM(r.slr_amount) AS amount, SUM(r.slr_net) AS net, SUM(r.slr_tax) AS tax, SUM(r.slr_total) AS total
      FROM grp ${slipsTaken.from} JOIN sales_rate r ON r.slr_sl_id = s.sl_id
      WHERE ${slipsTaken.where} GROUP BY grp.top_id, r.slr_key, r.slr_tax_class, r.slr_rate`.execute(db),
    sql<Raw>`${group}
      SELECT grp.top_id, COUNT(*) AS n, MIN(s.sl_date) AS oldest FROM grp ${slipsTaken.from} WHERE ${slipsTaken.where} GROUP BY grp.top_id`.execute(db),
    sql<Raw>`${group}
      SELECT grp.top_id, COUNT(*) AS n, SUM(p.py_amount) AS paid, MIN(p.py_date) AS oldest FROM grp ${paymentsTaken.from}
      WHERE ${paymentsTaken.where} GROUP BY grp.top_id`.execute(db),
  ]);
  const tops = new Map<number, Raw>();
  const opening = new Map<number, number>();
  for (const r of customers.rows) {
    const top = Number(r.top_id);
    if (top === Number(r.cl_id)) tops.set(top, r);
    opening.set(top, (opening.get(top) ?? 0) + Number(r.cl_opening_balance ?? 0));
  }
  const taken = new Map<number, Taken>();
  const of = (top: unknown): Taken => {
    let t = taken.get(Number(top));
    if (!t) taken.set(Number(top), (t = { slips: 0, payments: 0, paid: 0, oldest: undefined, rates: [] }));
    return t;
  };
  const older = (a: string | undefined, b: unknown): string => (a !== undefined && a < String(b) ? a : String(b));
  for (const r of rates.rows) {
    of(r.top_id).rates.push({
      key: String(r.slr_key), taxClass: taxClassOf(r.slr_tax_class), rate: Number(r.slr_rate), amount: Number(r.amount),
      net: Number(r.net), tax: Number(r.tax), total: Number(r.total),
    });
  }
  for (const r of slips.rows) Object.assign(of(r.top_id), { slips: Number(r.n), oldest: older(of(r.top_id).oldest, r.oldest) });
  for (const r of payments.rows) Object.assign(of(r.top_id), { payments: Number(r.n), paid: Number(r.paid), oldest: older(of(r.top_id).oldest, r.oldest) });
  return { tops, opening, taken };
}

/**
 * The invoices a group's closing of a month issues (or that of the one billing customer `only`), nothing written.
 * In a write, `db` is its transaction.
 * @example (await closingPlan(db, closingPeriod('20', '202505'))).invoices[0].row // { cl_id: 12, name: '山田商店', prev_total: 0, … }
 */
export async function closingPlan(db: Db, period: ClosingPeriod, only?: number): Promise<ClosingPlan> {
  const { tops, opening, taken } = await groupLedger(db, period.sime_gp, period.to, only);
  // Most customers share a few 回収月・回収日: each due date is worked out once.
  const dueDates = new Map<string, string>();
  const dueDate = (cycle: unknown, day: unknown): string => {
    const key = `${String(cycle)}:${String(day)}`;
    let due = dueDates.get(key);
    if (due === undefined) dueDates.set(key, (due = dueDateOf(period, cycle, day)));
    return due;
  };
  const nothing: Taken = { slips: 0, payments: 0, paid: 0, oldest: undefined, rates: [] };
  const invoices: PlannedInvoice[] = [];
  for (const id of [...tops.keys()].sort((a, b) => a - b)) {
    const top = tops.get(id)!;
    const t = taken.get(id) ?? nothing;
    const hasPrevious = top.prev !== null && top.prev !== undefined;
    const figures = invoiceFigures({
      prevTotal: hasPrevious ? Number(top.prev) : opening.get(id) ?? 0,
      payments: t.payments > 0 ? [t.paid] : [],
      slips: [{ rates: t.rates }],
      terms: moneyTermsOf(top),
    });
    if (!isIssued({ slips: t.slips, payments: t.payments, carry: figures.carry })) continue;
    invoices.push({
      // A first invoice's period starts at the oldest slip or payment it takes; a later one keeps its period (its late entries are marked).
      row: { cl_id: id, name: nameOf(top), period_from: t.oldest !== undefined && t.oldest < period.from && !hasPrevious ? t.oldest : period.from, period_to: period.to, ...figures },
      due_date: dueDate(top.cl_collect_cycle, top.cl_collect_day),
      slips: t.slips,
      payments: t.payments,
      oldest: t.oldest,
    });
  }
  return { period, invoices, customers: new Set(tops.keys()) };
}

/** The preview's answer from a plan: every row, by customer, and the sums of the money columns. */
export function previewOf(plan: ClosingPlan): ClosingPreview {
  const rows = plan.invoices.map((i) => i.row);
  return {
    sime_gp: plan.period.sime_gp, sime_ym: plan.period.sime_ym, closing_date: plan.period.closing_date,
    rows, totals: { invoices: rows.length, ...sumFigures(rows) },
  };
}

/**
 * The slips and payments one billing customer's invoice takes (the preview's drill-down), oldest first; undefined
 * when the customer is not a billing customer of the group.
 * @example await closingItems(db, closingPeriod('20', '202505'), 12) // { slips: [{ sl_id: 41, number: 'SL20250421-000041', … }], payments: [ … ] }
 */
export async function closingItems(db: Db, period: ClosingPeriod, clientId: number): Promise<ClosingItems | undefined> {
  const group = groupOf(period.sime_gp, clientId);
  const slipsTaken = takenOf(db, 'sales', period.to);
  const paymentsTaken = takenOf(db, 'payment', period.to);
  const [members, slips, payments] = await Promise.all([
    sql<Raw>`${group} SELECT grp.id, (SELECT COUNT(*) FROM billing b WHERE b.bl_cl_id = grp.id AND b.deleted = 0) AS invoices FROM grp WHERE grp.id = grp.top_id`.execute(db),
    sql<Raw>`${group}
      SELECT s.sl_id, s.sl_number, s.sl_date, s.sl_cl_id, s.sl_net_total, s.sl_tax_total, s.sl_total, c.cl_co_name, c.cl_name, c.cl_id
      FROM grp ${slipsTaken.from} JOIN client c ON c.cl_id = s.sl_cl_id WHERE ${slipsTaken.where} ORDER BY s.sl_date, s.sl_id`.execute(db),
    sql<Raw>`${group}
      SELECT p.py_id, p.py_date, p.py_cl_id, p.py_kind, p.py_amount FROM grp ${paymentsTaken.from} WHERE ${paymentsTaken.where} ORDER BY p.py_date, p.py_id`.execute(db),
  ]);
  if (members.rows.length === 0) return undefined;
  // A late entry: dated before the period of an invoice that is not the customer's first (as the invoice document marks it).
  const late = (date: string): boolean => Number(members.rows[0].invoices) > 0 && date < period.from;
  return {
    slips: slips.rows.map((r) => ({
      sl_id: Number(r.sl_id), number: String(r.sl_number), date: String(r.sl_date), cl_id: Number(r.sl_cl_id), client_name: nameOf(r),
      net: Number(r.sl_net_total), tax: Number(r.sl_tax_total), total: Number(r.sl_total), late: late(String(r.sl_date)),
    })),
    payments: payments.rows.map((r) => ({
      py_id: Number(r.py_id), date: String(r.py_date), cl_id: Number(r.py_cl_id), kind: String(r.py_kind), amount: Number(r.py_amount), late: late(String(r.py_date)),
    })),
  };
}

/**
 * Why a group's month may not be closed now (409), or undefined: it is closed already; a later month is; or the
 * month before it is not, while the group has been closed before (a group closes month after month — its first
 * closing takes whatever was never billed). The refusal names the customers with slips or payments waiting in the
 * months left open (at most three, and how many more), from the plan `planOf` answers (asked only then).
 */
export async function closingRefusal(db: Db, period: ClosingPeriod, planOf: () => Promise<ClosingPlan>): Promise<ApiError | undefined> {
  const { sime_gp: gp, sime_ym: ym } = period;
  const closed = await db.selectFrom('closing').select(['cls_sime_ym']).where('cls_sime_gp', '=', gp).orderBy('cls_sime_ym', 'desc').execute();
  if (closed.some((c) => c.cls_sime_ym === ym)) return new ApiError(409, `${closingLabel(gp, ym)}は締め処理済みです。やり直すときは先に締め戻しをしてください。`);
  const latest = closed[0] ? closed[0].cls_sime_ym : undefined;
  if (latest === undefined || latest === shiftMonth(ym, -1)) return undefined;
  if (latest > ym) {
    return new ApiError(409, `${closingLabel(gp, latest)}まで締め処理済みです。それより前の月は締められません（${monthLabel(ym)}の伝票は ${monthLabel(latest)} までの請求に含まれています）。`);
  }
  const missing = shiftMonth(latest, 1);
  const before = closingDateOf(gp, shiftMonth(ym, -1));
  const waiting = (await planOf()).invoices.filter((i) => (i.oldest ?? i.row.period_from) <= before).map((i) => `「${i.row.name}」`);
  const who = waiting.length === 0 ? '' : `（${waiting.slice(0, 3).join('')}${waiting.length > 3 ? `ほか${waiting.length - 3}件` : ''}に${monthLabel(missing)}以降の未請求の伝票があります）`;
  return new ApiError(409, `${closingLabel(gp, missing)}がまだ締め処理されていません${who}。締め処理は月の順に行ってください。`);
}
