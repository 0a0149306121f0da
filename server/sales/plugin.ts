/**
 * The sales calls beside the generic resource calls (`sales_*`, their lines `sales_detail_lst`):
 * `sales_receivable` with `cl_id` — the customer's 売掛 summary (server/sales/ledger.ts); `rental_preview` — the
 * month's server rental charges (`ym` YYYYMM, `n`, `p`); `rental_generate` — their slips created as a job
 * (`[{ job_id }]`, one running per month; server/sales/rental.ts).
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { rentalMonth, type RentalMonth } from '../../lib/sales/rental';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest, notFound } from '../http/api-error';
import { pageParam, positiveId, type Params } from '../http/params';
import { receivableSummary } from './ledger';
import { rentalGenerate, rentalPreview } from './rental';

/** The `ym` parameter as a month, or 400 naming the field. */
function monthParam(params: Params): RentalMonth {
  const month = rentalMonth(params.ym ?? '');
  if (!month) throw badRequest(MESSAGES.rentalBadMonth, { fields: { ym: MESSAGES.rentalBadMonth } });
  return month;
}

export async function salesPlugin(_app: FastifyInstance, { calls, database, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'rental_preview', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const month = monthParam(params);
      const n = pageParam(params.n, 100, LIMITS.maxPageSize, MESSAGES.badPageSize);
      const p = pageParam(params.p, 1, 100_000_000, MESSAGES.badPage);
      return [await rentalPreview(db, month, n, p)];
    },
  });
  addCall(calls, 'rental_generate', {
    area: 'sales', level: 'write',
    handler: async ({ call, params, user }) => {
      const month = monthParam(params);
      const job_id = await jobs.start({
        kind: 'rental_generate', scope: month.ym, params: { ym: month.ym }, user,
        work: ({ id, database: { db: jobDb }, progress }) => rentalGenerate({ db: jobDb, userId: user.user_id, call, user, jobId: id }, month, progress),
      });
      return [{ job_id }];
    },
  });
  addCall(calls, 'sales_receivable', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const summary = await receivableSummary(db, positiveId(params.cl_id));
      if (!summary) throw notFound();
      return [summary];
    },
  });
}
