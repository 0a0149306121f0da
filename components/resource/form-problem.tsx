/**
 * The banner of a record form's failed load or save: the message, the records a refused delete names, and
 * after a stale edit (409) the way out — reloading the latest record, which discards the edits on screen.
 * The generic detail screen and the order screen both draw it.
 */
import type { ReactNode } from 'react';
import type { UsedBy } from '@/lib/protocol';
import { UsedByLinks } from './used-by-links';
import { buttonClass } from './styles';

export interface FormProblemState {
  message: string;
  /** A stale edit: offers to reload the latest record. */
  conflict?: boolean;
  /** The form's own check failed (the banner goes when the fields are fixed). */
  invalid?: boolean;
  usedBy?: readonly UsedBy[];
}

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
