/**
 * The generic detail / new screen of a resource (`{basePath}/detail/{id}`, `{basePath}/new`):
 * a tabbed form drawn from the declaration, validated by the resource's valibot schema (the same
 * one the server uses), saved with the `modified` it was loaded with. The record's calls sit in
 * `useRecordController`, the form's lifecycle in `useRecordForm`; this file draws.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { formatDateTime } from '@/lib/format';
import { recordAccess } from '@/lib/list/record-access';
import { idOf, toForm, type FormRecord } from '@/lib/list/record-mapper';
import { useRecordForm } from '@/lib/client/form/use-record-form';
import { useChildRows } from '@/lib/client/list/use-child-rows';
import { detailPathOf, listPathOf } from '@/lib/list/resource-paths';
import { useRecordController } from '@/lib/client/list/use-record-controller';
import { MESSAGES } from '@/lib/protocol';
import { resourceSchema } from '@/lib/resources/schema';
import { labelColumnOf, titleOf, type ChildDef, type ResourceDef } from '@/lib/resources/types';
import { byResource } from '@/lib/resources';
import { listKey } from '@/lib/storage-keys';
import { readStored, writeStored } from '@/lib/client/state/storage';
import { Card, Tabs } from '@/components/ui';
import { DETAIL_EXTENSIONS, DETAIL_SECTIONS, FORM_PANELS, LINES_SECTIONS, type LinesSectionProps } from './extensions';
import { FieldInput } from './field-input';
import { FormProblem } from './form-problem';
import { LinesEditor } from './lines-editor';
import { MapBox } from './map-box';
import { RelatedLists } from './related-lists';
import { resolveResource, type ResourceRef } from './resolve';
import { AppLink, navigate, RecordNotFound, useAlert, useConfirm, useAreas, useLeaveGuard, useLoadingWhile, useUserId } from './shell-bridge';
import { buttonClass } from './styles';
import { cellText } from '../../lib/resources/checks';

export interface ResourceDetailScreenProps {
  resource: ResourceRef;
  params?: Record<string, string>;
  mode?: 'new' | 'edit';
  /** The route parameter holding the id (default `id`). */
  idParam?: string;
  /** Under another record (e.g. a customer's contact): its route parameter and the field pointing at it. */
  parent?: { param: string; field: string };
}

/** Stands in for a resource without children (the hook is called on every screen). */
const NO_CHILD: ChildDef = { key: '', label: '', table: '', prefix: '', parentField: '', sortField: '', call: '', max: 0, fields: [{ name: '', label: '', type: 'text', tab: '' }] };

/** The lines of a resource without additions (LINES_SECTIONS): the one lines editor alone. */
const PlainLines = ({ state, disabled, readOnly }: LinesSectionProps) => <LinesEditor state={state} disabled={disabled} readOnly={readOnly} />;

/** Whether a resource shows the map box: it declares both `lat` and `lng`. */
export const hasMap = (def: ResourceDef): boolean => def.fields.some((f) => f.name === 'lat') && def.fields.some((f) => f.name === 'lng');

function AddressMap({ def, form, writable }: { def: ResourceDef; form: UseFormReturn<FormRecord>; writable: boolean }) {
  const [pref, city, address, lat, lng] = useWatch({ control: form.control, name: ['pref', 'city', 'address', 'lat', 'lng'] });
  const full = [pref, city, address].filter(Boolean).join('');
  const onLocate = useCallback(
    (la: number, ln: number) => {
      form.setValue('lat', String(la), { shouldDirty: true, shouldValidate: true });
      form.setValue('lng', String(ln), { shouldDirty: true, shouldValidate: true });
    },
    [form],
  );
  if (!hasMap(def)) return null;
  return (
    <div className="md:col-span-2">
      <MapBox address={full} lat={lat ?? ''} lng={lng ?? ''} onLocate={writable ? onLocate : undefined} />
    </div>
  );
}

