/** The audit log's row detail: which record, and field by field what it was before and after, in words. */
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import { detailPathOf, hasDetailRoute } from '@/lib/list/resource-paths';
import { useRecordTitle } from '@/lib/client/list/use-record-title';
import { auditChanges, auditTableName, resourceOfTable, valueTarget, valueText } from '@/lib/system/audit';
import { optionText } from '../cells';
import { resolveResource } from '../resolve';
import { AppLink } from '../shell-bridge';
import type { RowDetailProps } from './types';
import { cellText } from '../../../lib/resources/checks';

/** A record named by its id: its name (or 「ID n」 when it cannot be read, e.g. deleted). */
function RecordName({ resource, id }: { resource: string; id: string }) {
  const { title } = useRecordTitle(resolveResource(resource), id);
  return <>{title || `ID ${id}`}</>;
}

/** A master entry named by its code: its text (the code when the master no longer has it). */
function MasterName({ table, value }: { table: string; value: string }) {
  const { options } = useMasterOptions(table);
  return <>{optionText(options, value)}</>;
}

/** One logged value in words: a record's or master entry's name, else `valueText`. */
function ChangeValue({ table, column, value }: { table: string; column: string; value: string | number | null }) {
  const target = valueTarget(table, column);
  if (value === null || value === '' || !target) return <>{valueText(table, column, value)}</>;
  return 'ref' in target ? <RecordName resource={target.ref} id={String(value)} /> : <MasterName table={target.master} value={String(value)} />;
}

export function AuditChanges({ row }: RowDetailProps) {
  const table = cellText(row.log_table ?? '');
  const recordId = row.log_record_id;
  const target = resourceOfTable(table);
  const changes = auditChanges(table, row.log_changes);
  const deleted = changes.some((c) => c.column === 'deleted' && Number(c.after) === 1);
  const shown = deleted ? changes.filter((c) => c.column !== 'modified') : changes;
  return (
    <div className="flex flex-col gap-[8px] text-[1.4rem]">
      <p className="text-ink-soft">
        対象: {auditTableName(table)}
        {recordId !== null && recordId !== undefined && (
          <>
            {target ? <>「<RecordName resource={target.name} id={cellText(recordId)} />」</> : ` ID ${cellText(recordId)}`}
            {target && hasDetailRoute(target) && !deleted && (
              <AppLink to={detailPathOf(target, cellText(recordId))} className="ml-[8px] text-brand underline-offset-2 hover:underline">
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
                <td className="whitespace-pre-wrap break-all px-[8px] py-[4px] text-ink-soft"><ChangeValue table={table} column={c.column} value={c.before} /></td>
                <td className="whitespace-pre-wrap break-all px-[8px] py-[4px]">
                  <span aria-hidden="true" className="mr-[4px] text-muted">→</span>
                  <ChangeValue table={table} column={c.column} value={c.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
