/**
 * The customer calls beside the generic resource calls: 顧客コードの一括採番 (`client_code_assign`: without `commit` the
 * codes the customers without one would get, nothing written; `commit=1` writes them), area 顧客 write.
 */
import type { FastifyInstance } from 'fastify';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import { refusalOf } from '../resources';
import { assignClientCodes } from './code-assign';

export async function clientsPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  addCall(calls, 'client_code_assign', {
    handler: async ({ call, params, user }) => {
      const flag = (params.commit ?? '').trim();
      if (!['', '0', '1'].includes(flag)) {
        const message = '実行の指定（commit）は 1（採番する）か 0（確認のみ）で指定してください。';
        throw badRequest(message, { fields: { commit: message } });
      }
      try {
        return [await assignClientCodes(database.db, { userId: user.user_id, call, user }, flag === '1')];
      } catch (error) {
        throw refusalOf(error);
      }
    },
  });
}
