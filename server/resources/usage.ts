/**
 * Who uses a record or a master value, read from the declarations: `ref` fields name records of another
 * resource, master-backed fields (`master: 'mt_pmt_method'`) hold a master's codes. A delete of something
 * in use is refused naming how many records of which resource use it, and answers `usedBy`: per resource
 * and field the count and the list filters that show those records (the client links to the list).
 */
import type { Transaction } from 'kysely';
import type { UsedBy } from '../../lib/protocol';
import { RESOURCES, resourceNamed } from '../../lib/resources';
import { columnOf, isHistory, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { resourceView, type Database } from '../db/schema';
import { badRequest, type ApiError } from '../http/api-error';

/** Counts the live records of every resource field that `uses` picks, where the field holds `value`. */
async function usages(
  trx: Transaction<Database>, uses: (field: FieldDef) => boolean, value: string | number, filter: (field: FieldDef) => UsedBy['filters'],
): Promise<UsedBy[]> {
  const view = resourceView(trx);
  const found: UsedBy[] = [];
  for (const other of Object.values(RESOURCES)) {
    if (isHistory(other)) continue;
    for (const field of other.fields) {
      if (!uses(field)) continue;
      const row = await view
        .selectFrom(other.table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(columnOf(other, field.name), '=', value)
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow();
      const count = row.n;
      if (count > 0) found.push({ resource: other.name, label: other.label, field: field.name, count, filters: filter(field) });
    }
  }
  return found;
}

/**
 * Live records of other resources whose `ref` fields name this record.
 * @example await referencesTo(trx, clientResource, 12) // [{ resource: 'order', label: '受注', field: 'cl_id', count: 3, filters: { cl_id: '12' } }]
 */
export const referencesTo = (trx: Transaction<Database>, def: ResourceDef, id: number): Promise<UsedBy[]> =>
  usages(trx, (field) => field.type === 'ref' && field.ref === def.name, id, (field) => ({ [field.name]: String(id) }));

/**
 * Live records whose fields of a master (`master: table`, not `ref` fields: those are `referencesTo`) hold one of its codes.
 * @example await masterUses(trx, 'mt_pmt_method', '1') // [{ resource: 'client', label: '顧客', field: 'pm_id', count: 111, filters: { pm_id: ['1'] } }, …]
 */
export const masterUses = (trx: Transaction<Database>, table: string, value: string): Promise<UsedBy[]> =>
  usages(trx, (field) => field.master === table && field.type !== 'ref', value, (field) => ({ [field.name]: [value] }));

/**
 * The refusal of deleting something in use, naming every use (so one refusal tells all that must change
 * first), with `usedBy` for links; undefined when nothing uses it.
 * @example usedByRefusal('この顧客', uses, '先にそちらを削除するか、付け替えてください。') // 「この顧客は受注（3件）の「顧客」に使われているため削除できません。…」
 */
export function usedByRefusal(subject: string, uses: readonly UsedBy[], advice: string): ApiError | undefined {
  if (uses.length === 0) return undefined;
  const named = uses.map((use) => {
    const label = resourceNamed(use.resource)?.fields.find((f) => f.name === use.field)?.label ?? use.field;
    return `${use.label}（${use.count}件）の「${label}」`;
  });
  return badRequest(`${subject}は${named.join('、')}に使われているため削除できません。${advice}`, { usedBy: uses });
}
