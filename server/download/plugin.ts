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
import { exportCsv } from '../resources/csv-export';
import { keywordMatcher } from '../resources/keyword';
import { POLICIES } from '../resources/policies';

export async function downloadPlugin(_app: FastifyInstance, { calls, database }: AreaOptions): Promise<void> {
  const view = resourceView(database.reader);
  const matcher = await keywordMatcher(database);
  addCall(calls, 'download_table', {
    area: 'download', level: 'write',
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
      const own = POLICIES[def.name]?.scope?.(user);
      const timestamp = table.date === 'created';
      const lower = timestamp ? jstDayStartIso(period.from) : period.from;
      const upper = timestamp ? jstDayStartIso(nextDay(period.to)) : period.to;
      const column = `${def.table}.${table.date}`;
      return exportCsv({ view, database, keyword: matcher }, def, ctx, {
        n: 1, p: 1, col: table.date, odr: 'asc', terms: [], filters: {}, owners: {},
        scope: (eb) => eb.and([...(own ? [own(eb)] : []), eb(column, '>=', lower), eb(column, timestamp ? '<' : '<=', upper)]),
      }, {
        cols: 'all', lines: table.lines,
        name: { label: `${table.text.replace(/（.*）/, '')}_${period.from.replaceAll('-', '')}-${period.to.replaceAll('-', '')}`, ascii: `${table.value}_${period.from.replaceAll('-', '')}-${period.to.replaceAll('-', '')}` },
        conditions: { データ: table.text, 期間: `${table.dateLabel} ${period.from}〜${period.to}` },
      });
    },
  });
}
