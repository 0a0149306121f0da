/**
 * 売掛金年齢表 (`aging_lst`, issue 13): per billing customer, what is owed as of a day by age — the open part of its
 * invoices (`bl_open` not 0 — a credit invoice too —, closed on or before the day) by the days past their 入金予定日
 * (`bl_due_date`; an invoice without one is due on its closing date): 未到来 (not yet due, or due that day), 1–30, 31–60,
 * 61–90 and 91 days or more — and 未請求, the live slips dated on or before the day that no closing has billed yet
 * (`sl_bli_id` empty) plus the opening balances (開始売掛残高) of customers whose 請求先 has no invoice yet (the first
 * invoice's 前回請求額), of the customer and of the delivery sites billed to it (the top of the 請求親顧客 chain) — and
 * 前受・未消込 (issue 19): the payments dated on or before the day that no closing has taken yet, less what is allocated
 * of them (消込), as a negative amount. So a customer's total is its 売掛残高 (the group's, for a 請求先 with sites: the
 * sum of their `cl_uri_zan`) when the day is today. Amounts are as they stand now (allocations made after the day are
 * not undone).
 */
import { sql, type Kysely } from 'kysely';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import { agingEdges, type AgingFigures, type AgingList, type AgingRow, type AgingSort } from '../../lib/sales/report';
import { billingCustomersOf } from '../clients';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';

const num = (value: unknown): number => Number(value ?? 0) || 0;

const empty = (): AgingFigures => ({ unbilled: 0, current: 0, d30: 0, d60: 0, d90: 0, over90: 0, unallocated: 0, total: 0 });

const AGES = ['current', 'd30', 'd60', 'd90', 'over90'] as const;

/** The billing customers among `ids` that have a live invoice closed on or before `asOf`. */
async function invoicedCustomers(db: Kysely<Database>, ids: readonly number[], asOf: string): Promise<Set<number>> {
  const out = new Set<number>();
  for (const chunk of chunksOf(ids, 1000)) {
    const rows = await db.selectFrom('billing').select('bl_cl_id').distinct().where('bl_cl_id', 'in', chunk).where('deleted', '=', 0).where('bl_closing_date', '<=', asOf).execute();
    for (const r of rows) out.add(num(r.bl_cl_id));
  }
  return out;
}

export interface AgingRequest {
  asOf: string;
  col: AgingSort;
  odr: 'asc' | 'desc';
  n: number;
  p: number;
}

/**
 * The aging list as of a day, one page of billing customers in the order asked (a name by its reading), with the
 * totals of all of them.
 * @example await agingList(db, { asOf: '2026-05-31', col: 'total', odr: 'desc', n: 100, p: 1 })
 */
