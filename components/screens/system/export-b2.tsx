/**
 * 「送り状出力」 panel of /system/export: the 出荷待ち orders (the generic order list fixed to that status, rows selectable),
 * the preview of the chosen orders' Yamato B2 rows (`export_b2_preview`: key fields, the characters that will become 〓 or
 * a stand-in, what refuses an order, and when it was last exported), the 出荷予定日, and 「B2 CSV を出力」 (`export_b2`
 * through the client's `download`, データ取込・出力 write). After a download the preview is read again, so the export mark
 * of each order shows.
 */
import { useState } from 'react';
import { download } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import { formatDateTime, todayJst } from '@/lib/format';
import { orderResource } from '@/lib/resources/order';
import { DataTable, cellClass, numberCellClass } from '@/components/resource/data-table';
import ResourceListScreen, { type BulkContext } from '@/components/resource/resource-list-screen';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import { useB2Preview } from '@/lib/client/data/delivery';
import { useCanCall } from '@/lib/client/auth/use-can-call';

function B2Actions({ ids }: BulkContext) {
  const [shipDate, setShipDate] = useState(todayJst);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const canWrite = useCanCall('export_b2');
  const chosen = ids.map(Number).sort((a, b) => a - b);
  const { data, error, isLoading, mutate } = useB2Preview(chosen.length ? { ids: JSON.stringify(chosen), ship_date: shipDate } : null);
  const preview = chosen.length ? data?.[0] : undefined;
  const replaced = preview?.rows.flatMap((r) => r.replaced.map((c) => ({ ...c, od_number: r.od_number }))) ?? [];
  const problems = [
    ...(preview?.sender_problems.map((p) => `自社情報: ${p.message}`) ?? []),
    ...(preview?.rows.flatMap((r) => r.problems.map((p) => `${r.od_number || '受注'} の${p.field}: ${p.message}`)) ?? []),
  ];

  const exportFile = async () => {
    setBusy(true);
    setProblem('');
    setDone('');
    try {
      const file = await download('export_b2', { ids: JSON.stringify(chosen), ship_date: shipDate });
      if (file) setDone(`${chosen.length} 件の送り状 CSV を出力しました。`);
      await mutate();
    } catch (failure) {
      setProblem(messageOf(failure) ?? '');
    } finally {
      setBusy(false);
    }
  };

  if (chosen.length === 0) return <p className="text-[1.3rem] text-ink-soft">送り状にする受注を一覧で選ぶと、出力する内容をここに表示します。</p>;
  return (
    <div className="flex w-full flex-col gap-[8px]">
      <div className="flex flex-wrap items-end gap-[8px]">
        <label className="flex flex-col gap-[2px]">
          <span className={labelClass}>出荷予定日</span>
          <input type="date" className={inputClass} value={shipDate} onChange={(e) => setShipDate(e.target.value)} />
        </label>
        {canWrite && (
          <button type="button" className={buttonClass('primary')} disabled={busy || !preview?.ok} onClick={() => void exportFile()}>
            {busy ? '出力中…' : 'B2 CSV を出力'}
          </button>
        )}
      </div>
      {!canWrite && <p className="text-[1.3rem] text-ink-soft">送り状 CSV の出力には、データ取込・出力の編集権限が必要です。</p>}
      {(error || problem) && <p role="alert" className="text-[14px] text-danger">{problem || messageOf(error) || ''}</p>}
      {done && <p role="status" className="text-[14px] text-ink">{done}</p>}
      {problems.length > 0 && (
        <div role="alert" className="text-[14px] text-danger">
          <p>次の受注は送り状にできません（直してから出力してください）。</p>
          <ul className="list-disc pl-[20px]">{problems.map((text) => <li key={text}>{text}</li>)}</ul>
        </div>
      )}
      <DataTable
        caption="送り状のプレビュー"
        headers={[['受注番号'], ['種類'], ['出荷予定日'], ['お届け日'], ['時間帯'], ['お届け先名'], ['郵便番号'], ['住所'], ['品名'], ['代引額', true], ['B2出力']]}
        empty={isLoading && !preview ? '読み込み中…' : !preview ? '（プレビューを表示できません）' : false}
      >
        {preview?.rows.map((r) => (
          <tr key={r.od_id} className="h-row">
            <td className={cellClass}>{r.od_number}</td>
            <td className={cellClass}>{r.type}</td>
            <td className={cellClass}>{r.ship_date}</td>
            <td className={cellClass}>{r.delivery_date}</td>
            <td className={cellClass}>{r.time_slot}</td>
            <td className={cellClass}>{r.name}</td>
            <td className={cellClass}>{r.zipcode}</td>
            <td className={cellClass}>{[r.address, r.building].filter(Boolean).join(' ')}</td>
            <td className={cellClass}>{r.item}</td>
            <td className={numberCellClass}>{r.collect}</td>
            <td className={cellClass}>{r.exported_at ? `出力済み ${formatDateTime(r.exported_at)}${r.exported_by ? `（${r.exported_by}）` : ''}` : '未出力'}</td>
          </tr>
        ))}
      </DataTable>
      <section aria-labelledby="b2-replaced-title" className="flex flex-col gap-[4px]">
        <h3 id="b2-replaced-title" className="text-[1.4rem] font-bold text-ink">置き換える文字</h3>
        {replaced.length === 0 ? (
          <p className="text-[1.3rem] text-ink-soft">B2 で使えない文字はありません。</p>
        ) : (
          <>
            <p className="text-[1.3rem] text-ink-soft">B2 クラウドは JIS 第1・第2水準の文字だけを受け付けます。次の文字は置き換えて出力します。</p>
            <DataTable caption="置き換える文字" headers={[['受注番号'], ['項目'], ['文字'], ['出力する文字']]} empty={false}>
              {replaced.map((c, i) => (
                <tr key={`${c.od_number}-${c.field}-${i}`} className="h-row">
                  <td className={cellClass}>{c.od_number}</td>
                  <td className={cellClass}>{c.field}</td>
                  <td className={cellClass}>{c.char}</td>
                  <td className={cellClass}>{c.to || '（削除）'}</td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
      </section>
    </div>
  );
}

/** The 送り状出力 panel: the 出荷待ち list with the B2 actions for the chosen rows. */
export function ExportB2Panel() {
  return (
    <section aria-label="送り状出力" className="flex flex-col">
      <ResourceListScreen
        key="export-b2"
        resource={orderResource}
        title="送り状出力（ヤマト B2 クラウド）"
        options={{ persist: false, fixedFilters: { od_status: ['waitshipping'] } }}
        bulk={(context) => <B2Actions {...context} />}
      />
    </section>
  );
}
