/**
 * 売上レポート (`salesreport`, issue 13): the live sales slips of a period by month, customer, item, staff member,
 * team or tax bucket — 税抜, 消費税, 税込 and the quantity — next to the same period a year before, with the chart's
 * months stacked by bucket or by the group's largest rows.
 *
 * Where the figures come from: a slip's tax is rounded once per bucket (lib/money `slipTotals`, kept in `sales_rate`);
 * each of its lines holds its part of its bucket (`sld_net`, `sld_tax`, lib/money `lineShares`: the bucket's tax shared
 * by the lines' amounts to the yen; a 内税 line's amount — tax included — split into net and tax as its bucket was),
 * written with the line by the sales save with its live slip's date (`sld_date`). The report sums those parts, so every
 * grouping adds up to the slips' own figures to the yen (the item grouping too, which splits slips), and it never
 * computes tax itself. With an item filter the figures are that item's parts of the slips. The quantity counts the lines
 * naming an item.
 *
 * One query per period reads the period's lines from one index (migration 0045); by customer, staff or team the slips'
 * own totals are summed instead (a grouping that keeps slips whole), and the lines give the chart's buckets.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { bucketKey, bucketRank, rateLabel } from '../../lib/money/totals';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import { monthLabel } from '../../lib/format';
import type { CsvEncoding } from '../../lib/protocol';
import { CHART_GROUPS, groupHeading, monthsOf, yearBefore, yoyChange, type ChartSeries, type ReportFigures, type ReportFilters, type ReportGroup, type SalesReport, type SalesReportRow } from '../../lib/sales/report';
import { taxClassOf, type TaxClass } from '../../lib/tax';
import type { FileAnswer } from '../calls/call-table';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { csvFile, neutralise } from '../resources';

/** One cell of the query: a group's key, a month and a tax bucket, with its lines' figures summed. */
interface Cell {
  key: string;
  month: string;
  bucket: string;
  taxClass: TaxClass;
  quantity: number;
  net: number;
  tax: number;
}

const NONE: Record<ReportGroup, string> = {
  month: '', client: '（顧客なし）', item: '（商品なし：送料・レンタル・保証金など）', staff: '（担当者なし）', team: '（チームなし）', rate: '',
};

/** The group's key of a line, as SQL over `d` (the line), `s` (its slip) and `u` (the slip's staff). */
const KEY_SQL: Record<ReportGroup, RawBuilder<unknown>> = {
  month: sql`''`,
  client: sql`s.sl_cl_id`,
  item: sql`d.sld_it_id`,
  staff: sql`s.sl_usr_id`,
  team: sql`COALESCE(u.user_team, '')`,
  rate: sql`''`,
};

const num = (value: unknown): number => Number(value ?? 0) || 0;

/**
 * The lines of a period's live slips (`sld_date`, NULL once a slip is deleted) summed by key, day or month, tax class
 * and rate. By month, item or bucket the lines alone are read, grouped in the order of their index (day, item, class,
 * rate: one pass, no sort, the days folded into months here); with a customer or staff filter, or by customer, staff or
 * team with an item filter, each line's slip is joined for its customer and staff.
 */
