/**
 * Every resource declaration (lib/resources) declares each thing once: a field's column and its label appear once in
 * the record's fields (the form draws, validates and saves each field once — 自社情報 declared 委託者名（カナ） twice), once in
 * its child rows, once among its list columns and tabs.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_LIST, RESOURCES } from '@/lib/resources';

/** The values found more than once. */
const twice = (values: readonly string[]): string[] => [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];

describe('resource declarations', () => {
  const defs = RESOURCE_LIST;

  it('covers every resource', () => {
    expect(defs.length).toBeGreaterThan(20);
    expect(RESOURCES.company.fields.filter((f) => f.label === '委託者名（カナ）')).toHaveLength(1);
  });

  it.each(defs.map((def) => [def.name, def] as const))('%s declares each column and each label of its fields once', (_name, def) => {
    const columns = [...def.fields.map((f) => `${def.prefix}${f.name}`), ...(def.detailColumns ?? [])];
    expect(twice(columns), 'columns declared twice').toEqual([]);
    expect(twice(def.fields.map((f) => f.label)), 'labels declared twice').toEqual([]);
    expect(twice(def.tabs.map((t) => t.key)), 'tabs declared twice').toEqual([]);
    expect(twice(def.list.columns.map((c) => c.name)), 'list columns declared twice').toEqual([]);
    expect(twice(def.list.columns.map((c) => c.label)), 'list labels declared twice').toEqual([]);
    const child = def.children;
    if (child) {
      const fields = [...child.fields, ...(child.derived ?? [])];
      expect(twice(fields.map((f) => `${child.prefix}${f.name}`)), 'child columns declared twice').toEqual([]);
      expect(twice(fields.map((f) => f.label)), 'child labels declared twice').toEqual([]);
    }
  });
});
