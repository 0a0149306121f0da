/**
 * 顧客コードの一括採番 on 自社情報 (under the form holding the prefix): 「採番内容を確認」 asks `client_code_assign` for the
 * codes the customers without one would get (nothing written) and lists them; 「この内容で採番する」 writes them
 * (`commit=1`) and says how many were given. Shown to roles that write customers.
 */
import clsx from 'clsx';
import { useState } from 'react';
import { call } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import type { ClientCodeAssignment } from '@/lib/clients/code-assign';
import { detailPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import { clientResource } from '@/lib/resources/client';
import { Card } from '@/components/ui';
import { cellClass as cell, DataTable } from '../data-table';
import { AppLink, useAreas } from '../shell-bridge';
import { buttonClass } from '../styles';

export function ClientCodeAssign() {
  const areas = useAreas();
  const [plan, setPlan] = useState<ClientCodeAssignment>();
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  if (!can(areas, clientResource.area, 'write')) return null;
  const ask = async (commit: boolean) => {
    setBusy(true);
    setProblem('');
    try {
      const [answer] = await call('client_code_assign', commit ? { commit: '1' } : {});
      setPlan(answer);
    } catch (error) {
      setProblem(messageOf(error) ?? '');
    } finally {
      setBusy(false);
    }
  };
  const more = plan ? plan.count - plan.rows.length : 0;
  return (
    <Card
      title="顧客コードの一括採番"
      actions={
        <>
          <button type="button" className={buttonClass('secondary', 'sm')} disabled={busy} onClick={() => void ask(false)}>採番内容を確認</button>
          {plan && !plan.assigned && plan.count > 0 && (
            <button type="button" className={buttonClass('primary', 'sm')} disabled={busy} onClick={() => void ask(true)}>この内容で採番する（{plan.count.toLocaleString('ja-JP')} 件）</button>
          )}
        </>
      }
    >
      <p className="text-[1.3rem] text-ink-soft">顧客コードのない顧客に、上の「顧客コードの接頭辞」と連番（使われている番号の次から）を振ります。保存した設定で確認してください。</p>
      {problem && <p role="alert" className="mt-[8px] text-[14px] text-danger">{problem}</p>}
      {plan && (
        <div role="status" className="mt-[8px] flex flex-col gap-[8px] text-[14px]">
          <p>
            {plan.assigned
              ? `${plan.count.toLocaleString('ja-JP')} 件の顧客に顧客コードを付けました。`
              : plan.count === 0 ? '顧客コードのない顧客はいません。' : `顧客コードのない顧客 ${plan.count.toLocaleString('ja-JP')} 件に、次のコードを付けます（まだ保存していません）。`}
          </p>
          {plan.rows.length > 0 && (
            <DataTable caption={plan.assigned ? '付けた顧客コード' : '付ける顧客コード'} headers={[['顧客'], ['顧客コード']]} empty={false}>
              {plan.rows.map((r) => (
                <tr key={r.cl_id} className="h-row">
                  <td className={cell}><AppLink to={detailPathOf(clientResource, r.cl_id)} className="text-brand underline-offset-2 hover:underline">{r.name || `ID ${r.cl_id}`}</AppLink></td>
                  <td className={clsx(cell, 'tabular-nums')}>{r.code}</td>
                </tr>
              ))}
            </DataTable>
          )}
          {more > 0 && <p className="text-ink-soft">ほか {more.toLocaleString('ja-JP')} 件</p>}
        </div>
      )}
    </Card>
  );
}
