/**
 * The filter panel of a list: one control per declared filter, drawn from the declaration (an
 * equality on a field with options or a master is a select, other equalities a text box; a date range
 * is the date-range picker: two typed days, one Tab stop each, and its presets). It starts folded unless
 * a filter is set, and remembers being opened or folded.
 */
import clsx from 'clsx';
import { useId, useState, type ReactNode } from 'react';
import type { FilterDef } from '@/lib/filters';
import { fieldOfFilter, filterOptions, listFilters, type RawFilters } from '@/lib/list/list-state';
import { useMasterOptions } from '@/lib/client/list/use-master-options';
import type { FieldDef, Option, ResourceDef } from '@/lib/resources/types';
import { listKey } from '@/lib/storage-keys';
import { readStored, writeStored } from '@/lib/client/state/storage';
import { DateRangePicker } from './date-range-picker';
import { RefPicker } from './ref-picker';
import { buttonClass, inputClass, labelClass } from './styles';

type SetFilter = (name: string, value: string | string[] | undefined) => void;

interface FilterProps {
  def: ResourceDef;
  filter: FilterDef;
  value: string | string[] | undefined;
  onChange: SetFilter;
}

const pair = (value: string | string[] | undefined): [string, string] =>
  Array.isArray(value) ? [value[0] ?? '', value[1] ?? ''] : ['', ''];

/** A date range: the one date-range picker, its bounds sent as the filter's pair. */
function DateRangeFilter({ filter, value, onChange }: FilterProps) {
  const [from, to] = pair(value);
  return (
    <DateRangePicker
      label={filter.label}
      value={{ from, to }}
      onChange={(next) => onChange(filter.name, next.from || next.to ? [next.from, next.to] : undefined)}
    />
  );
}

function NumberRangeFilter({ filter, value, onChange }: FilterProps) {
  const [from, to] = pair(value);
  const set = (next: [string, string]) => onChange(filter.name, next[0] || next[1] ? next : undefined);
  return (
    <div role="group" aria-label={filter.label} className="flex flex-col gap-[3px]">
      <span className={labelClass}>{filter.label}</span>
      <div className="flex items-center gap-[4px]">
        <NumberRange filter={filter} from={from} to={to} set={set} />
      </div>
    </div>
  );
}

function NumberRange({ filter, from, to, set }: { filter: FilterDef; from: string; to: string; set: (next: [string, string]) => void }) {
  return (
    <>
      <input type="number" aria-label={`${filter.label}（下限）`} value={from} onChange={(e) => set([e.target.value, to])} className={clsx(inputClass, 'w-[110px] text-right')} />
      <span aria-hidden="true" className="text-muted">〜</span>
      <input type="number" aria-label={`${filter.label}（上限）`} value={to} onChange={(e) => set([from, e.target.value])} className={clsx(inputClass, 'w-[110px] text-right')} />
    </>
  );
}

