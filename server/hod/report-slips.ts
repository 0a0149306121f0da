/**
 * `hodreport_slip_lst` (area 配送, read; `hr_id`): the 保証金 slips a delivery round's bottles made — each stop's bottle
 * movement (`hrs_bt_id`) carries its own deposit slip (`sl_bt_id`, server/stock/bottle-policy.ts) — so the round's
 * screen says which slips its save created, to staff who cannot list sales. A missing or deleted round is 404.
 */
import { clientResource } from '../../lib/resources/client';
import type { HodReportSlip } from '../../lib/resources/hod-report';
import { titleOf } from '../../lib/resources/types';
import type { AppDatabase } from '../db/connect';
import { notFound } from '../http/api-error';

export async function hodReportSlips(db: AppDatabase['db'], roundId: number): Promise<HodReportSlip[]> {
  const round = await db.selectFrom('hod_report').select('hr_id').where('hr_id', '=', roundId).where('deleted', '=', 0).executeTakeFirst();
  if (!round) throw notFound();
  const rows = await db.selectFrom('sales')
    .innerJoin('client', 'client.cl_id', 'sales.sl_cl_id')
    .select(['sales.sl_id', 'sales.sl_number', 'sales.sl_date', 'sales.sl_total', 'client.cl_id', 'client.cl_co_name', 'client.cl_name'])
    .where('sales.deleted', '=', 0)
    .where('sales.sl_bt_id', 'in', (eb) => eb.selectFrom('hod_report_stop').select('hrs_bt_id').where('hrs_hr_id', '=', roundId).where('hrs_bt_id', 'is not', null))
    .orderBy('sales.sl_id')
    .execute();
  return rows.map((r) => ({
    sl_id: Number(r.sl_id), sl_number: String(r.sl_number ?? ''), sl_date: String(r.sl_date ?? ''), sl_total: Number(r.sl_total ?? 0),
    cl_id: Number(r.cl_id), cl_name: titleOf(clientResource, r),
  }));
}
