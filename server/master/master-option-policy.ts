/**
 * Master rows (`master_option`): a row stays in its master and keeps its code once registered
 * (customers, items … store the code; a code no longer wanted is deleted and a new one added). A code
 * that live records hold cannot be deleted: the refusal names how many records of which resource and
 * field hold it (`masterUses`, from the declarations' `master:`). An empty flag is 0; a new row without
 * 表示順 goes last.
 */
import { sql } from 'kysely';
import type { ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { masterInfo } from '../../lib/system/masters';
import { type ResourcePolicy, masterUses, usedByRefusal } from '../resources';

const SORT_STEP = 10;

export const masterOptionPolicy: ResourcePolicy = {
  async beforeSave({ trx, current, columns }) {
    const derived: ResourceRow = {};
    if (current) {
      if (columns.mo_table !== undefined && columns.mo_table !== current.mo_table) {
        throw badRequest('登録済みの項目を別のマスタへ移すことはできません。', { fields: { table: '登録済みの項目を別のマスタへ移すことはできません。' } });
      }
      if (columns.mo_value !== undefined && columns.mo_value !== current.mo_value) {
        const message = 'コードは登録後に変更できません。不要になったコードは削除し、新しいコードを追加してください。';
        throw badRequest(message, { fields: { value: message } });
      }
      if (columns.mo_flg === null) derived.mo_flg = 0;
      if (columns.mo_sort === null) derived.mo_sort = current.mo_sort ?? 0;
      return derived;
    }
    derived.mo_flg = columns.mo_flg ?? 0;
    if (columns.mo_sort === null || columns.mo_sort === undefined) {
      const last = await trx
        .selectFrom('master_option')
        .select(sql<number | null>`max(mo_sort)`.as('sort'))
        .where('mo_table', '=', String(columns.mo_table))
        .where('deleted', '=', 0)
        .executeTakeFirst();
      derived.mo_sort = Math.min(99_999, (last?.sort ?? 0) + SORT_STEP);
    }
    return derived;
  },
  async beforeDelete({ trx, current }) {
    const table = String(current.mo_table);
    const subject = `この${masterInfo(table)?.label ?? 'マスタ'}「${String(current.mo_text)}」`;
    const refusal = usedByRefusal(subject, await masterUses(trx, table, String(current.mo_value)), '先にそちらを変更してください。');
    if (refusal) throw refusal;
  },
};
