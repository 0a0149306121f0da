/**
 * 配送実績 detail section: the 保証金 slips the round's bottles made (`hodreport_slip_lst`) — bottles left at a customer
 * are a bottle movement whose 容器保証金 is a sales slip — so a save that creates one says so. Each slip links to its
 * screen for roles that read sales; staff without sales (配送) see its number, customer and amount.
 */
import { messageOf } from '@/lib/client/list/use-list-controller';
import { formatDateJa, formatMoney } from '@/lib/format';
import { detailPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import { salesResource } from '@/lib/resources/sales';
import { AppLink, useAreas } from '../shell-bridge';
import type { DetailExtensionProps } from './types';
import { useHodReportSlips } from '@/lib/client/data/delivery';
import { cellText } from '../../../lib/resources/checks';

export function HodReportSlips({ id, record }: DetailExtensionProps) {
  // Read again after every save of the round (its `modified` moves): the slips follow its bottles.
  const { data, error } = useHodReportSlips({ hr_id: id, modified: cellText(record.modified ?? '') });
  const linked = can(useAreas(), salesResource.area, 'read');
  if (error) return <p role="alert" className="text-[1.4rem] text-danger">{messageOf(error)}</p>;
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="hodreport-slips-title" role="status" className="flex flex-col gap-[6px] rounded-[6px] border border-line bg-surface px-[16px] py-[10px]">
      <h2 id="hodreport-slips-title" className="text-[1.5rem] font-bold text-ink">保証金の売上伝票を作成しました（{data.length}件）</h2>
      <p className="text-[1.3rem] text-ink-soft">お届けしたボトルの容器保証金を、顧客ごとに売上伝票にしています。ボトルの本数を直すと伝票も直ります。</p>
      <ul className="flex flex-col gap-[2px] text-[1.4rem]">
        {data.map((slip) => {
          const text = `${slip.sl_number || `伝票 ID ${slip.sl_id}`}（${slip.cl_name}、${formatDateJa(slip.sl_date)}、${formatMoney(slip.sl_total)}）`;
          return (
            <li key={slip.sl_id}>
              {linked ? <AppLink to={detailPathOf(salesResource, slip.sl_id)} className="font-medium text-brand underline-offset-2 hover:underline">{text}</AppLink> : text}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
