/**
 * 配送リスト (/hod/list): the orders delivered in a date range that are not cancelled (`hod_list`),
 * filtered by team, staff, customer and company name — the filters remembered under KEYS.hodFilters —
 * one route per day and staff with bottles, cash to collect (集金額), address, time slot, phone and notes
 * per stop, and a check column; 印刷 prints it as route sheets, each driver's day on a page of its own
 * (the shell hides itself in print).
 */
import clsx from 'clsx';
import { useEffect, useMemo, useState } from 'react';
import { addDays, formatDateJa, formatMoney, todayJst } from '@/lib/format';
import type { HodListFilters, HodListRow } from '@/lib/hod/kinds';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { COMING_PRESETS, HOD_PERIOD, periodProblem } from '@/lib/period';
import { clientRef } from '@/lib/resources/common';
import { KEYS } from '@/lib/storage-keys';
import { readStored, writeStored } from '@/lib/client/state/storage';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { RefPicker } from '@/components/resource/ref-picker';
import { useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useHodList } from '@/lib/client/data/delivery';

const CLIENT_FIELD = clientRef('basic');

const initialFilters = (): HodListFilters => ({ fromDate: todayJst(), toDate: addDays(todayJst(), 6), team: '', userId: '', clientId: '', coName: '' });

/** The remembered filters, each one checked (a stored value of the wrong shape is ignored). */
function storedFilters(): HodListFilters {
  const stored = readStored<Partial<Record<keyof HodListFilters, unknown>>>(KEYS.hodFilters, {});
  const filters = initialFilters();
  for (const name of Object.keys(filters) as (keyof HodListFilters)[]) {
    if (typeof stored?.[name] === 'string') filters[name] = stored[name];
  }
  return filters;
}

/** One route: a day's stops of one staff member (or of nobody: shipped by carrier). */
interface Route {
  date: string;
  key: string;
  name: string;
  team: string;
  rows: HodListRow[];
}

/** Stops grouped into routes by delivery day, then staff (the list comes sorted that way). */
function routesOf(rows: readonly HodListRow[]): Route[] {
  const routes: Route[] = [];
  for (const row of rows) {
    const key = String(row.user_id ?? '');
    let route = routes.at(-1);
    if (!route || route.date !== row.od_delivery_date || route.key !== key) routes.push((route = { date: row.od_delivery_date, key, name: row.user_name, team: row.user_team, rows: [] }));
    route.rows.push(row);
  }
  return routes;
}

const sumOf = (rows: readonly HodListRow[], pick: (row: HodListRow) => number): number => rows.reduce((sum, row) => sum + pick(row), 0);

const COLUMNS = ['顧客', '本数', '集金額', '住所', '時間帯', '電話番号', '受注番号', '備考'] as const;

