/**
 * 都道府県別送料 (/system/deliveryfee): the 47 prefectures in one table of inputs; 保存 writes every
 * changed row with one `deliveryfee_bulk_save` (one transaction: a bad or stale row refuses them
 * all). The same schema as the server checks each changed row first, naming its prefecture.
 */
import clsx from 'clsx';
import { useEffect, useMemo, useState } from 'react';
import { call } from '@/lib/client/api/fetcher';
import { fromForm, toForm, type FormRecord } from '@/lib/list/record-mapper';
import { refusalOf } from '@/lib/client/list/save-refusal';
import { messageOf, type Row } from '@/lib/client/list/use-list-controller';
import { MESSAGES } from '@/lib/protocol';
import { resourceCall } from '@/lib/protocol/calls';
import { deliveryFeeResource as def, MAX_DELIVERY_FEE } from '@/lib/resources/delivery-fee';
import { checkValues, recordFieldKey, recordMessage, writableFields } from '@/lib/resources/schema';
import { columnKind, columnOf, idColumn, type FieldDef } from '@/lib/resources/types';
import { useAlert, useLeaveGuard, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useCall } from '@/lib/client/data/use-call';
import { useCanCall } from '@/lib/client/auth/use-can-call';
import { cellText } from '../../../lib/resources/checks';

const LIST = [resourceCall(def, 'lst'), { n: 100, p: 1, col: def.list.defaultSort.col, odr: def.list.defaultSort.odr, kw: '', postData: {} }] as const;
const EDITABLE = writableFields(def);
const SHOWN = def.fields.filter((f: FieldDef) => f.readOnly);
const titleOf = (row: Row) => cellText(row[columnOf(def, def.titleFields[0])] ?? '');

interface Problems {
  messages: string[];
  /** `{id}.{field}` → message. */
  fields: Record<string, string>;
  conflict?: boolean;
}

