/**
 * The accounting export calls (area データ取込・出力): `export_yayoi` (`from`, `to` YYYY-MM-DD, at most a year; `reexport=1` for a
 * period overlapping an earlier export) answers the 弥生会計 journal file (server/accounting/yayoi.ts), write;
 * `accounting_export_lst` the journals exported, newest first, read.
 */
import type { FastifyInstance } from 'fastify';
import { YAYOI_PERIOD } from '../../lib/accounting/yayoi';
import { periodProblem } from '../../lib/period';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { accountingExports, exportYayoi, YAYOI_KIND } from './yayoi';


export async function accountingPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'export_yayoi', {
    handler: async ({ call, params, user }) => {
      const period = { from: (params.from ?? '').trim(), to: (params.to ?? '').trim() };
      const problem = periodProblem(period, YAYOI_PERIOD);
      if (problem) throw badRequest(problem.message, { fields: { [problem.field]: problem.message } });
      const flag = (params.reexport ?? '').trim();
      if (flag !== '' && flag !== '0' && flag !== '1') {
        const message = '再出力（reexport）は 1 または 0 で指定してください。';
        throw badRequest(message, { fields: { reexport: message } });
      }
      return exportYayoi(db, { userId: user.user_id, call }, period.from, period.to, flag === '1');
    },
  });
  addCall(calls, 'accounting_export_lst', {
    handler: async () => accountingExports(db, YAYOI_KIND),
  });
}