/** One route sheet: on paper a page of its own (`first`: the first page needs no break before it). */
function RouteSheet({ route, first }: { route: Route; first: boolean }) {
  const who = `${route.name || '担当者なし（宅配便など）'}${route.team ? `（${route.team}）` : ''}`;
  const collect = sumOf(route.rows, (r) => r.collect);
  return (
    <section aria-label={`${formatDateJa(route.date)} ${who}`} data-route-sheet className={clsx('flex flex-col gap-[6px]', first ? '' : 'print:break-before-page')}>
      <h2 className="flex flex-wrap items-baseline gap-x-[12px] text-[1.6rem] font-bold text-ink">
        <span>{formatDateJa(route.date)}</span>
        <span>{who}</span>
        <span className="text-[1.3rem] font-normal text-ink-soft">
          {route.rows.length}件・ボトル {sumOf(route.rows, (r) => r.bottles)}本・集金 {formatMoney(collect)}
        </span>
      </h2>
      <div className="overflow-x-auto rounded-[6px] border border-line bg-white print:overflow-visible print:border-ink">
        <table className="w-full border-collapse text-[1.4rem] print:text-[1.15rem]">
          <caption className="visually-hidden">{`${formatDateJa(route.date)} ${who}の配送`}</caption>
          <thead className="text-ink-soft print:text-ink">
            <tr className="h-[32px]">
              <th scope="col" className="w-[1%] whitespace-nowrap border-b border-line px-[8px] text-center font-medium">チェック</th>
              {COLUMNS.map((label) => (
                <th key={label} scope="col" className={clsx('whitespace-nowrap border-b border-line px-[8px] font-medium', label === '本数' || label === '集金額' ? 'text-right' : 'text-left')}>{label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {route.rows.map((row) => (
              <tr key={row.od_id} className="h-[36px] border-b border-line last:border-b-0 print:break-inside-avoid">
                <td className="px-[8px] text-center">
                  <span aria-hidden="true" className="inline-block h-[16px] w-[16px] rounded-[2px] border border-ink-soft align-middle" />
                </td>
                <th scope="row" className="px-[8px] text-left font-medium">{row.cl_label}</th>
                <td className="px-[8px] text-right tabular-nums">{row.bottles}</td>
                <td className="whitespace-nowrap px-[8px] text-right tabular-nums">{row.collect ? formatMoney(row.collect) : ''}</td>
                <td className="px-[8px]">{row.address}</td>
                <td className="whitespace-nowrap px-[8px]">{row.time_slot}</td>
                <td className="whitespace-nowrap px-[8px]">{row.tel}</td>
                <td className="whitespace-nowrap px-[8px]">{row.od_number}</td>
                <td className="min-w-[160px] px-[8px] text-[1.3rem] print:text-[1.1rem]">{row.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function HodListScreen({ match }: ScreenProps) {
  const [draft, setDraft] = useState(storedFilters);
  const [filters, setFilters] = useState(draft);
  const staffOptions = useMasterOptions('mt_driver').options;
  const { data, error, isLoading } = useHodList({ from: filters.fromDate, to: filters.toDate, team: filters.team, userId: filters.userId, clientId: filters.clientId, coName: filters.coName });
  const routes = useMemo(() => routesOf(data ?? []), [data]);
  const bottles = sumOf(data ?? [], (r) => r.bottles);
  useLoadingWhile(isLoading);

  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);

  const set = (name: keyof HodListFilters) => (value: string) => setDraft((d) => ({ ...d, [name]: value }));

  return (
    <section aria-labelledby="hod-list-title" className="route-sheets flex flex-col gap-[12px] p-[16px] print:p-0">
      <div className="flex flex-wrap items-end justify-between gap-[12px]">
        <h1 id="hod-list-title" className="text-[2rem] font-bold text-ink">
          {match.route.title}
          <span className="ml-[12px] text-[1.4rem] font-normal text-ink-soft">{formatDateJa(filters.fromDate)}〜{formatDateJa(filters.toDate)}</span>
        </h1>
        <button type="button" className={clsx(buttonClass('secondary'), 'print:hidden')} onClick={() => window.print()}>印刷</button>
      </div>
      <form
        noValidate
        aria-label="絞り込み"
        className="flex flex-wrap items-end gap-[12px] print:hidden"
        onSubmit={(e) => {
          e.preventDefault();
          if (periodProblem({ from: draft.fromDate, to: draft.toDate }, HOD_PERIOD)) return;
          writeStored(KEYS.hodFilters, draft);
          setFilters(draft);
        }}
      >
        <DateRangePicker
          label="期間"
          fromLabel="開始日"
          toLabel="終了日"
          value={{ from: draft.fromDate, to: draft.toDate }}
          onChange={({ from, to }) => setDraft((d) => ({ ...d, fromDate: from, toDate: to }))}
          presets={COMING_PRESETS}
          rules={HOD_PERIOD}
        />
        <label className="flex flex-col gap-[4px]">
          <span className={labelClass}>チーム</span>
          <input type="text" className={inputClass} maxLength={50} value={draft.team} onChange={(e) => set('team')(e.target.value)} />
        </label>
        <label className="flex flex-col gap-[4px]">
          <span className={labelClass}>担当者</span>
          <select className={inputClass} value={draft.userId} onChange={(e) => set('userId')(e.target.value)}>
            <option value="">すべて</option>
            {staffOptions.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
          </select>
        </label>
        <div className="flex min-w-[220px] flex-col gap-[4px]">
          <label htmlFor="hod-list-client" className={labelClass}>顧客</label>
          <RefPicker field={CLIENT_FIELD} inputId="hod-list-client" value={draft.clientId} onChange={set('clientId')} />
        </div>
        <label className="flex flex-col gap-[4px]">
          <span className={labelClass}>会社名</span>
          <input type="text" className={inputClass} maxLength={100} value={draft.coName} onChange={(e) => set('coName')(e.target.value)} />
        </label>
        <button type="submit" className={buttonClass('primary')}>表示</button>
        <button type="button" className={buttonClass('secondary')} onClick={() => setDraft(initialFilters())}>クリア</button>
      </form>
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      {data && (
        <p className="text-[1.4rem]">配送 {data.length.toLocaleString('ja-JP')}件・ボトル {bottles.toLocaleString('ja-JP')}本・集金 {formatMoney(sumOf(data, (r) => r.collect))}</p>
      )}
      {data && data.length === 0 && <p className="text-[1.4rem] text-ink-soft">この条件の配送はありません。</p>}
      {routes.map((route, i) => <RouteSheet key={`${route.date}|${route.key}`} route={route} first={i === 0} />)}
    </section>
  );
}
