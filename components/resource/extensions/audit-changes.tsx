/** The audit log's row detail: which record, and field by field what it was before and after. */
import { detailPathOf, hasDetailRoute } from '@/lib/list/use-record-controller';
import { auditChanges, resourceOfTable, valueText } from '@/lib/system/audit';
import { AppLink } from '../shell-bridge';
import type { RowDetailProps } from './types';

export function AuditChanges({ row }: RowDetailProps) {
  const table = String(row.log_table ?? '');
  const recordId = row.log_record_id;
  const target = resourceOfTable(table);
  const changes = auditChanges(table, row.log_changes);
  const deleted = changes.some((c) => c.column === 'deleted' && Number(c.after) === 1);
  const shown = deleted ? changes.filter((c) => c.column !== 'modified') : changes;
  return (
    <div className="flex flex-col gap-[8px] text-[1.4rem]">
      <p className="text-ink-soft">
        対象: {target?.label ?? table}
        {recordId !== null && recordId !== undefined && (
          <>
            {' '}
            ID {String(recordId)}
            {target && hasDetailRoute(target) && !deleted && (
              <AppLink to={detailPathOf(target, String(recordId))} className="ml-[8px] text-brand underline-offset-2 hover:underline">
                このデータを開く
              </AppLink>
            )}
          </>
        )}
        {deleted && <span className="ml-[8px] font-medium text-danger">削除しました</span>}
      </p>
      {shown.length === 0 ? (
        <p className="text-muted">変更された項目はありません。</p>
      ) : (
        <table className="w-full border-collapse text-[1.3rem]">
          <caption className="visually-hidden">変更内容</caption>
          <thead className="text-ink-soft">
            <tr>
              <th scope="col" className="w-[20%] border-b border-line px-[8px] py-[4px] text-left font-medium">項目</th>
              <th scope="col" className="w-[40%] border-b border-line px-[8px] py-[4px] text-left font-medium">変更前</th>
              <th scope="col" className="w-[40%] border-b border-line px-[8px] py-[4px] text-left font-medium">変更後</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr key={c.column} className="border-b border-line last:border-b-0 align-top">
                <th scope="row" className="px-[8px] py-[4px] text-left font-medium">{c.label}</th>
                <td className="whitespace-pre-wrap break-all px-[8px] py-[4px] text-ink-soft">{valueText(table, c.column, c.before)}</td>
                <td className="whitespace-pre-wrap break-all px-[8px] py-[4px]">
                  <span aria-hidden="true" className="mr-[4px] text-muted">→</span>
                  {valueText(table, c.column, c.after)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
