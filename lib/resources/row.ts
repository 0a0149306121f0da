/**
 * The row types of resource tables, derived from the declarations (`as const satisfies ResourceDef`): a column per
 * field, `{prefix}{name}`, of the type its kind is stored in (`columnKind`): text kinds a string ('' when empty),
 * number, money, flag, ref and decimal a number or null. server/db/schema.ts maps each table to its row, so a query
 * naming a column the declaration does not have does not compile.
 * @example RowOf<typeof soukoResource> // { sk_id: number; sk_code: string; sk_manager_id: number | null; …; created: string; … }
 */
import type { ChildDef, FieldDef, ResourceDef } from './types';

/** The value a column of a field of this kind holds: TEXT NOT NULL DEFAULT '' or a number column (NULL when empty). */
export type CellOf<F extends Pick<FieldDef, 'type'>> = F['type'] extends 'number' | 'money' | 'flag' | 'ref' | 'decimal' ? number | null : string;

/** The columns of declared fields: `{prefix}{name}` → its cell. Fields whose name is not a literal are left out. */
export type FieldColumns<P extends string, Fs extends readonly FieldDef[]> = {
  [F in Fs[number] as string extends F['name'] ? never : `${P}${F['name']}`]: CellOf<F>;
};

/** Columns every resource table has (ISO-8601 UTC text; deleted 0/1). */
export interface RowStamps {
  created: string;
  modified: string;
  deleted: number;
}

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** A row of a resource's table as read: its fields' columns, `{prefix}id`, `{prefix}search` and the stamps. */
export type RowOf<D extends ResourceDef> = Flat<
  FieldColumns<D['prefix'], D['fields']>
  & { [K in `${D['prefix']}id`]: number }
  & { [K in `${D['prefix']}search`]: string }
  & RowStamps
>;

/** A child row as read (ChildDef): its fields' and derived columns, `{prefix}id`, the parent's id, the position, `created`. */
export type ChildRowOf<C extends ChildDef> = Flat<
  FieldColumns<C['prefix'], C['fields']>
  & (C['derived'] extends readonly FieldDef[] ? FieldColumns<C['prefix'], C['derived']> : unknown)
  & { [K in `${C['prefix']}id` | `${C['prefix']}${C['parentField']}` | `${C['prefix']}${C['sortField']}`]: number }
  & { created: string }
>;

/** A row with some columns' types replaced (stored columns a declaration does not name, NOT NULL numbers). */
export type WithColumns<R, X> = Flat<Omit<R, keyof X> & X>;
