/**
 * The master editor (/system/master/): the catalogue of editable masters, and for the chosen one
 * (`?table=mt_bank`) a grid of its rows with add, inline edit, delete after confirmation and a
 * keyword filter. /system/itemcode and /system/delivery are the same editor fixed to one master
 * (the catalogue's `path`). Rows are `master_option` records: the generic calls save, check and
 * audit them; every select offering the master is refreshed after a write.
 */
import clsx from 'clsx';
import { useCallback, useEffect, useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useSWRConfig } from 'swr';
import { call, CallError } from '@/lib/client/api/fetcher';
import { useRecordForm } from '@/lib/client/form/use-record-form';
import { toForm } from '@/lib/list/record-mapper';
import { messageOf, useListController, type Row } from '@/lib/client/list/use-list-controller';
import { useRecordController } from '@/lib/client/list/use-record-controller';
import { MESSAGES, type UsedBy } from '@/lib/protocol';
import { resourceCall } from '@/lib/protocol/calls';
import { masterOptionResource as def } from '@/lib/resources/master-option';
import { resourceSchema } from '@/lib/resources/schema';
import { keywordHintOf } from '@/lib/resources/types';
import { useRoute } from '@/lib/client/router';
import { MASTER_CATALOGUE, masterInfo, masterOfPath, type MasterTableInfo } from '@/lib/system/masters';
import { CellValue } from '@/components/resource/cells';
import { FormProblem } from '@/components/resource/form-problem';
import { KeywordBox } from '@/components/resource/keyword-box';
import { SortableHeader } from '@/components/resource/list-table';
import { Pagination } from '@/components/resource/pagination';
import { UsedByLinks } from '@/components/resource/used-by-links';
import { AppLink, useAlert, useConfirm, useLeaveGuard, useLoadingWhile } from '@/components/resource/shell-bridge';
import { buttonClass, inputClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useCanCall } from '@/lib/client/auth/use-can-call';

const COLUMNS = def.list.columns;
const cellClass = 'px-[10px] py-[4px]';
const SCHEMA = resourceSchema(def);
const NAMES = def.fields.map((f) => f.name);

export default function MasterEditorScreen({ match }: ScreenProps) {
  const { query } = useRoute();
  const fixed = masterOfPath(match.route.path);
  const master = fixed ?? masterInfo(query.get('table'));
  const writable = useCanCall('master_option_save');
  const title = match.route.title;

  useEffect(() => {
    document.title = master && !fixed ? `${title}｜${master.label}` : title;
  }, [title, master, fixed]);

  return (
    <div className="flex flex-col gap-[12px] p-[16px]">
      <h1 className="text-[2rem] font-bold text-ink">{title}</h1>
      {!writable && (
        <p className="rounded-[4px] border border-line bg-subtle px-[12px] py-[6px] text-[1.3rem] text-ink-soft">
          マスタを変更する権限がないため、閲覧のみできます。
        </p>
      )}
      {fixed ? (
        <MasterGrid master={fixed} writable={writable} fixed />
      ) : (
        <div className="grid grid-cols-1 items-start gap-[16px] md:grid-cols-[240px_minmax(0,1fr)]">
          <MasterCatalogue />
          {master ? (
            <MasterGrid key={master.table} master={master} writable={writable} />
          ) : (
            <p className="rounded-[6px] border border-line bg-white px-[16px] py-[24px] text-[1.4rem] text-ink-soft">左の一覧から、編集するマスタを選んでください。</p>
          )}
        </div>
      )}
    </div>
  );
}