export default function ResourceDetailScreen({ resource, params = {}, mode, idParam = 'id', parent }: ResourceDetailScreenProps) {
  const def = resolveResource(resource);
  // A settings resource (`single`) has one record, whatever the route says.
  const id = def.single !== undefined ? String(def.single) : mode === 'new' ? undefined : (params[idParam] ?? Object.values(params)[0]);
  const isNew = id === undefined;
  const parentId = parent ? params[parent.param] : undefined;
  const fixed = useMemo(() => (parent && parentId ? { [parent.field]: parentId } : undefined), [parent, parentId]);
  const rec = useRecordController(def, id, { fixed });
  const access = recordAccess(def, { areas: useAreas(), userId: useUserId(), id, record: rec.record });
  const { writable } = access;
  // Extra inputs (the current password) take part in the form like fields; they start empty.
  const formFields = useMemo(() => def.fields.flatMap((f) => [f, ...access.confirm.filter((c) => c.after === f.name).map((c) => c.field)]), [def, access.confirm]);
  const confirmKey = access.confirm.map((c) => c.field.name).join(',');
  const toValues = useCallback(
    (row: Record<string, unknown> | undefined): FormRecord => ({ ...toForm(def, row), ...Object.fromEntries(confirmKey.split(',').filter(Boolean).map((name) => [name, ''])) }),
    [def, confirmKey],
  );
  const alert = useAlert();
  const confirm = useConfirm();
  const tabKey = listKey(def.storageKey, 'tabIndex');
  const [tabIndex, setTabIndexState] = useState(() => {
    const stored = readStored<number>(tabKey, 0);
    return Number.isInteger(stored) && stored >= 0 && stored < def.tabs.length ? stored : 0;
  });
  const setTabIndex = useCallback(
    (index: number) => {
      setTabIndexState(index);
      writeStored(tabKey, index);
    },
    [tabKey],
  );
  const pendingFocus = useRef<string | null>(null);
  const rows = useChildRows(def.children ?? NO_CHILD, rec.children);

  // A record reached under another record's route must belong to it.
  const loaded = rec.record;
  const record = loaded && parent && parentId && cellText(loaded[`${def.prefix}${parent.field}`] ?? '') !== parentId ? undefined : loaded;
  const schema = useMemo(() => resourceSchema(def), [def]);
  const names = useMemo(() => formFields.map((f) => f.name), [formFields]);
  const f = useRecordForm({
    schema,
    defaultValues: { ...toValues(undefined), ...rec.formValues },
    record,
    toValues,
    names,
    prefix: def.prefix,
    rows: def.children ? rows : undefined,
    // The extra inputs (the current password) are not the record's: the schema drops them, the save sends them.
    save: (values, childRows) => rec.save({ ...values, ...Object.fromEntries(access.confirm.map((c) => [c.field.name, f.form.getValues(c.field.name)])) }, childRows),
    reload: rec.reload,
    remove: rec.remove,
    notify: alert,
    confirm,
    // The input's tab is shown, then it is focused once drawn.
    reveal: (name) => {
      const field = formFields.find((x) => x.name === name);
      if (field) setTabIndex(Math.max(0, def.tabs.findIndex((t) => t.key === field.tab)));
      pendingFocus.current = name;
    },
    onSaved: async ({ row }) => {
      const newId = row && !id ? idOf(def, row) : undefined;
      if (newId) await navigate(detailPathOf(def, newId, parentId), { replace: true, force: true });
    },
    onDeleted: () => navigate(listPathOf(def, parentId), { force: true }),
  });
  const { form, problem, busy: saving } = f;
  const { errors } = form.formState;
  useLeaveGuard(f.leaveGuard);
  useLoadingWhile(rec.isLoading || saving);

  // The rows are drawn once read, so nothing typed is replaced by their arrival.
  const Lines = def.children && (isNew || record) && rec.children ? (byResource(LINES_SECTIONS, def.name) ?? PlainLines) : undefined;

  const title = def.single !== undefined ? def.label : isNew ? `${def.label}登録` : `${def.label}詳細`;
  const recordName = titleOf(def, record);
  useEffect(() => {
    document.title = recordName ? `${title}｜${recordName}` : title;
  }, [title, recordName]);

  useEffect(() => {
    if (!pendingFocus.current) return;
    const name = pendingFocus.current;
    pendingFocus.current = null;
    form.setFocus(name);
  });

  const extensions = !isNew && record && id ? (byResource(DETAIL_EXTENSIONS, def.name) ?? []) : [];
  const listPath = listPathOf(def, parentId);
  const parentField = parent ? def.fields.find((f) => f.name === parent.field) : undefined;
  const backLabel = parentField?.ref ? `${resolveResource(parentField.ref).label}へ戻る` : '一覧へ戻る';
  const mismatch = Boolean(loaded && !record);
  const loadFailed = !isNew && !rec.isLoading && !record && (rec.error || mismatch);
  const showBack = def.single === undefined && (access.canList || Boolean(parent));

  if (!isNew && !rec.isLoading && (rec.notFound || mismatch)) {
    return <RecordNotFound label={def.label} back={showBack ? { to: listPath, label: backLabel } : undefined} />;
  }

  return (
    <div className="flex flex-col pb-[16px]">
    <form
      noValidate
      aria-labelledby="resource-detail-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (!writable || saving) return;
        void f.submit();
      }}
      className="flex flex-col gap-[12px] p-[16px]"
    >
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <div className="flex min-w-0 items-baseline gap-[12px]">
          <h1 id="resource-detail-title" className="text-[2rem] font-bold text-ink">
            {title}
          </h1>
          {!isNew && record && def.single === undefined && (
            <p className="truncate text-[1.4rem] text-ink-soft">
              <span className="tabular mr-[8px] text-muted">ID {id}</span>
              {recordName}
            </p>
          )}
        </div>
        <div className="flex items-center gap-[8px]">
          {showBack && (
            <AppLink to={listPath} className={buttonClass('secondary')}>
              {backLabel}
            </AppLink>
          )}
          {access.deletable && record && (
            <button type="button" className={buttonClass('danger')} onClick={() => void f.remove()} disabled={saving}>
              削除
            </button>
          )}
          {writable && (isNew || record) && (
            <button type="submit" className={buttonClass('primary')} disabled={saving}>
              {saving ? '保存中…' : '保存'}
            </button>
          )}
        </div>
      </div>

      {!writable && (isNew || record) && (
        <p className="rounded-[4px] border border-line bg-subtle px-[12px] py-[6px] text-[1.3rem] text-ink-soft" data-testid="read-only-reason">
          {access.madeBy ? `この${def.label}は${access.madeBy}` : access.canWrite ? `${def.label}は変更できません。閲覧のみできます。` : `この${def.label}を編集する権限がないため、閲覧のみできます。`}
        </p>
      )}

      {access.locked.length > 0 && record && (
        <p className="rounded-[4px] border border-line bg-subtle px-[12px] py-[6px] text-[1.3rem] text-ink-soft">
          {access.locked.map((f) => f.label).join('・')}は管理者だけが変更できます。
        </p>
      )}

      {(problem || loadFailed) && (
        <FormProblem problem={problem ?? { message: rec.error ?? MESSAGES.notFound }} onReload={() => void f.reloadLatest()}>
          {loadFailed && showBack && (
            <AppLink to={listPath} className="underline">
              {backLabel}
            </AppLink>
          )}
        </FormProblem>
      )}

      {extensions.length > 0 && record && id && (
        <div className="flex flex-wrap gap-[16px] rounded-[6px] border border-line bg-surface px-[16px] py-[8px]">
          {extensions.map((Extension, i) => (
            <Extension key={i} def={def} id={id} record={record} />
          ))}
        </div>
      )}

      {(isNew || record) && (
        <Card>
          {/* The tabs stay outside the fields' fieldset: a user who may only read still opens every tab. */}
          <Tabs
            label={`${def.label}情報`}
            index={tabIndex}
            onIndexChange={setTabIndex}
            keepMounted={false}
            tabs={def.tabs.map((tab) => {
              const fields = formFields.filter((f) => f.tab === tab.key);
              return {
                key: tab.key,
                label: tab.label,
                invalid: fields.some((f) => errors[f.name]),
                content: (
                  <fieldset disabled={saving} className="grid min-w-0 grid-cols-1 gap-x-[24px] gap-y-[12px] md:grid-cols-2">
                    <legend className="visually-hidden">{tab.label}</legend>
                    {fields.map((field) => (
                      <FieldInput key={field.name} field={field} form={form} creating={isNew} disabled={!writable || !access.editable(field)} locked={field.name === parent?.field} refLabel={record ? cellText(record[labelColumnOf(def, field.name)] ?? '') : undefined} />
                    ))}
                    {fields.some((f) => f.name === 'lat') && <AddressMap def={def} form={form} writable={writable} />}
                  </fieldset>
                ),
              };
            })}
          />
        </Card>
      )}

      {(isNew || record) && (byResource(FORM_PANELS, def.name) ?? []).map((Panel, i) => (
        <Panel key={i} def={def} control={form.control} record={record} />
      ))}

      {Lines && def.children && (
        <section aria-labelledby="resource-detail-children" className="flex flex-col gap-[8px]">
          <h2 id="resource-detail-children" className="text-[1.6rem] font-bold text-ink">{def.children.label}</h2>
          <Lines state={rows} disabled={saving} readOnly={!writable} control={form.control} />
        </section>
      )}

      {record && (
        <p className="tabular text-right text-[1.2rem] text-muted">
          登録日時 {formatDateTime(cellText(record.created ?? ''))}　更新日時 {formatDateTime(cellText(record.modified ?? ''))}
        </p>
      )}
    </form>
    {record && id && (byResource(DETAIL_SECTIONS, def.name) ?? []).length > 0 && (
      <div className="flex flex-col gap-[12px] px-[16px] pb-[12px]">
        {(byResource(DETAIL_SECTIONS, def.name) ?? []).map((Section, i) => (
          <Section key={i} def={def} id={id} record={record} />
        ))}
      </div>
    )}
    {record && id && def.related && def.related.length > 0 && <RelatedLists def={def} id={id} />}
    </div>
  );
}
