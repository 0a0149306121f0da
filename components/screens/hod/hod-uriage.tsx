/**
 * 配送売上 (/hod/uriage): a period and a grouping (team, staff, customer); `hod_uriage`'s rows —
 * orders delivered (出荷済・処理済) with their totals (税抜・消費税・税込) and the rounds' bottles
 * and cash — and the grand total row.
 */
import { useState } from 'react';
import { formatDateJa, formatMoney, todayJst } from '@/lib/format';
import { URIAGE_GROUPS, type UriageGroup, type UriageRow } from '@/lib/hod/uriage';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { HOD_PERIOD, PAST_PRESETS, periodProblem } from '@/lib/period';
import { useLoadingWhile } from '@/components/resource/shell-bridge';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import { QueryForm, WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useHodUriage } from '@/lib/client/data/delivery';

const count = (n: number, unit: string) => `${n.toLocaleString('ja-JP')}${unit}`;

const COLUMNS: readonly [string, (r: UriageRow) => string][] = [
  ['受注件数', (r) => count(r.orders, '件')],
  ['売上（税抜）', (r) => formatMoney(r.net)],
  ['消費税', (r) => formatMoney(r.tax)],
  ['売上（税込）', (r) => formatMoney(r.total)],
  ['お届け本数', (r) => count(r.delivered, '本')],
  ['回収本数', (r) => count(r.collected, '本')],
  ['集金額', (r) => formatMoney(r.cash)],
];

export default function HodUriageScreen({ match }: ScreenProps) {
  const today = todayJst();
  const [draft, setDraft] = useState<{ from: string; to: string; group: UriageGroup }>(() => ({ from: `${today.slice(0, 8)}01`, to: today, group: 'team' }));
  const [query, setQuery] = useState(draft);
  const { data, error, isLoading } = useHodUriage(query);
  const answer = data?.[0];
  useLoadingWhile(isLoading);


  const groupText = URIAGE_GROUPS.find((g) => g.value === answer?.group)?.text.replace('別', '') ?? '';
  return (
    <WorkScreen id="hod-uriage-title" title={match.route.title} intro="配送日が期間内で「出荷済」「処理済」の受注の合計金額と、期間内の配送実績のボトル本数・集金額です。">
      <QueryForm onSubmit={() => { if (!periodProblem(draft, HOD_PERIOD)) setQuery(draft); }}>
        <DateRangePicker label="期間" fromLabel="開始日" toLabel="終了日" value={draft} onChange={(period) => setDraft({ ...draft, ...period })} presets={PAST_PRESETS} rules={HOD_PERIOD} />
        <label className="flex flex-col gap-[4px]">
          <span className={labelClass}>集計単位</span>
          <select className={inputClass} value={draft.group} onChange={(e) => setDraft({ ...draft, group: e.target.value as UriageGroup })}>
            {URIAGE_GROUPS.map((g) => <option key={g.value} value={g.value}>{g.text}</option>)}
          </select>
        </label>
        <button type="submit" className={buttonClass('primary')}>集計</button>
      </QueryForm>
      {error && <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>}
      {answer && (
        <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
          <table className="w-full border-collapse text-[1.4rem]" aria-busy={isLoading || undefined}>
            <caption className="px-[8px] py-[6px] text-left text-ink-soft">配送売上 {formatDateJa(answer.from)}〜{formatDateJa(answer.to)}</caption>
            <thead>
              <tr className="h-[36px] bg-surface text-left">
                <th scope="col" className="px-[8px]">{groupText}</th>
                {COLUMNS.map(([label]) => <th key={label} scope="col" className="px-[8px] text-right">{label}</th>)}
              </tr>
            </thead>
            <tbody>
              {answer.rows.length === 0 && (
                <tr><td colSpan={COLUMNS.length + 1} className="h-[60px] text-center text-muted">期間内の配送売上はありません</td></tr>
              )}
              {answer.rows.map((r) => (
                <tr key={r.key} className="h-row border-t border-line">
                  <th scope="row" className="px-[8px] text-left font-normal">{r.label}</th>
                  {COLUMNS.map(([label, value]) => <td key={label} className="px-[8px] text-right tabular-nums">{value(r)}</td>)}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="h-row border-t-2 border-line font-semibold">
                <th scope="row" className="px-[8px] text-left">合計</th>
                {COLUMNS.map(([label, value]) => <td key={label} className="px-[8px] text-right tabular-nums">{value(answer.total)}</td>)}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </WorkScreen>
  );
}
