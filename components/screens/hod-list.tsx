/**
 * 配送リスト (/hod/list): the orders delivered in a date range that are not cancelled (`hod_list`),
 * filtered by team, staff, customer and company name — the filters remembered under KEYS.hodFilters —
 * grouped by day and staff with bottles, address, time slot and phone per stop; 印刷 prints it as a
 * route sheet (the shell hides itself in print).
 */
import { useEffect, useMemo, useState } from 'react';
import useSWR from 'swr';
import { addDays, formatDateJa, todayJst } from '@/lib/format';
import type { HodListFilters, HodListRow } from '@/lib/hod/kinds';
import { callFetcher, messageOf } from '@/lib/list/use-list-controller';
import { useMasterOptions } from '@/lib/list/use-master-options';
import { clientRef } from '@/lib/resources/common';
import { KEYS, readStored, writeStored } from '@/lib/state/storage';
import { RefPicker } from '@/components/resource/ref-picker';
import { useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import type { ScreenProps } from './registry';

const CLIENT_FIELD = clientRef('basic');

const initialFilters = (): HodListFilters => ({ fromDate: todayJst(), toDate: addDays(todayJst(), 6), team: '', userId: '', clientId: '', coName: '' });

/** The remembered filters, each one checked (a stored value of the wrong shape is ignored). */
function storedFilters(): HodListFilters {
  const stored = readStored<Partial<Record<keyof HodListFilters, unknown>>>(KEYS.hodFilters, {});
  const filters = initialFilters();
  for (const name of Object.keys(filters) as (keyof HodListFilters)[]) {
    if (typeof stored?.[name] === 'string') filters[name] = stored[name] as string;
  }
  return filters;
}

/** Stops grouped by delivery day, then staff (the list comes sorted that way). */
function groupsOf(rows: readonly HodListRow[]) {
  const days: { date: string; staff: { key: string; name: string; team: string; rows: HodListRow[] }[] }[] = [];
  for (const row of rows) {
    let day = days.at(-1);
    if (!day || day.date !== row.od_delivery_date) days.push((day = { date: row.od_delivery_date, staff: [] }));
    const key = String(row.user_id ?? '');
    let group = day.staff.at(-1);
    if (!group || group.key !== key) day.staff.push((group = { key, name: row.user_name, team: row.user_team, rows: [] }));
    group.rows.push(row);
  }
  return days;
}

export default function HodListScreen({ match }: ScreenProps) {
  const [draft, setDraft] = useState(storedFilters);
  const [filters, setFilters] = useState(draft);
  const staffOptions = useMasterOptions('mt_user').options;
  const { data, error, isLoading } = useSWR(['hod_list', { from: filters.fromDate, to: filters.toDate, team: filters.team, userId: filters.userId, clientId: filters.clientId, coName: filters.coName }] as const, callFetcher<HodListRow>, { revalidateOnFocus: false, keepPreviousData: true });
  const groups = useMemo(() => groupsOf(data ?? []), [data]);
  const bottles = (data ?? []).reduce((sum, r) => sum + r.bottles, 0);
  useLoadingWhile(isLoading);

  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);

  const set = (name: keyof HodListFilters) => (value: string) => setDraft((d) => ({ ...d, [name]: value }));

  return (
    <section aria-labelledby="hod-list-title" className="flex flex-col gap-[12px] p-[16px] print:p-0">
      <div className="flex flex-wrap items-end justify-between gap-[12px]">
        <h1 id="hod-list-title" className="text-[2rem] font-bold text-ink">
          {match.route.title}
          <span className="ml-[12px] text-[1.4rem] font-normal text-ink-soft">{formatDateJa(filters.fromDate)}〜{formatDateJa(filters.toDate)}</span>
        </h1>
        <button type="button" className={`${buttonClass('secondary')} print:hidden`} onClick={() => window.print()}>印刷</button>
      </div>
      <form
        noValidate
        aria-label="絞り込み"
        className="flex flex-wrap items-end gap-[12px] print:hidden"
        onSubmit={(e) => {
          e.preventDefault();
          writeStored(KEYS.hodFilters, draft);
          setFilters(draft);
        }}
      >
        <label className="flex flex-col gap-[4px]">
          <span className={labelClass}>開始日</span>
          <input type="date" className={inputClass} value={draft.fromDate} onChange={(e) => set('fromDate')(e.target.value)} />
        </label>
        <label className="flex flex-col gap-[4px]">
          <span className={labelClass}>終了日</span>
          <input type="date" className={inputClass} value={draft.toDate} onChange={(e) => set('toDate')(e.target.value)} />
        </label>
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
        <p className="text-[1.4rem]">配送 {data.length.toLocaleString('ja-JP')}件・ボトル {bottles.toLocaleString('ja-JP')}本</p>
      )}
      {data && data.length === 0 && <p className="text-[1.4rem] text-ink-soft">この条件の配送はありません。</p>}
      {groups.map((day) => (
        <section key={day.date} aria-label={formatDateJa(day.date)} className="flex flex-col gap-[8px] print:break-inside-avoid">
          <h2 className="text-[1.6rem] font-bold text-ink">{formatDateJa(day.date)}</h2>
          {day.staff.map((group) => (
            <div key={group.key} className="overflow-x-auto rounded-[6px] border border-line bg-white print:break-inside-avoid">
              <table className="w-full border-collapse text-[1.4rem]">
                <caption className="bg-subtle px-[10px] py-[6px] text-left font-medium">
                  {group.name || '担当者なし'}{group.team && `（${group.team}）`}・{group.rows.length}件・{group.rows.reduce((s, r) => s + r.bottles, 0)}本
                </caption>
                <thead className="text-ink-soft">
                  <tr className="h-[32px]">
                    {['顧客', '本数', '住所', '時間帯', '電話番号', '受注番号'].map((label) => (
                      <th key={label} scope="col" className="whitespace-nowrap border-b border-line px-[10px] text-left font-medium">{label}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {group.rows.map((row) => (
                    <tr key={row.od_id} className="h-[36px] border-b border-line last:border-b-0">
                      <th scope="row" className="px-[10px] text-left font-medium">{row.cl_label}</th>
                      <td className="px-[10px] text-right tabular-nums">{row.bottles}</td>
                      <td className="px-[10px]">{row.address}</td>
                      <td className="whitespace-nowrap px-[10px]">{row.time_slot}</td>
                      <td className="whitespace-nowrap px-[10px]">{row.tel}</td>
                      <td className="whitespace-nowrap px-[10px]">{row.od_number}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </section>
      ))}
    </section>
  );
}