export async function agingList(db: Kysely<Database>, { asOf, col, odr, n, p }: AgingRequest): Promise<AgingList> {
  const edge = agingEdges(asOf);
  const due = sql`COALESCE(NULLIF(bl_due_date, ''), bl_closing_date)`;
  const bucket = (from: string | undefined, before: string | undefined) =>
    sql<number>`SUM(CASE WHEN ${sql.join([...(from ? [sql`${due} >= ${from}`] : []), ...(before ? [sql`${due} < ${before}`] : [])], sql` AND `)} THEN bl_open ELSE 0 END)`;
  const [invoices, slips, payments, openings] = await Promise.all([
    sql<Record<'cl_id' | (typeof AGES)[number], number>>`
      SELECT bl_cl_id AS cl_id, ${bucket(edge.current, undefined)} AS current, ${bucket(edge.d30, edge.current)} AS d30,
        ${bucket(edge.d60, edge.d30)} AS d60, ${bucket(edge.d90, edge.d60)} AS d90, ${bucket(undefined, edge.d90)} AS over90
      FROM billing WHERE deleted = 0 AND bl_open <> 0 AND bl_closing_date <= ${asOf}
      GROUP BY bl_cl_id`.execute(db),
    sql<{ cl_id: number; unbilled: number }>`
      SELECT sl_cl_id AS cl_id, SUM(sl_total) AS unbilled FROM sales
      WHERE sl_bli_id IS NULL AND deleted = 0 AND sl_date <= ${asOf}
      GROUP BY sl_cl_id`.execute(db),
    sql<{ cl_id: number; unallocated: number }>`
      SELECT p.py_cl_id AS cl_id, SUM(p.py_amount - COALESCE(a.allocated, 0)) AS unallocated
      FROM payment p LEFT JOIN (SELECT al_py_id, SUM(al_amount) AS allocated FROM allocation GROUP BY al_py_id) a ON a.al_py_id = p.py_id
      WHERE p.py_bli_id IS NULL AND p.deleted = 0 AND p.py_date <= ${asOf}
      GROUP BY p.py_cl_id`.execute(db),
    sql<{ cl_id: number; opening: number }>`
      SELECT cl_id, cl_opening_balance AS opening FROM client
      WHERE deleted = 0 AND cl_opening_balance <> 0 AND (cl_opening_balance_date = '' OR cl_opening_balance_date <= ${asOf})`.execute(db),
  ]);

  const byCustomer = new Map<number, AgingFigures>();
  const figuresOf = (id: number): AgingFigures => {
    const at = byCustomer.get(id) ?? empty();
    byCustomer.set(id, at);
    return at;
  };
  for (const r of invoices.rows) {
    const at = figuresOf(num(r.cl_id));
    for (const age of AGES) at[age] += num(r[age]);
  }
  const billedTo = await billingCustomersOf(db, [...slips.rows, ...payments.rows, ...openings.rows].map((r) => num(r.cl_id)));
  const topOf = (id: unknown): number => billedTo.get(num(id)) ?? num(id);
  for (const r of slips.rows) figuresOf(topOf(r.cl_id)).unbilled += num(r.unbilled);
  for (const r of payments.rows) figuresOf(topOf(r.cl_id)).unallocated -= num(r.unallocated);
  // An opening balance is the first invoice's 前回請求額: owed apart from the invoices until the 請求先 has one.
  const invoiced = await invoicedCustomers(db, [...new Set(openings.rows.map((r) => topOf(r.cl_id)))], asOf);
  for (const r of openings.rows) if (!invoiced.has(topOf(r.cl_id))) figuresOf(topOf(r.cl_id)).unbilled += num(r.opening);

  const names = new Map<number, { name: string; reading: string }>();
  for (const chunk of chunksOf([...byCustomer.keys()], 1000)) {
    const rows = await db.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name', 'cl_co_name_kana', 'cl_name_kana']).where('cl_id', 'in', chunk).execute();
    for (const r of rows) names.set(num(r.cl_id), { name: titleOf(clientResource, r), reading: String(r.cl_co_name ? r.cl_co_name_kana ?? '' : r.cl_name_kana ?? '') });
  }
  const total = empty();
  const rows: (AgingRow & { reading: string })[] = [];
  for (const [id, figures] of byCustomer) {
    figures.total = figures.unbilled + figures.unallocated + AGES.reduce((s, age) => s + figures[age], 0);
    if (AGES.every((age) => figures[age] === 0) && figures.unbilled === 0 && figures.unallocated === 0) continue;
    for (const key of Object.keys(total) as (keyof AgingFigures)[]) total[key] += figures[key];
    const name = names.get(id) ?? { name: `ID ${id}`, reading: '' };
    rows.push({ cl_id: id, name: name.name, reading: name.reading, ...figures });
  }
  const sign = odr === 'asc' ? 1 : -1;
  const byName = (a: { reading: string; name: string; cl_id: number }, b: typeof a) =>
    (a.reading || a.name).localeCompare(b.reading || b.name, 'ja') || a.name.localeCompare(b.name, 'ja') || a.cl_id - b.cl_id;
  rows.sort((a, b) => (col === 'name' ? sign * byName(a, b) : sign * (a[col] - b[col]) || byName(a, b)));
  return {
    as_of: asOf, col, odr, total, row_count: rows.length,
    rows: rows.slice((p - 1) * n, p * n).map(({ reading: _reading, ...row }) => row),
  };
}