/** The editable masters, each a link to its grid with its line of description. */
function MasterCatalogue() {
  return (
    <nav aria-label="マスタの一覧" className="rounded-[6px] border border-line bg-white">
      <ul className="max-h-[calc(100vh-160px)] overflow-y-auto">
        {MASTER_CATALOGUE.map((m) => (
          <li key={m.table} className="border-b border-line px-[12px] py-[6px] last:border-b-0">
            <AppLink to={`/system/master/?table=${m.table}`} className="text-[1.4rem] font-medium text-brand underline-offset-2 hover:underline aria-[current=page]:text-ink aria-[current=page]:no-underline" activeClassName="font-bold">
              {m.label}
            </AppLink>
            <p className="text-[1.2rem] leading-[1.5] text-muted">{m.description}</p>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The rows of one master: keyword, sortable headers, an add row, inline edit, delete, paging. */
function MasterGrid({ master, writable, fixed = false }: { master: MasterTableInfo; writable: boolean; fixed?: boolean }) {
  const list = useListController(def, { persist: false, fixedFilters: { table: [master.table] }, initial: { perPage: 50 } });
  useLoadingWhile(list.isValidating);
  const { mutate } = useSWRConfig();
  const alert = useAlert();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<string>();
  const [problem, setProblem] = useState<{ message?: string; usedBy?: readonly UsedBy[] }>();
  const headingId = useId();

  /** After a write: this grid, and every select that offers this master. */
  const changed = () => {
    list.refresh();
    void mutate((key) => Array.isArray(key) && key[0] === 'master_lst' && (key[1] as { table?: unknown } | undefined)?.table === master.table);
  };

  const remove = async (row: Row) => {
    const name = `${String(row.mo_text)}（${String(row.mo_value)}）`;
    if (!(await confirm(MESSAGES.confirmDelete, { title: `「${name}」の削除`, confirmLabel: '削除する', danger: true }))) return;
    try {
      await call(resourceCall(def, 'del'), { id: String(row.mo_id) });
      setProblem(undefined);
      alert(MESSAGES.deleted);
      changed();
    } catch (error) {
      setProblem({ message: messageOf(error), usedBy: error instanceof CallError ? error.usedBy : undefined });
    }
  };

  return (
    <section aria-labelledby={fixed ? undefined : headingId} aria-label={fixed ? master.label : undefined} className="flex min-w-0 flex-col gap-[10px]">
      <div>
        {!fixed && (
          <h2 id={headingId} className="text-[1.7rem] font-bold text-ink">
            {master.label}
          </h2>
        )}
        <p className="text-[1.3rem] text-ink-soft">{master.description}</p>
      </div>
      <KeywordBox value={list.state.keyword} onSearch={list.setKeyword} placeholder={keywordHintOf(def)} />
      {(problem?.message ?? list.error) && (
        <div role="alert" className="flex flex-col gap-[4px] rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[1.4rem] text-danger">
          <p>{problem?.message ?? list.error}</p>
          <UsedByLinks usedBy={problem?.usedBy} />
        </div>
      )}
      <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
        <table className="w-full border-collapse text-[1.4rem]" aria-busy={list.isLoading || undefined}>
          <caption className="visually-hidden">{master.label}の項目</caption>
          <thead className="bg-subtle text-ink-soft">
            <tr className="h-[36px]">
              {COLUMNS.map((column) => (
                <SortableHeader key={column.name} def={def} column={column.name} label={column.label} sort={list.state.sort} onSort={list.toggleSort} className="text-left" />
              ))}
              <th scope="col" className="border-b border-line px-[10px] text-left font-medium">
                操作
              </th>
            </tr>
          </thead>
          <tbody>
            {writable && <MasterRowEditor master={master} onDone={(saved) => saved && changed()} />}
            {list.rows.length === 0 && (
              <tr className="h-[60px]">
                <td colSpan={COLUMNS.length + 1} className="text-center text-muted">
                  {list.isLoading ? '読み込み中…' : '該当するデータはありません。'}
                </td>
              </tr>
            )}
            {list.rows.map((row) => {
              const id = String(row.mo_id);
              if (writable && editing === id) {
                return (
                  <MasterRowEditor
                    key={id}
                    master={master}
                    row={row}
                    onReloaded={changed}
                    onDone={(saved) => {
                      setEditing(undefined);
                      if (saved) changed();
                    }}
                  />
                );
              }
              return (
                <tr key={id} className="h-row border-b border-line last:border-b-0">
                  {COLUMNS.map((column) => (
                    <td key={column.name} className={cellClass}>
                      <CellValue def={def} column={column} row={row} />
                    </td>
                  ))}
                  <td className={clsx(cellClass, 'whitespace-nowrap')}>
                    {writable && (
                      <span className="flex gap-[6px]">
                        <button type="button" className={buttonClass('secondary', 'sm')} aria-label={`「${String(row.mo_text)}」を編集`} onClick={() => setEditing(id)}>
                          編集
                        </button>
                        <button type="button" className={buttonClass('danger', 'sm')} aria-label={`「${String(row.mo_text)}」を削除`} onClick={() => void remove(row)}>
                          削除
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pagination page={list.state.page} pageCount={list.pageCount} perPage={list.state.perPage} total={list.total} onPage={list.setPage} onPerPage={list.setPerPage} />
    </section>
  );
}

/**
 * One row being entered: the add row (no `row`) or a row edited in place. The code is fixed once
 * registered. Saved through the record controller and the one form controller (the stale-edit check
 * carries the `modified` the grid showed; a refused one offers the latest like every record form).
 */
function MasterRowEditor({ master, row, onDone, onReloaded }: { master: MasterTableInfo; row?: Row; onDone: (saved: boolean) => void; onReloaded?: () => void }) {
  const rec = useRecordController(def, row ? String(row.mo_id) : undefined, { fixed: { table: master.table } });
  const alert = useAlert();
  // The grid's rows do not carry the table (the grid is of one master): the form does.
  const toValues = useCallback((saved: Row | undefined) => ({ ...toForm(def, saved), table: master.table }), [master.table]);
  const f = useRecordForm({
    schema: SCHEMA,
    defaultValues: toValues(row),
    record: row,
    toValues,
    names: NAMES,
    prefix: def.prefix,
    save: (values) => rec.save({ ...values, table: master.table }),
    reload: async () => {
      const latest = await rec.reload();
      onReloaded?.();
      return latest;
    },
    notify: alert,
    onSaved: () => {
      if (!row) {
        f.resetTo(undefined);
        f.form.setFocus('value');
      }
      onDone(true);
    },
  });
  const { form, problem, busy: saving } = f;
  const { errors } = form.formState;
  const formId = useId();
  useLeaveGuard(f.leaveGuard);

  const whose = row ? `「${String(row.mo_text)}」の` : '新しい項目の';
  const messages = [...new Set(Object.values(errors).map((e) => e?.message).filter((m): m is string => Boolean(m)))];
  const input = (name: string, label: string, extra = '') => (
    <input
      aria-label={`${whose}${label}`}
      aria-invalid={errors[name] ? true : undefined}
      form={formId}
      {...form.register(name)}
      className={clsx(inputClass, 'w-full', extra)}
    />
  );
  return (
    <>
      <tr className={clsx('h-[44px] border-b border-line', row ? 'bg-brand-soft' : 'bg-subtle')}>
        <td className={cellClass}>{row ? <span className="font-medium">{String(row.mo_value)}</span> : input('value', 'コード', 'max-w-[140px]')}</td>
        <td className={cellClass}>{input('text', '名称')}</td>
        <td className={cellClass}>
          <Controller
            control={form.control}
            name="flg"
            render={({ field }) => (
              <input
                type="checkbox"
                aria-label={`${whose}フラグ`}
                form={formId}
                ref={field.ref}
                checked={field.value === '1'}
                onChange={(e) => field.onChange(e.target.checked ? '1' : '0')}
                onBlur={field.onBlur}
                className="h-[18px] w-[18px] accent-brand"
              />
            )}
          />
        </td>
        <td className={cellClass}>{input('sort', '表示順', 'max-w-[90px] text-right tabular-nums')}</td>
        <td className={clsx(cellClass, 'whitespace-nowrap')}>
          <form
            id={formId}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (!saving) void f.submit();
            }}
            className="flex gap-[6px]"
          >
            <button type="submit" className={buttonClass('primary', 'sm')} disabled={saving}>
              {row ? '保存' : '追加'}
            </button>
            {row && (
              <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => onDone(false)} disabled={saving}>
                取消
              </button>
            )}
          </form>
        </td>
      </tr>
      {problem?.conflict ? (
        <tr className="border-b border-line">
          <td colSpan={COLUMNS.length + 1} className="px-[10px] py-[6px]">
            <FormProblem problem={problem} onReload={() => void f.reloadLatest()} />
          </td>
        </tr>
      ) : (
        ((problem && !problem.invalid) || messages.length > 0) && (
          <tr className="border-b border-line bg-danger-soft">
            <td colSpan={COLUMNS.length + 1} role="alert" className="px-[10px] py-[6px] text-[1.3rem] text-danger">
              {problem && !problem.invalid ? problem.message : messages.join(' ')}
            </td>
          </tr>
        )
      )}
    </>
  );
}
