/**
 * The order lists: `/orders/list/{status}` (the generic list fixed to one status, rows selectable
 * for 「次の状態へ」 through `order_status`) and `/orders/list/search` (every status, the 詳細検索
 * panel's open flag kept under the spec's `KEYS.detailSearchOpen`).
 */
import { useState } from 'react';
import { call, CallError } from '@/lib/client/api/fetcher';
import { isOrderStatus, NEXT_STATUS, statusText, type StatusResult } from '@/lib/orders/status';
import { can } from '@/lib/permissions';
import { orderResource } from '@/lib/resources/order';
import { KEYS } from '@/lib/storage-keys';
import ResourceListScreen, { type BulkContext } from '@/components/resource/resource-list-screen';
import { useAreas } from '@/components/resource/shell-bridge';
import { buttonClass } from '@/components/resource/styles';
import type { ScreenProps } from '../registry';

function NextStatus({ ids, done, target }: BulkContext & { target: string }) {
  const [report, setReport] = useState<{ moved: number; failed: StatusResult[] }>();
  const [problem, setProblem] = useState('');
  const run = async () => {
    setProblem('');
    try {
      const results = await call<StatusResult>('order_status', { ids: JSON.stringify(ids.map(Number)), status: target });
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
      bulk={target && can(areas, orderResource.area, 'write') ? (context) => <NextStatus {...context} target={target} /> : undefined}
    />
  );
}
