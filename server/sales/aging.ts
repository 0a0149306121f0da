/**
 * 売掛金年齢表 (`aging_lst`, issue 13): per billing customer, what is owed as of a day by age — the open part of its
 * invoices (`bl_open` > 0, closed on or before the day) by the days past their 入金予定日 (`bl_due_date`; an invoice
 * without one is due on its closing date): 未到来 (not yet due, or due that day), 1–30, 31–60, 61–90 and 91 days or
 * more — and 未請求, the live slips dated on or before the day that no closing has billed yet (`sl_bli_id` empty), of
 * the customer and of the delivery sites billed to it (the top of the 請求親顧客 chain). Amounts are as they stand
 * now (allocations made after the day are not undone).
 */
import { sql, type Kysely } from 'kysely';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import { agingEdges, type AgingFigures, type AgingList, type AgingRow, type AgingSort } from '../../lib/sales/report';
import { billingCustomersOf } from '../clients/billing-chain';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';

const num = (value: unknown): number => Number(value ?? 0) || 0;

const empty = (): AgingFigures => ({ unbilled: 0, current: 0, d30: 0, d60: 0, d90: 0, over90: 0, total: 0 });

const AGES = ['current', 'd30', 'd60', 'd90', 'over90'] as const;

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
  const [invoices, slips] = await Promise.all([
    sql<Record<'cl_id' | (typeof AGES)[number], number>>`
      SELECT bl_cl_id AS cl_id, ${bucket(edge.current, undefined)} AS current, ${bucket(edge.d30, edge.current)} AS d30,
        ${bucket(edge.d60, edge.d30)} AS d60, ${bucket(edge.d90, edge.d60)} AS d90, ${bucket(undefined, edge.d90)} AS over90
      FROM billing WHERE deleted = 0 AND bl_open > 0 AND bl_closing_date <= ${asOf}
      GROUP BY bl_cl_id`.execute(db),
    sql<{ cl_id: number; unbilled: number }>`
      SELECT sl_cl_id AS cl_id, SUM(sl_total) AS unbilled FROM sales
      WHERE sl_bli_id IS NULL AND deleted = 0 AND sl_date <= ${asOf}
      GROUP BY sl_cl_id`.execute(db),
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
  const billedTo = await billingCustomersOf(db, slips.rows.map((r) => num(r.cl_id)));
  for (const r of slips.rows) figuresOf(billedTo.get(num(r.cl_id)) ?? num(r.cl_id)).unbilled += num(r.unbilled);

  const names = new Map<number, { name: string; reading: string }>();
  for (const chunk of chunksOf([...byCustomer.keys()], 1000)) {
    const rows = await db.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name', 'cl_co_name_kana', 'cl_name_kana']).where('cl_id', 'in', chunk).execute();
    for (const r of rows) names.set(num(r.cl_id), { name: titleOf(clientResource, r), reading: String(r.cl_co_name ? r.cl_co_name_kana ?? '' : r.cl_name_kana ?? '') });
  }
  const total = empty();
  const rows: (AgingRow & { reading: string })[] = [];
  for (const [id, figures] of byCustomer) {
    figures.total = figures.unbilled + AGES.reduce((s, age) => s + figures[age], 0);
    if (AGES.every((age) => figures[age] === 0) && figures.unbilled === 0) continue;
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
