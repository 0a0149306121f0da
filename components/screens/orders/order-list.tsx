/**
 * The order lists: `/orders/list/{status}` (the generic list fixed to one status, rows selectable
 * for 「次の状態へ」 through `order_status` and, before their stock is out, 「出荷倉庫を変更」 through `order_warehouse`) and `/orders/list/search` (every status, the 詳細検索
 * panel's open flag kept under the spec's `KEYS.detailSearchOpen`).
 */
import { useState } from 'react';
import { call, CallError } from '@/lib/client/api/fetcher';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { isOrderStatus, NEXT_STATUS, statusText, stockIsOut, type StatusResult } from '@/lib/orders/status';
import { can } from '@/lib/permissions';
import { orderResource } from '@/lib/resources/order';
import { KEYS } from '@/lib/storage-keys';
import ResourceListScreen, { type BulkContext } from '@/components/resource/resource-list-screen';
import { useAreas } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';

function NextStatus({ ids, done, target }: BulkContext & { target: string }) {
  const [report, setReport] = useState<{ moved: number; failed: StatusResult[] }>();
  const [problem, setProblem] = useState('');
  const run = async () => {
    setProblem('');
    try {
      const results = await call('order_status', { ids: JSON.stringify(ids.map(Number)), status: target });
      setReport({ moved: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok) });
      done();
    } catch (error) {
      if (error instanceof CallError) setProblem(error.message);
      else throw error;
    }
  };
  return (
    <>
      <button type="button" className={buttonClass('primary', 'sm')} disabled={ids.length === 0} onClick={() => void run()}>
        次の状態へ（「{statusText(target)}」にする）
      </button>
      {problem && <p role="alert" className="text-[14px] text-danger">{problem}</p>}
      {report && (
        <div role="status" className="w-full text-[14px]">
          <p>{report.moved} 件を「{statusText(target)}」にしました。{report.failed.length > 0 && `${report.failed.length} 件は変更できませんでした。`}</p>
          {report.failed.length > 0 && (
            <ul className="list-disc pl-[20px] text-danger">
              {report.failed.map((r) => <li key={r.od_id}>{r.od_number || '見つからない受注'}: {r.message}</li>)}
            </ul>
          )}
        </div>
      )}
    </>
  );
}

/** 出荷倉庫を変更: the chosen orders get one warehouse, all or none (`order_warehouse`, one transaction). */
function WarehouseBulk({ ids, done }: BulkContext) {
  const { options } = useMasterOptions('mt_warehouse');
  const [warehouse, setWarehouse] = useState('');
  const [report, setReport] = useState('');
  const [problem, setProblem] = useState('');
  const run = async () => {
    setProblem('');
    setReport('');
    try {
      const saved = await call('order_warehouse', { ids: JSON.stringify(ids.map(Number)), sk_id: warehouse });
      const name = options.find((o) => o.value === warehouse)?.text ?? '';
      setReport(`${saved.length} 件の出荷倉庫を「${name}」にしました。`);
      done();
    } catch (error) {
      if (error instanceof CallError) setProblem(error.message);
      else throw error;
    }
  };
  return (
    <>
      <select aria-label="変更先の出荷倉庫" className={inputClass} value={warehouse} onChange={(e) => setWarehouse(e.target.value)}>
        <option value="">出荷倉庫を選ぶ</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.text}</option>)}
      </select>
      <button type="button" className={buttonClass('secondary', 'sm')} disabled={ids.length === 0 || !warehouse} onClick={() => void run()}>
        出荷倉庫を変更
      </button>
      {problem && <p role="alert" className="text-[14px] text-danger">{problem}</p>}
      {report && <p role="status" className="text-[14px]">{report}</p>}
    </>
  );
}

/** Whether the orders of a status list may still change warehouse (their stock has not left; not cancelled). */
const warehouseOpen = (status: string): boolean => !stockIsOut(status) && status !== 'cancelled';

export default function OrderListScreen({ match }: ScreenProps) {
  const key = match.route.path.split('/').pop() ?? '';
  const areas = useAreas();
  if (!isOrderStatus(key)) {
    return <ResourceListScreen key="search" resource={orderResource} title="受注検索" filtersKey={KEYS.detailSearchOpen} />;
  }
  const target = NEXT_STATUS[key];
  return (
    <ResourceListScreen
      key={key}
      resource={orderResource}
      title={`受注一覧（${statusText(key)}）`}
      options={{ persist: false, fixedFilters: { od_status: [key] } }}
      bulk={(target || warehouseOpen(key)) && can(areas, orderResource.area, 'write') ? (context) => (
        <>
          {target && <NextStatus {...context} target={target} />}
          {warehouseOpen(key) && <WarehouseBulk {...context} />}
        </>
      ) : undefined}
    />
  );
}
