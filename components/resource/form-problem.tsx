/**
 * The banner of a record form's failed load or save: the message, the records a refused delete names, and
 * after a stale edit (409) the way out — reloading the latest record, which discards the edits on screen.
 * The generic detail screen, the order screen and the master editor draw it.
 */
import type { ReactNode } from 'react';
import type { FormProblemState } from '@/lib/client/form/use-record-form';
import { UsedByLinks } from './used-by-links';
import { buttonClass } from './styles';


export function FormProblem({ problem, onReload, children }: { problem: FormProblemState; onReload: () => void; children?: ReactNode }) {
  return (
    <div role={problem.conflict ? 'status' : 'alert'} className="flex flex-wrap items-center gap-[12px] rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[1.4rem] text-danger">
      <span>{problem.message}</span>
      <UsedByLinks usedBy={problem.usedBy} />
      {problem.conflict && (
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={onReload}>
          最新の内容を読み込む（編集内容は破棄されます）
        </button>
      )}
      {children}
    </div>
  );
}
