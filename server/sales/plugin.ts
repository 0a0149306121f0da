/**
 * The sales calls beside the generic resource calls (`sales_*`, their lines `sales_detail_lst`):
 * `sales_receivable` with `cl_id` — the customer's 売掛 summary (server/sales/ledger.ts).
 */
import type { FastifyInstance } from 'fastify';
import { addCall, type AreaOptions } from '../calls/call-table';
import { notFound } from '../http/api-error';
import { positiveId } from '../http/params';
import { receivableSummary } from './ledger';

export async function salesPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'sales_receivable', {
    area: 'sales', level: 'read',
    handler: async ({ params }) => {
      const summary = await receivableSummary(db, positiveId(params.cl_id));
      if (!summary) throw notFound();
      return [summary];
    },
  });
}