async function readCells(db: Kysely<Database>, from: string, to: string, group: ReportGroup, filters: ReportFilters): Promise<Cell[]> {
  const joined = group === 'client' || group === 'staff' || group === 'team' || Boolean(filters.cl_id) || Boolean(filters.usr_id);
  const where = [sql`d.sld_date >= ${from}`, sql`d.sld_date <= ${to}`];
  if (filters.it_id) where.push(sql`d.sld_it_id = ${filters.it_id}`);
  // The slip's own conditions too: a customer's slips are then found by their index first.
  if (joined) where.push(sql`s.deleted = 0`, sql`s.sl_date >= ${from}`, sql`s.sl_date <= ${to}`);
  if (filters.cl_id) where.push(sql`s.sl_cl_id = ${filters.cl_id}`);
  if (filters.usr_id) where.push(sql`s.sl_usr_id = ${filters.usr_id}`);
  const key = joined ? KEY_SQL[group] : sql`d.sld_it_id`;
  const day = joined ? sql`substr(d.sld_date, 1, 7)` : sql`d.sld_date`;
  const { rows } = await sql<{ key: string | number | null; day: string; tax_class: string; rate: number; quantity: number; net: number; tax: number }>`
    SELECT ${key} AS key, ${day} AS day, d.sld_tax_class AS tax_class, d.sld_tax_rate AS rate,
      SUM(CASE WHEN d.sld_it_id IS NULL THEN 0 ELSE d.sld_quantity END) AS quantity, SUM(d.sld_net) AS net, SUM(d.sld_tax) AS tax
    FROM sales_detail d
      ${joined ? sql`JOIN sales s ON s.sl_id = d.sld_sl_id` : sql``}
      ${group === 'team' ? sql`LEFT JOIN "user" u ON u.user_id = s.sl_usr_id` : sql``}
    WHERE ${sql.join(where, sql` AND `)}
    GROUP BY ${joined ? sql`1, 2` : sql`d.sld_date, d.sld_it_id`}, d.sld_tax_class, d.sld_tax_rate`.execute(db);
  return rows.map((r) => {
    const taxClass = taxClassOf(r.tax_class);
    const bucket = bucketKey(taxClass, num(r.rate));
    const keyOf = group === 'rate' ? bucket : group === 'month' ? '' : r.key === null || r.key === undefined ? '' : String(r.key);
    return { key: keyOf, month: String(r.day).slice(0, 7), bucket, taxClass, quantity: num(r.quantity), net: num(r.net), tax: num(r.tax) };
  });
}

/** The groupings that keep slips whole: summed from the slips themselves (their totals and `sl_quantity`). */
const SLIP_GROUPS: ReadonlySet<ReportGroup> = new Set(['client', 'staff', 'team']);

/**
 * A period's live slips summed by customer, staff or team and month, from `sales_report_idx` (a team from the staff
 * member's user row): a slip's net, tax and item quantity are the sums of its lines' parts, so these rows equal the
 * lines' to the yen without reading a line. Their cells have no bucket (the chart's buckets come from the lines).
 */
async function readSlipCells(db: Kysely<Database>, from: string, to: string, group: ReportGroup, filters: ReportFilters): Promise<Cell[]> {
  const where = [sql`s.deleted = 0`, sql`s.sl_date >= ${from}`, sql`s.sl_date <= ${to}`];
  if (filters.cl_id) where.push(sql`s.sl_cl_id = ${filters.cl_id}`);
  if (filters.usr_id) where.push(sql`s.sl_usr_id = ${filters.usr_id}`);
  const { rows } = await sql<{ key: string | number | null; day: string; quantity: number; net: number; tax: number }>`
    SELECT ${KEY_SQL[group]} AS key, substr(s.sl_date, 1, 7) AS day, SUM(s.sl_quantity) AS quantity, SUM(s.sl_net_total) AS net, SUM(s.sl_tax_total) AS tax
    FROM sales s ${group === 'team' ? sql`LEFT JOIN "user" u ON u.user_id = s.sl_usr_id` : sql``}
    WHERE ${sql.join(where, sql` AND `)}
    GROUP BY 1, 2`.execute(db);
  return rows.map((r) => ({
    key: r.key === null || r.key === undefined ? '' : String(r.key), month: String(r.day), bucket: '', taxClass: 'standard',
    quantity: num(r.quantity), net: num(r.net), tax: num(r.tax),
  }));
}

const zero = (): ReportFigures => ({ net: 0, tax: 0, total: 0, quantity: 0 });

interface Summed {
  /** Per key: its figures and the class of its bucket (a bucket's label: 8% standard before 2019 or reduced). */
  keys: Map<string, ReportFigures & { taxClass: TaxClass }>;
  total: ReportFigures;
}

function summed(cells: readonly Cell[], keyOf: (cell: Cell) => string): Summed {
  const keys = new Map<string, ReportFigures & { taxClass: TaxClass }>();
  const total = zero();
  for (const cell of cells) {
    const key = keyOf(cell);
    const at = keys.get(key) ?? { ...zero(), taxClass: cell.taxClass };
    if (cell.taxClass === 'reduced') at.taxClass = 'reduced';
    keys.set(key, at);
    for (const target of [at, total]) {
      target.net += cell.net;
      target.tax += cell.tax;
      target.total += cell.net + cell.tax;
      target.quantity += cell.quantity;
    }
  }
  return { keys, total };
}

