/**
 * 権限管理 (/user/role/, admins): a table of roles × work areas with なし・閲覧・編集 in each cell,
 * adding, renaming and deleting roles, saved with the stale-edit check. Logic in useRoleMatrix.
 */
import clsx from 'clsx';
import { useEffect, useRef, useState } from 'react';
import { Card } from '@/components/ui/card';
import { buttonClass } from '@/components/ui/button';
import { useAlert, useConfirm } from '@/components/ui';
import { inputClass } from '@/components/resource/styles';
import { ADMIN_ONLY_AREAS, ADMIN_ROLE, AREA_KEYS, AREAS, LEVEL_LABELS, LEVELS, type Level } from '@/lib/permissions';
import { MESSAGES } from '@/lib/protocol';
import { useRoleMatrix, type MatrixRole } from '@/lib/client/roles/use-role-matrix';
import { useLeaveGuard } from '@/lib/client/router';
import { useTrack } from '@/lib/client/state/atoms';

const LEVEL_CLASS: Record<Level, string> = {
  none: 'text-muted',
  read: 'text-ink',
  write: 'font-semibold text-brand-strong',
};

/** The name a row is called by in accessible names and messages. */
const labelOf = (role: MatrixRole): string => role.name.trim() || role.savedName || '新しい権限';

export default function RoleMatrixScreen() {
  const matrix = useRoleMatrix();
  const alert = useAlert();
  const confirm = useConfirm();
  const track = useTrack();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; conflict?: boolean }>();
  const focusKey = useRef<string | null>(null);
  useLeaveGuard(matrix.dirty && !busy);

  useEffect(() => {
    if (!focusKey.current) return;
    document.getElementById(`role-name-${focusKey.current}`)?.focus();
    focusKey.current = null;
  });

  const run = async <T,>(work: () => Promise<T>): Promise<T> => {
    setBusy(true);
    try {
      return await track(work());
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    setProblem(undefined);
    const outcome = await run(matrix.save);
    if (outcome.ok) {
      alert(MESSAGES.saved);
      return;
    }
    if (outcome.kind === 'conflict') {
      setProblem({ message: `権限「${outcome.role}」は他のユーザーが先に更新したため保存できませんでした。最新の内容を読み込んでから、もう一度変更してください。`, conflict: true });
      alert(outcome.message, 'error');
      return;
    }
    setProblem({ message: `権限「${outcome.role}」を保存できませんでした：${outcome.message}` });
  };

  const remove = async (role: MatrixRole) => {
    const label = labelOf(role);
    if (role.id !== null && !(await confirm(`権限「${label}」を本当に削除しますか？`, { title: '権限の削除', confirmLabel: '削除する', danger: true }))) return;
    setProblem(undefined);
    const outcome = await run(() => matrix.remove(role.key));
    if (!outcome.ok) setProblem({ message: outcome.message });
    else if (role.id !== null) alert(MESSAGES.deleted);
  };

  const reload = async () => {
    setProblem(undefined);
    await run(matrix.reload);
  };

  return (
    <div className="flex flex-col gap-[12px] p-[16px]">
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <h1 className="text-[2rem] font-bold text-ink">権限管理</h1>
        <div className="flex items-center gap-[8px]">
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={busy}
            onClick={() => {
              focusKey.current = matrix.add();
            }}
          >
            <span aria-hidden="true">＋</span>
            権限を追加
          </button>
          <button type="button" className={buttonClass('primary')} disabled={busy || !matrix.dirty} onClick={() => void save()}>
            {busy ? '保存中…' : '保存'}
          </button>
        </div>
      </div>
      <p className="text-[1.3rem] leading-[1.7] text-ink-soft">
        権限ごとに、各業務を「なし・閲覧・編集」から選んで保存します。サーバーは保存した直後の操作から新しい設定で判断し、
        メニューや画面はそのユーザーが次にページを開いたときに変わります。「{ADMIN_ROLE}」はすべての業務を編集でき、
        「{ADMIN_ONLY_AREAS.map((a) => AREAS[a]).join('・')}」は「{ADMIN_ROLE}」だけが使えます。ユーザーに設定されている権限は削除できません。
      </p>

      {problem && (
        <div role={problem.conflict ? 'status' : 'alert'} className="flex flex-wrap items-center gap-[12px] rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[1.4rem] text-danger">
          <span>{problem.message}</span>
          {problem.conflict && (
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void reload()}>
              最新の内容を読み込む（編集内容は破棄されます）
            </button>
          )}
        </div>
      )}
      {matrix.error && (
        <p role="alert" className="rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[1.4rem] text-danger">
          {matrix.error}
        </p>
      )}

      <Card>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-[1.3rem]" aria-busy={matrix.isLoading || busy}>
            <caption className="visually-hidden">権限ごとに使える業務</caption>
            <thead>
              <tr className="border-b border-line-strong bg-subtle">
                <th scope="col" className="sticky left-0 z-10 min-w-[130px] bg-subtle px-[8px] py-[6px] text-left font-semibold">
                  権限名
                </th>
                {AREA_KEYS.map((area) => (
                  <th key={area} scope="col" className="min-w-[78px] px-[4px] py-[6px] text-left align-bottom font-semibold leading-[1.4]">
                    {AREAS[area]}
                  </th>
                ))}
                <th scope="col" className="px-[8px] py-[6px]">
                  <span className="visually-hidden">操作</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {matrix.roles.map((role) => {
                const label = labelOf(role);
                return (
                  <tr key={role.key} className={clsx('border-b border-line', role.changed && 'bg-brand-soft/40')}>
                    <th scope="row" className="sticky left-0 z-10 bg-surface px-[8px] py-[6px] text-left font-semibold">
                      {role.fixed ? (
                        <span>{role.name}</span>
                      ) : (
                        <input
                          id={`role-name-${role.key}`}
                          aria-label={`権限名：${role.savedName || '新しい権限'}`}
                          value={role.name}
                          maxLength={30}
                          disabled={busy}
                          onChange={(e) => matrix.rename(role.key, e.target.value)}
                          className={clsx(inputClass, 'w-[120px]')}
                        />
                      )}
                    </th>
                    {AREA_KEYS.map((area) => {
                      const locked = role.fixed || ADMIN_ONLY_AREAS.includes(area);
                      return (
                        <td key={area} className="px-[4px] py-[6px]">
                          <select
                            aria-label={`${label}：${AREAS[area]}`}
                            value={role.areas[area]}
                            disabled={busy || locked}
                            onChange={(e) => matrix.setLevel(role.key, area, e.target.value as Level)}
                            className={clsx(inputClass, 'w-full min-w-[70px] px-[4px]', LEVEL_CLASS[role.areas[area]])}
                          >
                            {LEVELS.map((level) => (
                              <option key={level} value={level}>
                                {LEVEL_LABELS[level]}
                              </option>
                            ))}
                          </select>
                        </td>
                      );
                    })}
                    <td className="px-[8px] py-[6px] text-right">
                      {!role.fixed && (
                        <button type="button" className={buttonClass('danger', 'sm')} disabled={busy} aria-label={`${label}を削除`} onClick={() => void remove(role)}>
                          削除
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}