export default function DeliveryFeesScreen({ match }: ScreenProps) {
  const { data, error, isLoading, isValidating, mutate } = useCall(...LIST, { revalidateOnFocus: false });
  const rows = useMemo(() => data ?? [], [data]);
  const writable = useCanCall('deliveryfee_bulk_save');
  const alert = useAlert();
  const [edits, setEdits] = useState<Record<string, FormRecord>>({});
  const [problems, setProblems] = useState<Problems>();
  const [saving, setSaving] = useState(false);
  useLoadingWhile(isLoading || saving || isValidating);

  const loaded = useMemo(() => new Map(rows.map((row) => [String(row[idColumn(def)]), toForm(def, row)])), [rows]);
  const valueOf = (id: string, name: string) => edits[id]?.[name] ?? loaded.get(id)?.[name] ?? '';
  const changedIds = [...loaded.keys()].filter((id) => EDITABLE.some((f) => edits[id]?.[f.name] !== undefined && edits[id][f.name] !== loaded.get(id)?.[f.name]));
  useLeaveGuard(changedIds.length > 0 && !saving);

  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);

  const edit = (id: string, name: string, value: string) => setEdits((now) => ({ ...now, [id]: { ...now[id], [name]: value } }));

  const save = async () => {
    const found: Problems = { messages: [], fields: {} };
    const payload = [];
    for (const id of changedIds) {
      const row = rows.find((r) => String(r[idColumn(def)]) === id)!;
      const values = { ...loaded.get(id), ...edits[id] };
      const checked = checkValues(def, values);
      if (!checked.ok) {
        for (const [name, message] of Object.entries(checked.fields)) {
          found.fields[recordFieldKey(id, name)] = message;
          found.messages.push(recordMessage(titleOf(row), message));
        }
        continue;
      }
      payload.push({ id: Number(id), ...fromForm(def, values) });
    }
    if (found.messages.length) {
      setProblems(found);
      return;
    }
    setSaving(true);
    try {
      await call(resourceCall(def, 'bulk_save'), { postData: { rows: payload } });
      await mutate();
      setEdits({});
      setProblems(undefined);
      alert(MESSAGES.saved);
    } catch (e) {
      const refusal = refusalOf(e);
      if (refusal.kind === 'conflict') {
        setProblems({ messages: [refusal.message], fields: {}, conflict: true });
        alert(refusal.message, 'error');
      } else {
        setProblems({ messages: [refusal.message], fields: refusal.fields });
      }
    } finally {
      setSaving(false);
    }
  };

  const reloadLatest = async () => {
    setEdits({});
    setProblems(undefined);
    await mutate();
  };

  return (
    <form
      noValidate
      aria-labelledby="delivery-fee-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (writable && !saving) void save();
      }}
      className="flex flex-col gap-[12px] p-[16px]"
    >
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <div>
          <h1 id="delivery-fee-title" className="text-[2rem] font-bold text-ink">
            {match.route.title}
          </h1>
          <p className="text-[1.3rem] text-ink-soft">
            1 配送あたりの送料（税抜・円）。受注では標準税率の消費税を加えて請求します。離島・遠隔地へのお届けは加算額を足して請求します。0〜{MAX_DELIVERY_FEE.toLocaleString('ja-JP')}円の整数で入力してください。
          </p>
        </div>
        {writable && (
          <div className="flex items-center gap-[8px]">
            <span className="text-[1.3rem] text-ink-soft" aria-live="polite">
              {changedIds.length > 0 ? `${changedIds.length} 件の変更` : '変更はありません'}
            </span>
            <button type="button" className={buttonClass('secondary')} onClick={() => void reloadLatest()} disabled={saving || changedIds.length === 0}>
              変更を取り消す
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={saving || changedIds.length === 0}>
              {saving ? '保存中…' : '保存'}
            </button>
          </div>
        )}
      </div>

      {!writable && (
        <p className="rounded-[4px] border border-line bg-subtle px-[12px] py-[6px] text-[1.3rem] text-ink-soft">送料を変更する権限がないため、閲覧のみできます。</p>
      )}
      {(problems || error) && (
        <div role="alert" className="flex flex-col gap-[4px] rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[1.4rem] text-danger">
          {(problems?.messages ?? [messageOf(error) ?? MESSAGES.internal]).map((message) => (
            <p key={message}>{message}</p>
          ))}
          {problems?.conflict && (
            <button type="button" className={clsx(buttonClass('secondary', 'sm'), 'self-start')} onClick={() => void reloadLatest()}>
              最新の内容を読み込む（入力した変更は破棄されます）
            </button>
          )}
        </div>
      )}

      <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
        <table className="w-full border-collapse text-[1.4rem]" aria-busy={isLoading || undefined}>
          <caption className="visually-hidden">{def.label}</caption>
          <thead className="bg-subtle text-ink-soft">
            <tr className="h-[36px]">
              {[...SHOWN, ...EDITABLE].map((field) => (
                <th key={field.name} scope="col" className="whitespace-nowrap border-b border-line px-[10px] text-left font-medium">
                  {field.label}
                  {field.type === 'money' && '（税抜・円）'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const id = String(row[idColumn(def)]);
              const name = titleOf(row);
              const changed = changedIds.includes(id);
              return (
                <tr key={id} className={clsx('h-row border-b border-line last:border-b-0', changed && 'bg-brand-soft')}>
                  {SHOWN.map((field) =>
                    field.name === def.titleFields[0] ? (
                      <th key={field.name} scope="row" className="whitespace-nowrap px-[10px] text-left font-medium">
                        {valueOf(id, field.name)}
                      </th>
                    ) : (
                      <td key={field.name} className="px-[10px] tabular-nums text-ink-soft">
                        {valueOf(id, field.name)}
                      </td>
                    ),
                  )}
                  {EDITABLE.map((field) => {
                    const message = problems?.fields[recordFieldKey(id, field.name)];
                    const numeric = columnKind(field) !== 'text';
                    return (
                      <td key={field.name} className="px-[10px] py-[3px]">
                        <input
                          type={numeric ? 'number' : 'text'}
                          aria-label={`${name}の${field.label}`}
                          aria-invalid={message ? true : undefined}
                          title={message}
                          value={valueOf(id, field.name)}
                          onChange={(e) => edit(id, field.name, e.target.value)}
                          disabled={!writable || saving}
                          min={numeric ? field.min : undefined}
                          max={numeric ? field.max : undefined}
                          step={numeric ? 1 : undefined}
                          maxLength={numeric ? undefined : field.max}
                          className={clsx(inputClass, numeric ? 'w-[120px] text-right tabular-nums' : 'w-full min-w-[200px]')}
                        />
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </form>
  );
}