function InFilter({ def, filter, value, onChange }: FilterProps) {
  const fixed = filterOptions(def, filter);
  const master = useMasterOptions(fixed ? undefined : fieldOfFilter(def, filter)?.master);
  const options = fixed ?? master.options;
  const selected = Array.isArray(value) ? value : value ? [value] : [];
  const toggle = (v: string, on: boolean) => {
    const next = on ? [...selected.filter((x) => x !== v), v] : selected.filter((x) => x !== v);
    onChange(filter.name, next.length ? next : undefined);
  };
  return (
    <fieldset className="flex flex-col gap-[3px]">
      <legend className={clsx(labelClass, 'mb-[3px]')}>{filter.label}</legend>
      <div className="flex min-h-[30px] flex-wrap items-center gap-x-[12px] gap-y-[2px]">
        {master.isLoading && <span className="text-[13px] text-muted">読み込み中…</span>}
        {options.map((o) => (
          <label key={o.value} className="inline-flex items-center gap-[4px] text-[14px]">
            <input type="checkbox" className="h-[15px] w-[15px]" checked={selected.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
            {o.text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** One labelled control of a single value: the label names the control given its id. */
function Labelled({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-[3px]">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

function SingleFilter({ filter, value, onChange, type }: FilterProps & { type: 'month' | 'text' | 'tel' }) {
  const apply = (text: string) => onChange(filter.name, text.trim() || undefined);
  return (
    <Labelled label={filter.label}>
      {(id) => (
        <input
          id={id}
          type={type}
          defaultValue={typeof value === 'string' ? value : ''}
          key={typeof value === 'string' ? value : ''}
          onChange={type === 'month' ? (e) => onChange(filter.name, e.target.value || undefined) : undefined}
          onBlur={type !== 'month' ? (e) => apply(e.target.value) : undefined}
          // Enter applies a typed value too, never the Enter that confirms an IME conversion.
          onKeyDown={type !== 'month' ? (e) => e.key === 'Enter' && !e.nativeEvent.isComposing && apply(e.currentTarget.value) : undefined}
          placeholder={type === 'tel' ? 'ハイフンなしでも可' : undefined}
          className={clsx(inputClass, 'w-[160px]')}
        />
      )}
    </Labelled>
  );
}

/** An equality on a `ref` field without a master: the record picked by keyword (the order search's 顧客). */
function RefFilter({ def, filter, value, onChange }: FilterProps) {
  // A filter through another table (a slip's lines' 商品) names its resource itself.
  const field: FieldDef | undefined = fieldOfFilter(def, filter) ?? (filter.ref ? { name: filter.name, label: filter.label, type: 'ref', ref: filter.ref, tab: '' } : undefined);
  if (!field) return null;
  return (
    <Labelled label={filter.label}>
      {(id) => (
        <div className="w-[280px]">
          <RefPicker field={{ ...field, required: false }} inputId={id} value={typeof value === 'string' ? value : ''} onChange={(v) => onChange(filter.name, v || undefined)} />
        </div>
      )}
    </Labelled>
  );
}

/** One choice from a select, or none. */
function ChoiceFilter({ filter, value, onChange, options, empty }: FilterProps & { options: readonly Option[]; empty: string }) {
  return (
    <Labelled label={filter.label}>
      {(id) => (
        <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(filter.name, e.target.value || undefined)} className={clsx(inputClass, 'w-[180px]')}>
          <option value="">{empty}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

/** An equality filter whose field has options (fixed or a master table). */
function SelectFilter(props: FilterProps) {
  const { def, filter } = props;
  const fixed = filterOptions(def, filter);
  const master = useMasterOptions(fixed ? undefined : fieldOfFilter(def, filter)?.master);
  return <ChoiceFilter {...props} options={fixed ?? master.options} empty={master.isLoading ? '読み込み中…' : '（すべて）'} />;
}

/** A window of days around today (期限切れ, 30日以内 …). */
function RelativeDateFilter(props: FilterProps) {
  return <ChoiceFilter {...props} options={props.filter.windows ?? []} empty="（指定なし）" />;
}

function FilterControl(props: FilterProps) {
  switch (props.filter.kind) {
    case 'dateRange':
      return <DateRangeFilter {...props} />;
    case 'numberRange':
      return <NumberRangeFilter {...props} />;
    case 'in':
      return <InFilter {...props} />;
    case 'relativeDate':
      return <RelativeDateFilter {...props} />;
    case 'month':
      return <SingleFilter {...props} type="month" />;
    case 'tel':
      return <SingleFilter {...props} type="tel" />;
    default: {
      const field = fieldOfFilter(props.def, props.filter);
      if (filterOptions(props.def, props.filter) || field?.master) return <SelectFilter {...props} />;
      if (field?.type === 'ref' || props.filter.ref) return <RefFilter {...props} />;
      return <SingleFilter {...props} type="text" />;
    }
  }
}

/** Local-storage key of a list's filter panel open flag (cleared with the list keys at logout). */
const openKey = (def: ResourceDef) => `${listKey(def.storageKey, 'search')}.filtersOpen`;

/**
 * Every filter the resource declares but those the list fixes (a status list's 状態), and any implied one
 * that is set (a link's), with 「条件をクリア」; the panel folds away and remembers it.
 */
export function FilterPanel({ def, filters, onChange, onClear, storageKey = openKey(def), fixed = [] }: {
  def: ResourceDef; filters: RawFilters; onChange: SetFilter; onClear: () => void;
  /** Where the open flag is remembered (default: the list's own key; the order search uses the spec's `KEYS.detailSearchOpen`). */
  storageKey?: string;
  /** Filters the list sets itself (`fixedFilters`): not offered, since a tick there would change nothing. */
  fixed?: readonly string[];
}) {
  // Folded unless a filter is set, until the user opens or folds it (then as they left it).
  const [open, setOpen] = useState(() => {
    const stored = readStored<unknown>(storageKey, null);
    return typeof stored === 'boolean' ? stored : Object.keys(filters).length > 0;
  });
  const panelId = useId();
  const active = Object.keys(filters).filter((name) => !fixed.includes(name)).length;
  // Implied filters (a link's 支払方法, 顧客 …) are drawn only while set, so the user sees and can clear them.
  const offered = listFilters(def).filter((f) => !fixed.includes(f.name) && (!f.implied || filters[f.name] !== undefined));
  if (offered.length === 0) return null;
  const toggle = () => {
    setOpen(!open);
    writeStored(storageKey, !open);
  };
  return (
    <section aria-label="絞り込み条件" className="rounded-[6px] border border-line bg-subtle">
      <div className="flex h-[36px] items-center justify-between px-[12px]">
        <button type="button" aria-expanded={open} aria-controls={panelId} onClick={toggle} className="inline-flex items-center gap-[6px] text-[14px] font-medium text-ink">
          <span aria-hidden="true" className={clsx('inline-block transition-transform', open && 'rotate-90')}>
            ▶
          </span>
          詳細検索
          {active > 0 && <span className="rounded-full bg-brand px-[7px] text-[12px] leading-[18px] text-white">{active} 件の条件</span>}
        </button>
        <button type="button" className={buttonClass('ghost')} onClick={onClear} disabled={active === 0}>
          条件をクリア
        </button>
      </div>
      {open && (
        <div id={panelId} className="flex flex-wrap gap-x-[24px] gap-y-[10px] border-t border-line px-[12px] pb-[12px] pt-[10px]">
          {offered.map((filter) => (
            <FilterControl key={filter.name} def={def} filter={filter} value={filters[filter.name]} onChange={onChange} />
          ))}
        </div>
      )}
    </section>
  );
}
