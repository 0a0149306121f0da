/**
 * JACCS direct debit (口座振替, issue 14, area データ取込・出力 `import`):
 * - `jaccs_preview` (sime_gp, sime_ym): the request the closing makes, checked (customers, amounts, every problem) and
 *   the requests made from it — nothing written (read);
 * - `jaccs_request` (sime_gp, sime_ym, reissue?): the 全銀 種別91 request file (server/jaccs/request.ts), recorded and the
 *   closing stamped (write);
 * - `jaccs_failure_lst` (jr_id?): the customers of an imported result not debited (振替不能), with the code's meaning
 *   (read). The result file itself is the import kind `jaccs_result` (server/imports/kinds/jaccs_result.ts).
 */
import type { FastifyInstance } from 'fastify';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import type { JaccsFailure } from '../../lib/jaccs/contract';
import { debitResultText } from '../../lib/zengin/format';
import { closingParams } from '../billing';
import { addCall, type AreaOptions, type FileAnswer } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { positiveId } from '../http/params';
import { jaccsPlan, makeRequest } from './request';

export async function jaccsPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;

  addCall(calls, 'jaccs_preview', {
    handler: async ({ params }) => {
      const { simeGp, simeYm } = closingParams(params);
      return [(await jaccsPlan(db, simeGp, simeYm)).preview];
    },
  });

  addCall(calls, 'jaccs_request', {
    handler: async ({ params, user, call }): Promise<FileAnswer> => {
      const { simeGp, simeYm } = closingParams(params);
      const flag = (params.reissue ?? '').trim();
      if (!['', '0', '1'].includes(flag)) {
        const message = '再発行の指定は 1（再発行）か 0 で指定してください。';
        throw badRequest(message, { fields: { reissue: message } });
      }
      const made = await makeRequest(db, { userId: user.user_id, call }, simeGp, simeYm, flag === '1');
      return {
        file: {
          name: made.fileName, asciiName: `jaccs_${simeYm}_${simeGp}${made.reissue > 0 ? `_reissue${made.reissue}` : ''}.txt`,
          contentType: 'text/plain; charset=Shift_JIS', body: made.bytes,
          headers: { 'x-jaccs-request': String(made.jr_id), 'x-jaccs-count': String(made.count), 'x-jaccs-total': String(made.total), 'x-jaccs-reissue': made.reissue > 0 ? '1' : '0' },
        },
      };
    },
  });

  addCall(calls, 'jaccs_failure_lst', {
    handler: async ({ params }): Promise<JaccsFailure[]> => {
      const raw = (params.jr_id ?? '').trim();
      let requestIds: number[];
      if (raw !== '') requestIds = [positiveId(raw)];
      else {
        // The requests settled by the latest result import (one file may settle several closings' requests).
        const latest = await db.selectFrom('jaccs_request').select((eb) => eb.fn.max<string>('jr_result_at').as('at')).executeTakeFirst();
        const at = (latest?.at ?? '');
        if (at === '') return [];
        requestIds = (await db.selectFrom('jaccs_request').select('jr_id').where('jr_result_at', '=', at).execute()).map((r) => r.jr_id);
      }
      if (requestIds.length === 0) return [];
      const rows = await db.selectFrom('jaccs_request_row').innerJoin('jaccs_request', 'jaccs_request.jr_id', 'jaccs_request_row.jrr_jr_id')
        .innerJoin('client', 'client.cl_id', 'jaccs_request_row.jrr_cl_id')
        .select(['jrr_cl_id', 'cl_co_name', 'cl_name', 'jrr_debit_code', 'jrr_amount', 'jrr_result', 'jr_debit_date'])
        .where('jrr_jr_id', 'in', requestIds).where('jrr_result', 'not in', ['', '0']).orderBy('jrr_debit_code').limit(5000).execute();
      return rows.map((r) => ({
        cl_id: r.jrr_cl_id, name: titleOf(clientResource, r), debit_code: r.jrr_debit_code, amount: r.jrr_amount,
        code: r.jrr_result, meaning: debitResultText(r.jrr_result), debit_date: r.jr_debit_date,
      }));
    },
  });
}
