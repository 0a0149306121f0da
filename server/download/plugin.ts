/**
 * `download_table` (データダウンロード, area データダウンロード write: 管理 only by the default roles): one of the tables of
 * lib/download.ts as CSV — every field with Japanese headers, the rows of a period on the table's natural date, an order's or a
 * slip's lines one row each — through the one CSV machinery of `{r}_csv` (server/resources/csv-export.ts: the keyset walk,
 * cp932 or UTF-8, streamed, audited with who, which table, the period and the count).
 */
import type { FastifyInstance } from 'fastify';
import { downloadTable, unknownDownloadTable } from '../../lib/download';
import { jstDayStartIso, nextDay } from '../../lib/format';
import { periodProblem } from '../../lib/period';
import { can } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import { RESOURCES } from '../../lib/resources';
import { addCall, type AreaOptions } from '../calls/call-table';
import { resourceView } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { csvEncodingParam, csvFile, exportCsv, neutralise, keywordMatcher, policyOf } from '../resources';
import { writeAudit } from '../audit/audit-log';
import type { AppDatabase } from '../db/connect';
import type { FileAnswer, SessionUser } from '../calls/call-table';
import type { Params } from '../http/params';
import { STOCK_MOVE_KIND } from '../../lib/stock';
import { formatDateTime } from '../../lib/format';

export async function downloadPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const view = resourceView(database.reader);
  const matcher = await keywordMatcher(database);
  addCall(calls, 'download_table', {
    handler: async (ctx) => {
      const { params, user } = ctx;
      const name = (params.table ?? '').trim();
      const table = downloadTable(name);
      if (!table) {
        const message = unknownDownloadTable(name);
        throw badRequest(message, { fields: { table: message } });
      }
      const period = { from: (params.from ?? '').trim(), to: (params.to ?? '').trim() };
      const problem = periodProblem(period, { required: true });
      if (problem) throw badRequest(problem.message, { fields: { [problem.field]: problem.message } });
      const def = RESOURCES[table.resource];
      // The table's own area too: a role given データダウンロード reads no more than its areas let it.
      if (!can(user.areas, def.area, 'read')) throw new ApiError(403, MESSAGES.forbidden);
      const own = policyOf(def.name)?.scope?.(user);
      const timestamp = table.date === 'created';
      const lower = timestamp ? jstDayStartIso(period.from) : period.from;
      const upper = timestamp ? jstDayStartIso(nextDay(period.to)) : period.to;
      const file = { label: `${table.text.replace(/（.*）/, '')}_${period.from.replaceAll('-', '')}-${period.to.replaceAll('-', '')}`, ascii: `${table.value}_${period.from.replaceAll('-', '')}-${period.to.replaceAll('-', '')}` };
      const conditions = { データ: table.text, 期間: `${table.dateLabel} ${period.from}〜${period.to}` };
      if (table.rows === 'stockMoves') return stockMovesCsv(database, ctx, { lower, upper }, file, conditions);
      const column = `${def.table}.${table.date}`;
      return exportCsv({ view, database, keyword: matcher }, def, ctx, {
        n: 1, p: 1, col: table.date, odr: 'asc', terms: [], filters: {}, owners: {},
        scope: (eb) => eb.and([...(own ? [own(eb)] : []), eb(column, '>=', lower), eb(column, timestamp ? '<' : '<=', upper)]),
      }, {
        cols: 'all', lines: table.lines, name: file, conditions,
      });
    },
  });
}

/** The columns of the warehouses' movements (`stock_move`, with the warehouse, item and user named). */
const STOCK_MOVE_HEADERS = ['入出庫ID', '日時', '倉庫コード', '倉庫', '商品コード', '商品', '区分', '数量', '変更前の在庫数', '変更後の在庫数', '理由', '担当者'];

/**
 * 在庫の入出庫 of a period (Japan days of `created`) as CSV: every movement of every warehouse in time order, the stock after
 * it, through the same writer as every CSV of ours (`csvFile`: cp932 or UTF-8, typed text neutralised), audited like the
 * other downloads.
 */
async function stockMovesCsv(
  database: AppDatabase, { call, params, user }: { call: string; params: Params; user: SessionUser },
  { lower, upper }: { lower: string; upper: string }, name: { label: string; ascii: string }, conditions: Record<string, string>,
): Promise<FileAnswer> {
  const encoding = csvEncodingParam(params);
  const rows = await database.reader.selectFrom('stock_move as m')
    .innerJoin('warehouse as w', 'w.sk_id', 'm.sm_sk_id').innerJoin('item as i', 'i.it_id', 'm.sm_it_id').leftJoin('user as u', 'u.user_id', 'm.sm_usr_id')
    .select(['m.sm_id', 'm.created', 'w.sk_code', 'w.sk_name', 'i.it_code', 'i.it_name', 'm.sm_kind', 'm.sm_quantity', 'm.sm_before', 'm.sm_after', 'm.sm_reason', 'u.user_name'])
    .where('m.created', '>=', lower).where('m.created', '<', upper).orderBy('m.created').orderBy('m.sm_id').execute();
  const kind = new Map(STOCK_MOVE_KIND.map((o) => [o.value, o.text]));
  const records = [STOCK_MOVE_HEADERS, ...rows.map((r) => [
    String(r.sm_id), formatDateTime(r.created), neutralise(r.sk_code), neutralise(r.sk_name), neutralise(r.it_code), neutralise(r.it_name),
    kind.get(r.sm_kind) ?? r.sm_kind, String(r.sm_quantity), String(r.sm_before), String(r.sm_after), neutralise((r.sm_reason ?? '')), neutralise((r.user_name ?? '')),
  ])];
  await writeAudit(database.db, { userId: user.user_id, call, table: 'stock_move', recordId: null, changes: Object.fromEntries(Object.entries({ ...conditions, 文字コード: encoding, 件数: String(rows.length) }).map(([k, v]) => [k, [null, v]])) });
  return csvFile({ name: name.label, asciiName: name.ascii, records, encoding });
}
