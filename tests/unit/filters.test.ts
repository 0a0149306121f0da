import { describe, expect, it } from 'vitest';
import { dateRange, normalizeFilters, type FilterDef } from '@/lib/filters';

const defs: FilterDef[] = [
  { name: 'created', label: '登録日', kind: 'dateRange' },
  { name: 'modified', label: '更新日', kind: 'dateRange' },
  { name: 'od_status', label: '状態', kind: 'in', options: [{ value: 'pending', text: '保留' }, { value: 'shipped', text: '出荷済' }] },
  { name: 'uriage_total', label: '合計', kind: 'numberRange' },
  { name: 'sime_ym', label: '締め年月', kind: 'month' },
];
const today = '2026-11-22';

describe('date-range rules (spec §5)', () => {
  it('applies a range with both ends as given', () => {
    expect(dateRange('modified', ['2026-01-01', '2026-03-31'], today)).toEqual(['2026-01-01', '2026-03-31']);
  });
  it('ends today when only a start is set', () => {
    expect(dateRange('modified', ['2026-01-01', ''], today)).toEqual(['2026-01-01', today]);
  });
  it('starts 1970-01-01 when only an end is set', () => {
    expect(dateRange('modified', ['', '2026-03-31'], today)).toEqual(['1970-01-01', '2026-03-31']);
  });
  it('spans 1970-01-01 to today for created with neither bound', () => {
    expect(dateRange('created', ['', ''], today)).toEqual(['1970-01-01', today]);
  });
  it('does not apply to other fields with neither bound', () => {
    expect(dateRange('modified', ['', ''], today)).toBeUndefined();
    expect(dateRange('modified', undefined, today)).toBeUndefined();
  });
});

describe('normalizeFilters', () => {
  it('drops empty values and keeps od_status and uriage_total arrays as arrays, not date ranges', () => {
    const result = normalizeFilters(
      { modified: ['', ''], od_status: ['pending', 'shipped'], uriage_total: ['1000', ''], sime_ym: '' },
      defs,
      today,
    );
    expect(result).toEqual({ ok: true, filters: { od_status: ['pending', 'shipped'], uriage_total: [1000, ''] } });
  });
  it('removes the hyphen of sime_ym', () => {
    expect(normalizeFilters({ sime_ym: '2026-10' }, defs, today)).toEqual({ ok: true, filters: { sime_ym: '202610' } });
  });
  it('always sends created as 1970-01-01..today when it is present but empty', () => {
    expect(normalizeFilters({ created: ['', ''] }, defs, today)).toEqual({ ok: true, filters: { created: ['1970-01-01', today] } });
  });
  it('refuses unknown filter names (whitelist)', () => {
    expect(normalizeFilters({ cl_pw: 'x' }, defs, today)).toEqual({ ok: false, problem: 'unknown', name: 'cl_pw' });
  });
  it('refuses impossible dates and reversed ranges', () => {
    expect(normalizeFilters({ modified: ['2026-02-30', ''] }, defs, today)).toMatchObject({ ok: false, problem: 'range' });
    expect(normalizeFilters({ modified: ['2026-05-01', '2026-04-01'] }, defs, today)).toMatchObject({ ok: false, problem: 'range' });
  });
  it('refuses values outside an in-filter\'s options', () => {
    expect(normalizeFilters({ od_status: ['deleted'] }, defs, today)).toMatchObject({ ok: false, problem: 'value' });
  });
});

describe('relativeDate filters (windows of days around today)', () => {
  const due: FilterDef = {
    name: 'due', label: 'メンテ期限', kind: 'relativeDate', column: 'sv_next_due_date',
    windows: [{ value: 'overdue', text: '期限切れ', to: -1 }, { value: 'soon', text: '30日以内', from: 0, to: 30 }],
  };
  it('turns a window into the dates it means today, across a month end', () => {
    expect(normalizeFilters({ due: 'overdue' }, [due], today)).toEqual({ ok: true, filters: { due: ['1970-01-01', '2026-11-21'] } });
    expect(normalizeFilters({ due: 'soon' }, [due], today)).toEqual({ ok: true, filters: { due: ['2026-11-22', '2026-12-22'] } });
  });
  it('keeps a range the client already resolved, so the server can normalise again', () => {
    const once = normalizeFilters({ due: 'soon' }, [due], today);
    expect(once.ok && normalizeFilters(once.filters, [due], '2026-11-23')).toEqual(once);
  });
  it('drops an empty choice and refuses an unknown window or a reversed range', () => {
    expect(normalizeFilters({ due: '' }, [due], today)).toEqual({ ok: true, filters: {} });
    expect(normalizeFilters({ due: 'someday' }, [due], today)).toEqual({ ok: false, problem: 'value', name: 'due' });
    expect(normalizeFilters({ due: ['2026-12-01', '2026-11-01'] }, [due], today)).toEqual({ ok: false, problem: 'value', name: 'due' });
  });
});
