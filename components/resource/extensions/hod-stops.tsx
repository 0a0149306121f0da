/**
 * 配送実績 detail: the round's stops (`hodreport_stop_lst`) as an editable table — customer, returnable
 * item, お届け本数, 空ボトル回収本数, 集金額, result, note — saved with the round (`hodreport_save`
 * with `stops` and the record's `modified`), which books the bottles on the customers.
 */
import { useEffect, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { call } from '@/lib/client/api/fetcher';
import { formatMoney } from '@/lib/format';
import { callFetcher, messageOf } from '@/lib/client/list/use-list-controller';
import { can } from '@/lib/permissions';
import { HOD_STOP_RESULT, type HodStop } from '@/lib/resources/hod-report';
import type { FieldDef } from '@/lib/resources/types';
import { Card } from '@/components/ui';
import { RefPicker } from '@/components/resource/ref-picker';
import { useAlert, useAreas } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import type { DetailExtensionProps } from './types';

const CLIENT_FIELD: FieldDef = { name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab: 'basic' };
const ITEM_FIELD: FieldDef = { name: 'it_id', label: '商品', type: 'ref', ref: 'item', tab: 'basic' };

interface EditStop {
  key: number;
  cl_id: string;
  it_id: string;
  delivered: string;
  collected: string;
  cash: string;
  result: string;
  note: string;
}

let nextKey = 1;
const emptyStop = (): EditStop => ({ key: nextKey++, cl_id: '', it_id: '', delivered: '', collected: '', cash: '', result: 'delivered', note: '' });
const toEdit = (s: HodStop): EditStop => ({
  key: nextKey++, cl_id: String(s.hrs_cl_id), it_id: s.hrs_it_id === null ? '' : String(s.hrs_it_id),
  delivered: String(s.hrs_delivered), collected: String(s.hrs_collected), cash: String(s.hrs_cash), result: s.hrs_result, note: s.hrs_note,
});

export function HodStops({ id, record }: DetailExtensionProps) {
  const areas = useAreas();
  const alert = useAlert();
  const { mutate } = useSWRConfig();
  const writable = can(areas, 'hod', 'write');
  const key = ['hodreport_stop_lst', { hr_id: id }] as const;
  const { data, isLoading } = useSWR(key, callFetcher<HodStop>, { revalidateOnFocus: false });
  const [stops, setStops] = useState<EditStop[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    if (data) setStops(data.length > 0 ? data.map(toEdit) : [emptyStop()]);
  }, [data]);

  const setStop = (k: number, patch: Partial<EditStop>) => setStops((all) => all.map((s) => (s.key === k ? { ...s, ...patch } : s)));
  const filled = stops.filter((s) => s.cl_id !== '');
  const num = (text: string) => Number(text.normalize('NFKC').replaceAll(',', '')) || 0;

  const save = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await call('hodreport_save', { id, postData: { modified: record.modified, stops: filled.map(({ key: _k, ...s }) => s) } });
      alert('配送実績を記録しました。');
      // The round's totals, its stops and the customers' bottle balances changed.
      await mutate((k) => Array.isArray(k) && typeof k[0] === 'string' && (k[0].startsWith('hodreport_') || k[0] === 'bottle_balance' || k[0].startsWith('bottle_')));
    } catch (e) {
      setProblem(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="訪問先">
      {isLoading ? <p className="text-muted">読み込み中…</p> : (
        <div className="flex flex-col gap-[10px]">
          <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
            <table className="w-full border-collapse text-[1.4rem]">
              <caption className="visually-hidden">訪問先</caption>
              <thead>
                <tr className="h-[36px] bg-surface text-left">
                  {['#', '顧客', 'ボトル', 'お届け', '回収', '集金額', '結果', '不在・再配達メモ', ''].map((h, i) => <th key={i} scope="col" className="px-[8px]">{h}</th>)}
                </tr>
              </thead>
              <tbody>
                {stops.map((s, i) => (
                  <tr key={s.key} className="border-t border-line">
                    <td className="px-[8px] tabular-nums">{i + 1}</td>
                    <td className="min-w-[200px] px-[8px] py-[4px]">
                      <label htmlFor={`stop-${s.key}-client`} className="visually-hidden">{i + 1}件目の顧客</label>
                      <RefPicker field={{ ...CLIENT_FIELD, label: `${i + 1}件目の顧客` }} inputId={`stop-${s.key}-client`} value={s.cl_id} onChange={(v) => setStop(s.key, { cl_id: v })} disabled={!writable} />
                    </td>
                    <td className="min-w-[180px] px-[8px] py-[4px]">
                      <label htmlFor={`stop-${s.key}-item`} className="visually-hidden">{i + 1}件目のボトル</label>
                      <RefPicker field={{ ...ITEM_FIELD, label: `${i + 1}件目のボトル` }} inputId={`stop-${s.key}-item`} value={s.it_id} onChange={(v) => setStop(s.key, { it_id: v })} disabled={!writable} />
                    </td>
                    {(['delivered', 'collected', 'cash'] as const).map((name) => (
                      <td key={name} className="px-[8px] py-[4px]">
                        <input aria-label={`${i + 1}件目の${{ delivered: 'お届け本数', collected: '回収本数', cash: '集金額' }[name]}`} inputMode="numeric" disabled={!writable}
                          className={`${inputClass} ${name === 'cash' ? 'w-[100px]' : 'w-[64px]'} text-right`} value={s[name]} onChange={(e) => setStop(s.key, { [name]: e.target.value })} />
                      </td>
                    ))}
                    <td className="px-[8px] py-[4px]">
                      <select aria-label={`${i + 1}件目の結果`} className={inputClass} value={s.result} disabled={!writable} onChange={(e) => setStop(s.key, { result: e.target.value })}>
                        {HOD_STOP_RESULT.map((r) => <option key={r.value} value={r.value}>{r.text}</option>)}
                      </select>
                    </td>
                    <td className="px-[8px] py-[4px]">
                      <input aria-label={`${i + 1}件目のメモ`} className={`${inputClass} w-[180px]`} value={s.note} disabled={!writable} onChange={(e) => setStop(s.key, { note: e.target.value })} />
                    </td>
                    <td className="px-[8px]">
                      {writable && <button type="button" aria-label={`${i + 1}件目を削除`} className={buttonClass('secondary', 'sm')} onClick={() => setStops((all) => all.filter((x) => x.key !== s.key))}>削除</button>}
                    </td>
                  </tr>
                ))}
                <tr className="h-[40px] border-t border-line font-semibold">
                  <td colSpan={3} className="px-[8px]">合計（{filled.length}件）</td>
                  <td className="px-[8px] text-right tabular-nums">{filled.reduce((a, s) => a + num(s.delivered), 0)}本</td>
                  <td className="px-[8px] text-right tabular-nums">{filled.reduce((a, s) => a + num(s.collected), 0)}本</td>
                  <td className="px-[8px] text-right tabular-nums">{formatMoney(filled.reduce((a, s) => a + num(s.cash), 0))}</td>
                  <td colSpan={3} />
                </tr>
              </tbody>
            </table>
          </div>
          {problem && <p role="alert" className="rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[6px] text-[1.4rem] text-danger">{problem}</p>}
          {writable && (
            <div className="flex gap-[8px]">
              <button type="button" className={buttonClass('secondary')} onClick={() => setStops((all) => [...all, emptyStop()])}>訪問先を追加</button>
              <button type="button" className={buttonClass('primary')} disabled={busy} onClick={() => void save()}>{busy ? '記録中…' : '配送実績を記録'}</button>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