const figures = ({ net, tax, total, quantity }: ReportFigures): ReportFigures => ({ net, tax, total, quantity });

/** The month a year later: a year-before row's month is compared as this year's. */
const yearLater = (month: string): string => `${Number(month.slice(0, 4)) + 1}${month.slice(4)}`;

/** The names of the keys of a group: customers, items, users by id; buckets and months by themselves. */
async function labelsOf(db: Kysely<Database>, group: ReportGroup, keys: readonly string[], classes: ReadonlyMap<string, TaxClass>): Promise<Map<string, string>> {
  const ids = keys.filter((k) => /^\d+$/.test(k)).map(Number);
  const labels = new Map<string, string>(keys.map((k) => [k, k === '' ? NONE[group] : k]));
  if (group === 'month') for (const k of keys) labels.set(k, monthLabel(k));
  if (group === 'rate') for (const k of keys) labels.set(k, rateLabel(classes.get(k) ?? 'standard', k === 'exempt' || k === 'outside' ? 0 : Number(k)));
  if (ids.length === 0) return labels;
  for (const chunk of chunksOf(ids, 1000)) {
    if (group === 'client') {
      const rows = await db.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('cl_id', 'in', chunk).execute();
      for (const r of rows) labels.set(String(r.cl_id), titleOf(clientResource, r));
    } else if (group === 'item') {
      const rows = await db.selectFrom('item').select(['it_id', 'it_name']).where('it_id', 'in', chunk).execute();
      for (const r of rows) labels.set(String(r.it_id), String(r.it_name ?? '') || `商品 ${String(r.it_id)}`);
    } else if (group === 'staff') {
      const rows = await db.selectFrom('user').select(['user_id', 'user_name']).where('user_id', 'in', chunk).execute();
      for (const r of rows) labels.set(String(r.user_id), String(r.user_name));
    }
  }
  return labels;
}

/** The order of the rows: months and buckets in their own order, the rest by 税抜 (largest first), then by name. */
function ordered(group: ReportGroup, rows: SalesReportRow[]): SalesReportRow[] {
  const last = (row: SalesReportRow) => (row.key === '' ? 1 : 0);
  return rows.sort((a, b) => last(a) - last(b)
    || (group === 'month' ? a.key.localeCompare(b.key)
      : group === 'rate' ? bucketRank(b.key) - bucketRank(a.key)
      : b.net - a.net || a.label.localeCompare(b.label, 'ja')));
}

export interface SalesReportRequest {
  from: string;
  to: string;
  group: ReportGroup;
  filters: ReportFilters;
  /** Rows per page and the page (1-based); all rows without `n`. */
  n?: number;
  p?: number;
}

/**
 * The sales report of a period (see the file's head for how every figure is found).
 * @example await salesReport(db, { from: '2026-04-01', to: '2026-05-31', group: 'month', filters: {} })
 */
export async function salesReport(db: Kysely<Database>, request: SalesReportRequest): Promise<SalesReport> {
  const { from, to, group, filters } = request;
  const prev = yearBefore({ from, to });
  // By customer, staff or team the slips are summed; the lines (by month) give the chart's buckets.
  const bySlip = SLIP_GROUPS.has(group) && !filters.it_id;
  const read = (a: string, b: string) => (bySlip ? readSlipCells(db, a, b, group, filters) : readCells(db, a, b, group, filters));
  const [now, before, lines] = await Promise.all([read(from, to), read(prev.from, prev.to), bySlip ? readCells(db, from, to, 'month', filters) : undefined]);
  const keyOf = (cell: Cell) => (group === 'month' ? cell.month : cell.key);
  const nowSum = summed(now, keyOf);
  const beforeSum = summed(before, group === 'month' ? (cell) => yearLater(cell.month) : keyOf);

  const months = monthsOf(from, to);
  const keys = group === 'month' ? months : [...new Set([...nowSum.keys.keys(), ...beforeSum.keys.keys()])];
  const classes = new Map([...beforeSum.keys, ...nowSum.keys].map(([k, v]) => [k, v.taxClass]));
  const labels = await labelsOf(db, group, keys, classes);
  const rows: SalesReportRow[] = keys.map((key) => {
    const at = nowSum.keys.get(key);
    const was = beforeSum.keys.get(key);
    return { key, label: labels.get(key) ?? key, ...(at ? figures(at) : zero()), prev: was ? figures(was) : zero() };
  });
  const total: SalesReportRow = { key: 'total', label: '合計', ...nowSum.total, prev: beforeSum.total };
  const all = ordered(group, rows);
  const n = request.n ?? all.length;
  const p = request.p ?? 1;
  return {
    from, to, prev_from: prev.from, prev_to: prev.to, group, filters,
    rows: all.slice((p - 1) * n, p * n), row_count: all.length, total,
    chart: chartOf(group, months, now, lines ?? now, labels, all),
  };
}

