import { act, renderHook, waitFor } from '@testing-library/react';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { CONFLICT_FORM_MESSAGE, INVALID_FORM_MESSAGE, useRecordForm, type FormSaveOutcome, type RecordFormOptions } from '@/lib/client/form/use-record-form';
import type { Row } from '@/lib/client/list/use-list-controller';
import type { DeleteOutcome } from '@/lib/client/list/use-record-controller';
import { MESSAGES, type UsedBy } from '@/lib/protocol';

const schema = v.object({ name: v.pipe(v.string(), v.minLength(1, '名称を入力してください。')), tel: v.optional(v.string()) });
const toValues = (row: Row) => ({ name: String(row.cl_name ?? ''), tel: String(row.cl_tel ?? '') });
const loaded: Row = { cl_id: 1, cl_name: '株式会社アクア', cl_tel: '03-1234-5678', modified: 'm1' };

/** The hook with fakes for the calls and the dialogs; `record` is a prop so a test can load it. */
function setup(extra: Partial<RecordFormOptions> = {}) {
  const save = vi.fn<RecordFormOptions['save']>(async (values) => ({ ok: true, row: { ...loaded, cl_name: values.name, modified: 'm2' } }));
  const notify = vi.fn<RecordFormOptions['notify']>();
  const reveal = vi.fn<(name: string) => void>();
  const options = { schema, defaultValues: { name: '', tel: '' }, toValues, names: ['name', 'tel'], prefix: 'cl_', save, notify, reveal, ...extra };
  const hook = renderHook((props: { record?: Row }) => useRecordForm({ ...options, record: props.record }), { initialProps: {} });
  return { ...hook, save, notify, reveal };
}

