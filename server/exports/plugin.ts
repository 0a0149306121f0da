/**
 * The export calls of 送り状出力 (/system/export, area データ取込・出力): `export_b2_preview` (`ids`, `ship_date`) — what the
 * Yamato B2 Cloud file of the chosen orders will hold, per order — and `export_b2` (`ids`, `ship_date`, `enc`) — the file,
 * the orders marked exported (server/exports/b2.ts).
 */
import type { FastifyInstance } from 'fastify';
import { isDay } from '../../lib/day';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';
import type { Params } from '../http/params';
import { idsParam } from '../orders';
import { csvEncodingParam } from '../resources';
import { b2Preview, exportB2 } from './b2';
import { japanToday } from '../http/clock';

/** 出荷予定日 (`ship_date`, YYYY-MM-DD): today in Japan when not given. */
function shipDateParam(params: Params): string {
  const day = (params.ship_date ?? '').trim() || japanToday();
  if (!isDay(day)) {
    const message = '出荷予定日を YYYY-MM-DD の日付で入力してください。';
    throw badRequest(message, { fields: { ship_date: message } });
  }
  return day;
}

export async function exportsPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const { db } = database;
  addCall(calls, 'export_b2_preview', {
    handler: async ({ params }) => [await b2Preview(db, idsParam(params), shipDateParam(params))],
  });
  addCall(calls, 'export_b2', {
    handler: async ({ call, params, user }) => {
      const ids = idsParam(params);
      const shipDate = shipDateParam(params);
      return exportB2(db, user.user_id, call, ids, shipDate, csvEncodingParam(params));
    },
  });
}