/** The chart's series: 税抜 per month by bucket, and by the group's largest rows (the rest as 「その他」). */
function chartOf(group: ReportGroup, months: readonly string[], cells: readonly Cell[], lineCells: readonly Cell[], labels: ReadonlyMap<string, string>, rows: readonly SalesReportRow[]): SalesReport['chart'] {
  const index = new Map(months.map((m, i) => [m, i]));
  const series = (from: readonly Cell[], keyOf: (cell: Cell) => string, labelOf: (key: string, cell: Cell) => string): ChartSeries[] => {
    const out = new Map<string, { label: string; values: number[] }>();
    for (const cell of from) {
      const key = keyOf(cell);
      const at = out.get(key) ?? { label: labelOf(key, cell), values: months.map(() => 0) };
      at.values[index.get(cell.month) ?? 0] += cell.net;
      out.set(key, at);
    }
    return [...out].map(([key, s]) => ({ key, label: s.label, values: s.values }));
  };
  const rates = series(lineCells, (c) => c.bucket, (key, c) => rateLabel(c.taxClass, key === 'exempt' || key === 'outside' ? 0 : Number(key)))
    .sort((a, b) => bucketRank(b.key) - bucketRank(a.key));
  if (group === 'month') return { months: [...months], rates, groups: [] };
  const top = new Set(rows.filter((r) => r.net > 0).slice(0, CHART_GROUPS - 1).map((r) => r.key));
  const groups = series(cells, (c) => (top.has(c.key) ? c.key : 'other'), (key) => (key === 'other' ? 'その他' : labels.get(key) ?? key));
  const rank = (key: string) => (key === 'other' ? rows.length : rows.findIndex((r) => r.key === key));
  return { months: [...months], rates, groups: groups.sort((a, b) => rank(a.key) - rank(b.key)) };
}

/** The groups whose key is a record's id, given as a column of the CSV. */
const ID_GROUPS: ReadonlySet<ReportGroup> = new Set(['client', 'item', 'staff']);

/**
 * The whole report as a CSV (`salesreport_csv`): every row and the total, this period's figures, the year before's and
 * the change of 税抜; the customer's, item's or staff member's id beside its name.
 * @example reportCsv(await salesReport(db, request), 'cp932').file.name // '売上レポート_月別_20260401-20260531_20260601-0930.csv'
 */
export function reportCsv(report: SalesReport, encoding: CsvEncoding): FileAnswer {
  const heading = groupHeading(report.group);
  const withId = ID_GROUPS.has(report.group);
  const header = [...(withId ? [`${heading}ID`] : []), heading, '税抜金額', '消費税', '税込金額', '数量', '前年税抜金額', '前年消費税', '前年税込金額', '前年数量', '前年差（税抜）', '前年比（%）'];
  const line = (row: SalesReportRow, id: string): string[] => {
    const change = yoyChange(row.net, row.prev.net);
    return [
      ...(withId ? [id] : []), neutralise(row.label),
      ...[row.net, row.tax, row.total, row.quantity, row.prev.net, row.prev.tax, row.prev.total, row.prev.quantity, change.diff].map(String),
      change.percent === null ? '' : change.percent.toFixed(1),
    ];
  };
  const records = [header, ...report.rows.map((row) => line(row, row.key)), line(report.total, '')];
  const span = `${report.from.replace(/-/g, '')}-${report.to.replace(/-/g, '')}`;
  return csvFile({ name: `売上レポート_${heading}別_${span}`, asciiName: `salesreport_${report.group}_${span}`, records, encoding });
}