describe('useRecordForm', () => {
  it('takes the record’s values when it loads, and keeps edits when it loads again', async () => {
    const { result, rerender, save } = setup();
    expect(result.current.form.getValues()).toEqual({ name: '', tel: '' });
    rerender({ record: loaded });
    await waitFor(() => expect(result.current.form.getValues('name')).toBe('株式会社アクア'));
    expect(result.current.dirty).toBe(false);
    expect(result.current.leaveGuard).toBe(false);

    act(() => result.current.form.setValue('name', 'アクア東京', { shouldDirty: true }));
    expect(result.current.dirty).toBe(true);
    expect(result.current.leaveGuard).toBe(true);
    rerender({ record: { ...loaded, cl_name: '別の名前', modified: 'm9' } });
    expect(result.current.form.getValues('name')).toBe('アクア東京');
    // The save is checked against the record as last read.
    await act(async () => {
      await result.current.submit({ quiet: true });
    });
    expect(save).toHaveBeenCalledWith({ name: 'アクア東京', tel: '03-1234-5678', modified: 'm9' }, undefined);
  });

  it('saves with the modified the record was read with, notifies, and takes the saved row', async () => {
    const onSaved = vi.fn();
    const { result, rerender, save, notify } = setup({ onSaved });
    rerender({ record: loaded });
    await waitFor(() => expect(result.current.form.getValues('name')).toBe('株式会社アクア'));
    act(() => result.current.form.setValue('name', 'アクア東京', { shouldDirty: true }));
    let saved: Row | undefined;
    await act(async () => {
      saved = await result.current.submit();
    });
    expect(save).toHaveBeenCalledWith({ name: 'アクア東京', tel: '03-1234-5678', modified: 'm1' }, undefined);
    expect(saved).toMatchObject({ cl_name: 'アクア東京', modified: 'm2' });
    expect(notify).toHaveBeenCalledWith(MESSAGES.saved);
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(result.current.dirty).toBe(false);
    expect(result.current.problem).toBeUndefined();
    expect(result.current.busy).toBe(false);

    // The next save carries the saved row's modified.
    await act(async () => {
      await result.current.submit({ quiet: true });
    });
    expect(save.mock.calls[1]?.[0]).toMatchObject({ modified: 'm2' });
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('stops at the form’s own check: the banner, the first problem revealed, nothing sent; the banner goes once fixed', async () => {
    const { result, save, reveal } = setup();
    await act(async () => {
      await result.current.submit();
    });
    expect(save).not.toHaveBeenCalled();
    expect(result.current.problem).toEqual({ message: INVALID_FORM_MESSAGE, invalid: true });
    expect(result.current.form.formState.errors.name?.message).toBe('名称を入力してください。');
    expect(reveal).toHaveBeenCalledWith('name');
    await act(async () => {
      result.current.form.setValue('name', 'アクア', { shouldValidate: true });
      await Promise.resolve();
    });
    await waitFor(() => expect(result.current.problem).toBeUndefined());
  });

  it('places a refusal’s field messages on their inputs (prefixed as the server names them) and reveals the first', async () => {
    const refused: FormSaveOutcome = { ok: false, kind: 'fields', message: MESSAGES.badRequest, fields: { cl_tel: '電話番号の形式が正しくありません。' } };
    const { result, reveal, notify } = setup({ save: vi.fn(async () => refused) });
    act(() => result.current.form.setValue('name', 'アクア', { shouldDirty: true }));
    let saved: Row | undefined = loaded;
    await act(async () => {
      saved = await result.current.submit();
    });
    expect(saved).toBeUndefined();
    expect(result.current.problem).toEqual({ message: MESSAGES.badRequest });
    expect(result.current.form.formState.errors.tel).toMatchObject({ type: 'server', message: '電話番号の形式が正しくありません。' });
    expect(reveal).toHaveBeenCalledWith('tel');
    expect(notify).not.toHaveBeenCalled();
    expect(result.current.dirty).toBe(true);
  });

  it('shows a stale edit as the conflict banner with the edits kept; reloading the latest clears it', async () => {
    const latest: Row = { ...loaded, cl_name: '他の人の名前', modified: 'm5' };
    const reload = vi.fn(async () => latest);
    const save = vi.fn(async (): Promise<FormSaveOutcome> => ({ ok: false, kind: 'conflict', message: MESSAGES.conflict, fields: {} }));
    const { result, rerender, notify } = setup({ save, reload });
    rerender({ record: loaded });
    await waitFor(() => expect(result.current.form.getValues('name')).toBe('株式会社アクア'));
    act(() => result.current.form.setValue('name', '私の編集', { shouldDirty: true }));
    await act(async () => {
      await result.current.submit();
    });
    expect(result.current.problem).toEqual({ message: CONFLICT_FORM_MESSAGE, conflict: true });
    expect(notify).toHaveBeenCalledWith(MESSAGES.conflict, 'error');
    expect(result.current.form.getValues('name')).toBe('私の編集');
    expect(save).toHaveBeenCalledTimes(1);

    await act(async () => {
      await result.current.reloadLatest();
    });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.problem).toBeUndefined();
    expect(result.current.form.getValues('name')).toBe('他の人の名前');
    expect(result.current.dirty).toBe(false);
  });

  it('deletes after confirmation; a refused delete names the records using this one', async () => {
    const removeRecord = vi.fn(async (): Promise<DeleteOutcome> => ({ ok: true }));
    const answers = [false, true, true];
    const confirm = vi.fn(async () => answers.shift() ?? false);
    const onDeleted = vi.fn();
    const { result, notify } = setup({ remove: removeRecord, confirm, onDeleted });
    await act(async () => {
      await result.current.remove();
    });
    expect(confirm).toHaveBeenCalledWith(MESSAGES.confirmDelete);
    expect(removeRecord).not.toHaveBeenCalled();

    await act(async () => {
      await result.current.remove();
    });
    expect(removeRecord).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith(MESSAGES.deleted);
    expect(onDeleted).toHaveBeenCalledTimes(1);

    const usedBy: UsedBy[] = [{ resource: 'order', label: '受注', field: 'cl_id', count: 2, filters: { cl_id: '1' } }];
    removeRecord.mockResolvedValueOnce({ ok: false, message: 'この顧客は使われているため削除できません。', usedBy });
    await act(async () => {
      await result.current.remove();
    });
    expect(result.current.problem).toEqual({ message: 'この顧客は使われているため削除できません。', usedBy });
    expect(onDeleted).toHaveBeenCalledTimes(1);
  });
});
