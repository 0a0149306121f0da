/**
 * The logic of /salesreport without its drawing: the report's conditions (a draft the form edits, the query last asked),
 * its page of rows, the drill-down path of a row (the sales list filtered to the slips behind it), the CSV download;
 * and the aging list's day, sort and page.
 */
import { useCallback, useState } from 'react';
import { download, CallError } from '@/lib/client/api/fetcher';
import { todayJst } from '@/lib/format';
import { filteredListPathOf } from '@/lib/list/resource-paths';
import { periodProblem, presetPeriod } from '@/lib/period';
import { MESSAGES, type CsvEncoding } from '@/lib/protocol';
import { salesResource } from '@/lib/resources/sales';
import { drillFilters, SALES_REPORT_PERIOD, type AgingSort, type ReportGroup } from '@/lib/sales/report';
import { useCall } from '@/lib/client/data/use-call';

/** The report's conditions as the form holds them ('' = no filter). */
export interface ReportConditions {
  from: string;
  to: string;
  group: ReportGroup;
  cl_id: string;
  usr_id: string;
  it_id: string;
}

/** Rows per page of the report and of the aging list. */
export const REPORT_PAGE_SIZE = 100;

const SWR_OPTIONS = { revalidateOnFocus: false, keepPreviousData: true } as const;

const paramsOf = (conditions: ReportConditions): Record<string, string> =>
  Object.fromEntries(Object.entries(conditions).filter(([, value]) => value !== ''));

/**
 * The sales report: `draft` (edited by the form), `apply()` asks for it (page 1) when its period may be used, `answer`,
 * the page, `drillPath(key)` and `exportCsv(encoding)`.
 * @example const report = useSalesReport(); report.setDraft({ ...report.draft, group: 'item' }); report.apply();
 */
export function useSalesReport(today: string = todayJst()) {
  const [draft, setDraft] = useState<ReportConditions>(() => ({ ...presetPeriod('thisMonth', today), group: 'month', cl_id: '', usr_id: '', it_id: '' }));
  const [query, setQuery] = useState<ReportConditions>(draft);
  const [page, setPage] = useState(1);
  const problem = periodProblem(draft, SALES_REPORT_PERIOD);
  const { data, error, isLoading } = useCall('salesreport', { ...paramsOf(query), n: REPORT_PAGE_SIZE, p: page }, SWR_OPTIONS);
  const answer = data?.[0];
  const [csv, setCsv] = useState<{ running: boolean; message?: string; failed?: boolean }>({ running: false });

  const apply = useCallback(() => {
    if (periodProblem(draft, SALES_REPORT_PERIOD)) return;
    setPage(1);
    setQuery(draft);
  }, [draft]);

  /** Where a row leads: the sales list showing exactly its slips (undefined for a row no filter names). */
  const drillPath = useCallback((key: string): string | undefined => {
    const filters = answer && drillFilters(answer, key);
    return filters && filteredListPathOf(salesResource, filters);
  }, [answer]);

  const exportCsv = useCallback(async (enc: CsvEncoding) => {
    setCsv({ running: true });
    try {
      const file = await download('salesreport_csv', { ...paramsOf(query), enc });
      setCsv(file ? { running: false, message: `「${file.fileName}」に出力しました。` } : { running: false, failed: true, message: MESSAGES.downloadFailed });
    } catch (failure) {
      setCsv({ running: false, failed: true, message: failure instanceof CallError ? failure.message : MESSAGES.internal });
    }
  }, [query]);

  return {
    draft, setDraft, problem, apply, query, answer, error, isLoading, page, setPage,
    pages: answer ? Math.max(1, Math.ceil(answer.row_count / REPORT_PAGE_SIZE)) : 1,
    drillPath, csv, exportCsv,
  };
}

/**
 * The aging list as of a day (today at first), sorted by a column (a second click on it turns the order), a page at a
 * time.
 * @example const aging = useAgingList(); aging.sortBy('over90');
 */
export function useAgingList(today: string = todayJst()) {
  const [asOf, setAsOf] = useState(today);
  const [sort, setSort] = useState<{ col: AgingSort; odr: 'asc' | 'desc' }>({ col: 'total', odr: 'desc' });
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useCall('aging_lst', asOf ? { as_of: asOf, col: sort.col, odr: sort.odr, n: REPORT_PAGE_SIZE, p: page } : null, SWR_OPTIONS);
  const answer = data?.[0];
  const sortBy = useCallback((col: AgingSort) => {
    setPage(1);
    setSort((now) => ({ col, odr: now.col === col ? (now.odr === 'asc' ? 'desc' : 'asc') : col === 'name' ? 'asc' : 'desc' }));
  }, []);
  const changeDay = useCallback((day: string) => {
    setPage(1);
    setAsOf(day);
  }, []);
  return {
    asOf, setAsOf: changeDay, sort, sortBy, answer, error, isLoading, page, setPage,
    pages: answer ? Math.max(1, Math.ceil(answer.row_count / REPORT_PAGE_SIZE)) : 1,
  };
}
