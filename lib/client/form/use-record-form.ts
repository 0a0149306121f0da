/**
 * The one form controller (in the style of ra-core's `useEditController`): headless, a screen only draws what it
 * answers. It holds the react-hook-form methods with the valibot resolver, resets the form whenever the record
 * is (re)loaded and nothing is typed, keeps the dirty state for the leave guard, and runs the lifecycle every
 * record form shares:
 * - save: the record's own check (a child row's live check stops it at its cell), the call with the `modified`
 *   the record was last read with, the saved notice; a refusal's field messages are placed on their inputs (and cells)
 *   and the first problem is shown (`reveal`: its tab, its focus);
 * - a stale edit (409): the conflict banner, the edits kept; `reloadLatest` reads the latest and clears it;
 * - delete after confirmation; a refused delete names the records that use this one.
 * What the save calls (`useRecordController`'s `save`, or another call) is the screen's choice.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type FieldErrors, type Resolver, type UseFormReturn } from 'react-hook-form';
import { MESSAGES, type UsedBy } from '../../protocol';
import type { FormRecord } from '../../list/record-mapper';
import { invalidRowsMessage } from '../list/child-rows';
import { markRefusal, type Refusal } from '../list/save-refusal';
import type { ChildRowsState } from '../list/use-child-rows';
import type { Row } from '../list/use-list-controller';
import type { DeleteOutcome } from '../list/use-record-controller';
import { cellText } from '../../resources/checks';

/** The banner of a record form: a failed load, save or delete. */
export interface FormProblemState {
  message: string;
  /** A stale edit: offers to reload the latest record. */
  conflict?: boolean;
  /** The form's own check failed (the banner goes when the fields are fixed). */
  invalid?: boolean;
  usedBy?: readonly UsedBy[];
}

/** The banner when the form's own check refuses the values. */
export const INVALID_FORM_MESSAGE = '入力内容に誤りがあります。赤く表示された項目を確認してください。';
/** The banner of a stale edit (the toast carries MESSAGES.conflict). */
export const CONFLICT_FORM_MESSAGE = '他のユーザーが先に更新したため保存できませんでした。入力した内容はそのまま残っています。';

/** What a save answers: the saved row (when the call answers one), or the refusal. */
export type FormSaveOutcome = { ok: true; row?: Row } | ({ ok: false } & Refusal);

export interface RecordFormOptions {
  /** The valibot schema of the values (the one the server checks with). */
  schema: Parameters<typeof valibotResolver>[0];
  /** The values before anything is loaded (a new record's). */
  defaultValues: FormRecord;
  /** The record as loaded: the form takes its values whenever it arrives and nothing is typed. */
  record?: Row;
  /** A row's values on the form. */
  toValues: (row: Row) => FormRecord;
  /** The form's inputs in the order they are drawn: a refusal's messages go on them, the first problem is revealed. */
  names: readonly string[];
  /** The prefix the server puts before a field's name (`cl_`). */
  prefix?: string;
  /** The record's child rows (ResourceDef.children): checked before, sent with, and marked saved after the save. */
  rows?: ChildRowsState;
  /** Writes the values (carrying `modified`) and the child rows' payload. */
  save: (values: FormRecord, rows?: readonly Record<string, unknown>[]) => Promise<FormSaveOutcome>;
  /** Reads the latest record (after a conflict). */
  reload?: () => Promise<Row | undefined>;
  /** Deletes the record. */
  remove?: () => Promise<DeleteOutcome>;
  /** The toast (useAlert). */
  notify: (message: string, kind?: 'error') => void;
  /** The confirmation dialog (useConfirm), asked before a delete. */
  confirm?: (message: string) => Promise<boolean>;
  /** Shows an input with a problem (its tab) and focuses it; default: react-hook-form's `setFocus`. */
  reveal?: (name: string) => void;
  /** The notice of a save (default MESSAGES.saved). */
  savedMessage?: string;
  /** After a save, with the outcome and the values sent (after the form took the saved row's values). */
  onSaved?: (outcome: { row?: Row; values: FormRecord }) => unknown;
  /** After a delete (after the notice). */
  onDeleted?: () => unknown;
}

export interface RecordForm {
  form: UseFormReturn<FormRecord>;
  problem: FormProblemState | undefined;
  setProblem: (problem: FormProblemState | undefined) => void;
  /** A save, delete or reload is running. */
  busy: boolean;
  /** Runs a task with `busy` set. */
  whileBusy: <T>(task: () => Promise<T>) => Promise<T>;
  /** The form or its rows differ from what was loaded. */
  dirty: boolean;
  /** Leaving would lose edits: dirty and nothing running (the screen's leave guard). */
  leaveGuard: boolean;
  /** Takes a row's values (a reload's, a move's): the next save carries its `modified`; undefined: starts over from the default values. */
  resetTo: (row: Row | undefined) => void;
  /** Checks and saves; answers the saved row, or undefined (refused, or nothing to answer). `quiet`: no notice, no `onSaved`. */
  submit: (options?: { quiet?: boolean }) => Promise<Row | undefined>;
  /** Shows a refusal (a save's, or another call's on this record): the banner, the messages on their inputs and cells, the first revealed. */
  showRefusal: (refusal: Refusal) => void;
  /** Reads the latest record into the form (the edits are discarded) and clears the banner. */
  reloadLatest: () => Promise<void>;
  /** Asks, then deletes. */
  remove: () => Promise<void>;
}

