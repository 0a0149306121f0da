/**
 * `notice_home`: the お知らせ (lib/resources/notice.ts) the home page shows the caller today — live, 表示開始日 today or
 * before, 表示終了日 empty or today or after, for the caller's role or for every role — newest start first.
 */
import type { FastifyInstance } from 'fastify';
import { todayJst } from '../../lib/format';
import type { HomeNotice } from '../../lib/protocol';
import { addCall, type AreaOptions } from '../calls/call-table';

export async function noticePlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  addCall(calls, 'notice_home', {
    handler: async ({ user }) => {
      const today = todayJst();
      const rows = await database.reader.selectFrom('notice')
        .select(['nt_id', 'nt_title', 'nt_body', 'nt_from', 'nt_to'])
        .where('deleted', '=', 0)
        .where('nt_from', '<=', today)
        .where((eb) => eb.or([eb('nt_to', '=', ''), eb('nt_to', '>=', today)]))
        .where((eb) => eb.or([eb('nt_role', '=', ''), eb('nt_role', '=', user.user_role)]))
        .orderBy('nt_from', 'desc').orderBy('nt_id', 'desc')
        .execute();
      return rows.map((r): HomeNotice => ({ id: r.nt_id, title: r.nt_title, body: r.nt_body, from: r.nt_from, to: r.nt_to }));
    },
  });
}
