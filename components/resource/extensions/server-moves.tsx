/**
 * 設置・交換・引上げ on the customer's サーバー tab: a button each, opening a small dialog (the shared
 * ModalDialog) that picks the servers and the day and calls `server_upd` (logic: lib/client/servers/use-server-move.ts).
 */
import { useId, useState, type FormEvent } from 'react';
import { todayJst } from '@/lib/format';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import type { Row } from '@/lib/client/list/use-list-controller';
import { SERVER_MOVE_LABELS, type ServerMoveKind } from '@/lib/servers/move';
import { useServerChoices, useServerMove, type ServerMoveValues } from '@/lib/client/servers/use-server-move';
import { SERVER_STATUS } from '@/lib/resources/water-server';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { showAlert } from '@/components/ui';
import { buttonClass, inputClass, labelClass } from '../styles';
import type { RelatedActionProps } from './types';
import { cellText } from '../../../lib/resources/checks';

const serverText = (row: Row): string => `${String(row.sv_serial_no)}（${String(row.sv_model_label ?? row.sv_model)}）`;

function Field({ label, error, children, id }: { label: string; error?: string; children: React.ReactNode; id: string }) {
  return (
    <div className="flex flex-col gap-[4px]">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-[1.3rem] text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

function ServerSelect({ id, label, rows, value, onChange, error, empty }: { id: string; label: string; rows: readonly Row[]; value: string; onChange: (v: string) => void; error?: string; empty: string }) {
  return (
    <Field id={id} label={label} error={error}>
      <select id={id} className={inputClass} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={Boolean(error) || undefined} aria-describedby={error ? `${id}-error` : undefined} required>
        <option value="">{rows.length ? '選択してください' : empty}</option>
        {rows.map((row) => (
          <option key={String(row.sv_id)} value={String(row.sv_id)}>
            {serverText(row)}
            {row.sv_sk_id_label ? ` ${cellText(row.sv_sk_id_label)}` : ''}
          </option>
        ))}
      </select>
    </Field>
  );
}

function MoveDialog({ kind, customerId, onClose }: { kind: ServerMoveKind; customerId: string; onClose: () => void }) {
  const base = useId();
  const [values, setValues] = useState<ServerMoveValues>({ id: '', old_id: '', sk_id: '', date: todayJst() });
  const [keyword, setKeyword] = useState('');
  const [problem, setProblem] = useState<{ message: string; fields?: Record<string, string> }>();
  const [busy, setBusy] = useState(false);
  const stock = useServerChoices('stock', undefined, keyword);
  const installed = useServerChoices('installed', customerId);
  const warehouses = useMasterOptions('mt_warehouse');
  const { move } = useServerMove(customerId);
  const set = (name: keyof ServerMoveValues) => (value: string) => setValues((v) => ({ ...v, [name]: value }));
  const label = SERVER_MOVE_LABELS[kind];
  const fieldError = (name: string) => problem?.fields?.[name];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const outcome = await move(kind, values);
    setBusy(false);
    if (!outcome.ok) {
      setProblem({ message: outcome.message, fields: outcome.fields });
      return;
    }
    const server = (outcome.row.server ?? {}) as Row;
    const status = SERVER_STATUS.find((s) => s.value === server.sv_status)?.text ?? '';
    showAlert(`サーバー ${cellText(server.sv_serial_no ?? '')} を${label}しました（${status}）。`);
    onClose();
  };

  return (
    <ModalDialog title={`サーバーの${label}`} onClose={onClose} width={460}>
      <form className="flex flex-col gap-[12px]" onSubmit={(e) => void submit(e)} noValidate>
        {kind !== 'install' && (
          <ServerSelect
            id={`${base}-old`}
            label={kind === 'exchange' ? '交換する（引上げる）サーバー' : '引上げるサーバー'}
            rows={installed.rows}
            value={kind === 'exchange' ? values.old_id ?? '' : values.id}
            onChange={kind === 'exchange' ? set('old_id') : set('id')}
            error={fieldError(kind === 'exchange' ? 'old_id' : 'id')}
            empty="この顧客に設置中のサーバーはありません"
          />
        )}
        {kind !== 'takeback' && (
          <>
            <Field id={`${base}-kw`} label="在庫サーバーの絞り込み">
              <input id={`${base}-kw`} type="search" className={inputClass} value={keyword} placeholder="製造番号・機種" onChange={(e) => setKeyword(e.target.value)} />
            </Field>
            <ServerSelect
              id={`${base}-new`}
              label={kind === 'exchange' ? '新しく設置するサーバー' : '設置するサーバー'}
              rows={stock.rows}
              value={values.id}
              onChange={set('id')}
              error={fieldError('id') ?? fieldError('item_id')}
              empty={stock.isLoading ? '読み込み中…' : '在庫のサーバーがありません'}
            />
          </>
        )}
        {kind !== 'install' && (
          <Field id={`${base}-sk`} label={kind === 'exchange' ? '引上げたサーバーの保管倉庫（空欄なら新しいサーバーの倉庫）' : '保管倉庫'} error={fieldError('sk_id')}>
            <select id={`${base}-sk`} className={inputClass} value={values.sk_id} onChange={(e) => set('sk_id')(e.target.value)} aria-invalid={Boolean(fieldError('sk_id')) || undefined}>
              <option value="">{kind === 'exchange' ? '新しいサーバーの倉庫' : '選択してください'}</option>
              {warehouses.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.text}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id={`${base}-date`} label={`${label}日`} error={fieldError('date')}>
          <input id={`${base}-date`} type="date" className={inputClass} value={values.date} onChange={(e) => set('date')(e.target.value)} required />
        </Field>
        {problem && (
          <p role="alert" className="text-[1.4rem] text-danger">
            {problem.message}
          </p>
        )}
        <p className="text-[1.3rem] text-ink-soft">
          {kind === 'takeback' ? '引上げたサーバーは「メンテ待ち」で倉庫に戻ります。契約のレンタル台数も更新します。' : kind === 'exchange' ? '古いサーバーは「メンテ待ち」で倉庫に戻り、顧客のサーバー交換日と契約の機種・台数を更新します。' : '契約中の契約のレンタル台数と機種を更新します。'}
        </p>
        <div className="flex justify-end gap-[8px]">
          <button type="button" className={buttonClass('secondary')} onClick={onClose}>
            閉じる
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={busy}>
            {label}する
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

/** The three buttons of the customer's サーバー tab and the dialog of the one chosen. */
export function ServerMoves({ parentId }: RelatedActionProps) {
  const [open, setOpen] = useState<ServerMoveKind>();
  return (
    <div className="flex gap-[6px]" role="group" aria-label="サーバーの移動">
      {(Object.keys(SERVER_MOVE_LABELS) as ServerMoveKind[]).map((kind) => (
        <button key={kind} type="button" className={buttonClass('secondary', 'sm')} onClick={() => setOpen(kind)}>
          {SERVER_MOVE_LABELS[kind]}
        </button>
      ))}
      {open && <MoveDialog kind={open} customerId={parentId} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