const focusCell = (id: string | undefined) => {
  if (id) document.getElementById(id)?.focus();
};

/**
 * @example const f = useRecordForm({ schema: resourceSchema(def), defaultValues, record: rec.record, toValues: (r) => toForm(def, r), names, save: rec.save, reload: rec.reload, notify: alert });
 */
export function useRecordForm(options: RecordFormOptions): RecordForm {
  const { schema, defaultValues, record, toValues, names, prefix, rows } = options;
  const resolver = useMemo(() => valibotResolver(schema) as unknown as Resolver<FormRecord>, [schema]);
  const form = useForm<FormRecord>({ resolver, defaultValues, mode: 'onSubmit', reValidateMode: 'onChange', shouldFocusError: false });
  const [problem, setProblem] = useState<FormProblemState>();
  const [busy, setBusy] = useState(false);
  // The options of the last render: the callbacks below read them when they run.
  const latest = useRef(options);
  latest.current = options;
  /** The record last loaded (or saved, or reloaded): its `modified` goes with the next save. */
  const base = useRef<Row | undefined>(undefined);

  const resetTo = useCallback(
    (row: Row | undefined) => {
      base.current = row;
      form.reset(row ? latest.current.toValues(row) : latest.current.defaultValues);
    },
    [form],
  );

  // Load (and reload after a save or a conflict refresh) without throwing away the user's edits; a record read
  // again under edits (another write moved its `modified`) is the one the next save is checked against.
  useEffect(() => {
    if (!record) return;
    if (form.formState.isDirty) base.current = record;
    else resetTo(record);
  }, [record, toValues, form, resetTo]);

  // The "please check the fields" banner goes away once every field is fixed.
  const errorCount = Object.keys(form.formState.errors).length;
  const hadErrors = useRef(false);
  useEffect(() => {
    if (errorCount > 0) hadErrors.current = true;
    else if (hadErrors.current) {
      hadErrors.current = false;
      setProblem((p) => (p?.invalid ? undefined : p));
    }
  }, [errorCount]);

  const whileBusy = useCallback(async <T>(task: () => Promise<T>): Promise<T> => {
    setBusy(true);
    try {
      return await task();
    } finally {
      setBusy(false);
    }
  }, []);

  /** Reveals the first of `named` in drawing order. */
  const revealFirst = (named: readonly string[]) => {
    const first = latest.current.names.find((name) => named.includes(name));
    if (!first) return false;
    (latest.current.reveal ?? form.setFocus)(first);
    return true;
  };

  const showRefusal = (refusal: Refusal) => {
    if (refusal.kind === 'conflict') {
      setProblem({ message: CONFLICT_FORM_MESSAGE, conflict: true });
      latest.current.notify(refusal.message, 'error');
      return;
    }
    const marked = markRefusal(refusal, { setError: form.setError, names, prefix, rows });
    if (!revealFirst(marked.names)) focusCell(marked.cell);
    setProblem({ message: refusal.message });
  };

  const onInvalid = (errors: FieldErrors<FormRecord>) => {
    setProblem({ message: INVALID_FORM_MESSAGE, invalid: true });
    revealFirst(Object.keys(errors));
  };

  const persist = async (values: FormRecord, quiet: boolean): Promise<Row | undefined> => {
    const invalidCell = rows?.firstInvalid();
    if (rows && invalidCell) {
      setProblem({ message: invalidRowsMessage(rows.child), invalid: true });
      focusCell(invalidCell);
      return undefined;
    }
    setProblem(undefined);
    const sent = { ...values, modified: cellText(base.current?.modified ?? '') };
    const outcome = await whileBusy(() => latest.current.save(sent, rows?.payload()));
    if (!outcome.ok) {
      showRefusal(outcome);
      return undefined;
    }
    if (outcome.row) resetTo(outcome.row);
    rows?.markSaved();
    if (!quiet) {
      latest.current.notify(latest.current.savedMessage ?? MESSAGES.saved);
      await latest.current.onSaved?.({ row: outcome.row, values });
    }
    return outcome.row;
  };

  const submit = async ({ quiet = false }: { quiet?: boolean } = {}): Promise<Row | undefined> => {
    let saved: Row | undefined;
    await form.handleSubmit(async (values) => {
      saved = await persist(values, quiet);
    }, onInvalid)();
    return saved;
  };

  const reloadLatest = async () => {
    const row = await latest.current.reload?.();
    if (row) resetTo(row);
    rows?.markSaved();
    setProblem(undefined);
  };

  const remove = async () => {
    const { remove: removeRecord, confirm } = latest.current;
    if (!removeRecord || (confirm && !(await confirm(MESSAGES.confirmDelete)))) return;
    setProblem(undefined);
    const outcome = await whileBusy(removeRecord);
    if (!outcome.ok) {
      setProblem({ message: outcome.message, usedBy: outcome.usedBy });
      return;
    }
    latest.current.notify(MESSAGES.deleted);
    await latest.current.onDeleted?.();
  };

  const dirty = form.formState.isDirty || Boolean(rows?.dirty);
  return { form, problem, setProblem, busy, whileBusy, dirty, leaveGuard: dirty && !busy, resetTo, submit, showRefusal, reloadLatest, remove };
}
