/**
 * Every resource a declaration names (a `ref` field, a child row's `ref`, a related tab) is a declared one: checked by the
 * compiler on the `as const` declarations (a misspelled name fails `npx tsc`), and at run time for good measure.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { isResourceName, RESOURCE_LIST, RESOURCES, type ResourceName } from '@/lib/resources';

type Declaration = (typeof RESOURCES)[ResourceName];
type FieldOf<D> = D extends { fields: readonly (infer F)[] } ? F : never;
type ChildFieldOf<D> = D extends { children: { fields: readonly (infer F)[] } } ? F : never;
/** A literal ref (a field typed only as `FieldDef` says `string`, which the run-time test below checks). */
type RefOf<F> = F extends { ref?: infer R } ? (string extends R ? never : Exclude<R, undefined>) : never;
type RelatedOf<D> = D extends { related: readonly (infer R)[] } ? (R extends { resource: infer N } ? N : never) : never;
type Named = RefOf<FieldOf<Declaration>> | RefOf<ChildFieldOf<Declaration>> | RelatedOf<Declaration>;

describe('resource names', () => {
  it('names only declared resources (types)', () => {
    expectTypeOf<Exclude<Named, ResourceName>>().toEqualTypeOf<never>();
    expectTypeOf<'client' | 'item'>().toMatchTypeOf<Named>();
  });

  it('names only declared resources (values)', () => {
    const named = RESOURCE_LIST.flatMap((def) => [
      ...[...def.fields, ...(def.children?.fields ?? [])].flatMap((f) => (f.ref ? [f.ref] : [])),
      ...(def.related ?? []).map((r) => r.resource),
    ]);
    expect(named.filter((name) => !isResourceName(name))).toEqual([]);
  });

  it('keys each declaration by its own name', () => {
    expect(Object.entries(RESOURCES).filter(([key, def]) => key !== def.name)).toEqual([]);
  });
});
