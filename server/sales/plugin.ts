/**
 * The sales calls beside the generic resource calls (`sales_*`, their lines `sales_detail_lst`):
 * `sales_receivable` with `cl_id` — the customer's 売掛 summary (server/sales/ledger.ts); `rental_preview` — the
 * month's server rental charges (`ym` YYYYMM, `n`, `p`); `rental_generate` — their slips created as a job
 * (`[{ job_id }]`, one running per month; server/sales/rental.ts); 消込 (server/sales/allocation.ts): `allocation_lst`
 * (`py_id` or `bl_id`), `payment_allocate` (`py_id`, `modified`, postData `{ lines: [{ bl_id, amount }] }` or `auto=1`)
 * and `allocation_del` (`al_id`), each answering the payment's allocations; `salesreport` / `salesreport_csv` — the sales
 * report of a period (server/sales/report.ts); `aging_lst` — the receivables by age (server/sales/aging.ts).
 */
import type { FastifyInstance } from 'fastify';
import { isDay } from '../../lib/day';
import { periodProblem } from '../../lib/period';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { rentalMonth, type RentalMonth } from '../../lib/sales/rental';
import { AGING_SORTS, isReportGroup, SALES_REPORT_PERIOD, type AgingSort, type ReportFilters } from '../../lib/sales/report';
import { writeAudit } from '../audit/audit-log';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest, notFound } from '../http/api-error';
import { jsonObject, optionalId, pageParam, positiveId, type Params } from '../http/params';
import { csvEncodingParam } from '../resources';
import { agingList } from './aging';
import { allocatePayment, allocationsOf, deleteAllocation } from './allocation';
import { receivableSummary } from './ledger';
import { rentalGenerate, rentalPreview } from './rental';
import { reportCsv, salesReport, type SalesReportRequest } from './report';
import { japanToday } from '../http/clock';

/** The `ym` parameter as a month, or 400 naming the field. */
function monthParam(params: Params): RentalMonth {
  const month = rentalMonth(params.ym ?? '');
  if (!month) throw badRequest(MESSAGES.rentalBadMonth, { fields: { ym: MESSAGES.rentalBadMonth } });
  return month;
}

const REPORT_IDS: readonly (readonly [keyof ReportFilters, string])[] = [['cl_id', '顧客'], ['usr_id', '担当者'], ['it_id', '商品']];

/** The report's period, grouping and filters, or 400 naming the parameter. */
function reportParams(params: Params): SalesReportRequest {
  const period = { from: (params.from ?? '').trim(), to: (params.to ?? '').trim() };
  const problem = periodProblem(period, SALES_REPORT_PERIOD);
  if (problem) throw badRequest(problem.message, { fields: { [problem.field]: problem.message } });
  const group = (params.group ?? '').trim() || 'month';
  if (!isReportGroup(group)) {
    const message = '集計の単位（月別・顧客別・商品別・担当者別・チーム別・税率別）を選んでください。';
    throw badRequest(message, { fields: { group: message } });
  }
  const filters: ReportFilters = {};
  for (const [name, label] of REPORT_IDS) {
    const text = (params[name] ?? '').trim();
    if (text === '') continue;
    const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
    if (id < 1 || id > LIMITS.maxInteger) {
      const message = `${label}の指定が正しくありません。`;
      throw badRequest(message, { fields: { [name]: message } });
    }
    filters[name] = id;
  }
  return { ...period, group, filters };
}

const sortOrder = (value: string | undefined, fallback: 'asc' | 'desc'): 'asc' | 'desc' => {
  const odr = (value ?? '').trim().toLowerCase() || fallback;
  if (odr !== 'asc' && odr !== 'desc') throw badRequest(MESSAGES.badSortOrder);
  return odr;
};

export async function salesPlugin(_app: FastifyInstance, { calls, database, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'rental_preview', {
    handler: async ({ params }) => {
      const month = monthParam(params);
      const n = pageParam(params.n, 100, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return [await rentalPreview(db, month, n, p)];
    },
  });
  addCall(calls, 'rental_generate', {
    handler: async ({ call, params, user }) => {
      const month = monthParam(params);
      const job_id = await jobs.start({
        kind: 'rental_generate', scope: month.ym, params: { ym: month.ym }, user,
        work: ({ id, database: { db: jobDb }, progress }) => rentalGenerate({ db: jobDb, userId: user.user_id, call, user, jobId: id }, month, progress),
      });
      return [{ job_id }];
    },
  });
  addCall(calls, 'allocation_lst', {
    handler: async ({ params }) => {
      const py = optionalId(params.py_id);
      const bl = optionalId(params.bl_id);
      if ((py === undefined) === (bl === undefined)) throw badRequest('入金伝票（py_id）か請求書（bl_id）のどちらか一方を指定してください。');
      return allocationsOf(db, py !== undefined ? { py_id: py } : { bl_id: bl! });
    },
  });
  addCall(calls, 'payment_allocate', {
    handler: async ({ call, params, user }) => {
      const id = positiveId(params.py_id);
      const modified = params.modified ?? '';
      const ctx = { db, userId: user.user_id, call, user };
      if (params.auto === '1') return [await allocatePayment(ctx, id, { modified, auto: true })];
      const postData = jsonObject(params.postData, (key) => (key === 'lines' ? '消込の明細' : undefined));
      if (!('lines' in postData)) throw badRequest('消込の明細（postData の lines）か自動消込（auto=1）を指定してください。');
      return [await allocatePayment(ctx, id, { modified, lines: postData.lines })];
    },
  });
  addCall(calls, 'allocation_del', {
    handler: async ({ call, params, user }) => [await deleteAllocation({ db, userId: user.user_id, call, user }, positiveId(params.al_id))],
  });
  addCall(calls, 'salesreport', {
    handler: async ({ params }) => {
      const request = reportParams(params);
      const n = pageParam(params.n, 100, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return [await salesReport(db, { ...request, n, p })];
    },
  });
  addCall(calls, 'salesreport_csv', {
    handler: async ({ call, params, user }) => {
      const request = reportParams(params);
      const encoding = csvEncodingParam(params);
      const report = await salesReport(db, request);
      const conditions: Record<string, [null, string]> = { 期間: [null, `${report.from}〜${report.to}`], 集計単位: [null, report.group], 文字コード: [null, encoding], 件数: [null, String(report.row_count)] };
      for (const [name, label] of REPORT_IDS) if (request.filters[name]) conditions[label] = [null, String(request.filters[name])];
      await writeAudit(db, { userId: user.user_id, call, table: 'sales', recordId: null, changes: conditions });
      return reportCsv(report, encoding);
    },
  });
  addCall(calls, 'aging_lst', {
    handler: async ({ params }) => {
      const asOf = (params.as_of ?? '').trim() || japanToday();
      if (!isDay(asOf)) {
        const message = '基準日を YYYY-MM-DD の日付で入力してください。';
        throw badRequest(message, { fields: { as_of: message } });
      }
      const col = (params.col ?? '').trim() || 'total';
      if (!(AGING_SORTS as readonly string[]).includes(col)) throw badRequest(MESSAGES.badSortColumn);
      const n = pageParam(params.n, 100, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return [await agingList(db, { asOf, col: col as AgingSort, odr: sortOrder(params.odr, col === 'name' ? 'asc' : 'desc'), n, p })];
    },
  });
  addCall(calls, 'sales_receivable', {
    handler: async ({ params }) => {
      const summary = await receivableSummary(db, positiveId(params.cl_id));
      if (!summary) throw notFound();
      return [summary];
    },
  });
}
