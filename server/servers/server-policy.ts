/**
 * ウォーターサーバー: the status rules of the declaration (`serverProblems`) on the whole record as
 * it will be stored (a save may send only some fields), no way back from 廃棄, and the next
 * maintenance due date: one year after the last maintenance (or the installation) when left empty,
 * following those dates while nobody set it by hand, and none for a disposed server.
 */
import { toForm } from '../../lib/list/record-mapper';
import { defaultNextDue, serverProblems } from '../../lib/resources/water-server';
import type { ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import type { ResourcePolicy } from '../resources';

const refuse = (fields: Record<string, string>) => badRequest(Object.values(fields)[0], { fields });

export const serverPolicy: ResourcePolicy = {
  async beforeSave({ def, current, columns }): Promise<ResourceRow | void> {
    const before = current ? toForm(def, current) : undefined;
    const after = toForm(def, { ...current, ...columns });
    const problems = serverProblems(after);
    if (problems) throw refuse(problems);
    if (before?.status === 'disposed' && after.status !== 'disposed') {
      throw refuse({ status: '廃棄したサーバーは在庫・設置・メンテナンスに戻せません。' });
    }
    const derived = defaultNextDue(after);
    if (after.status === 'disposed') return after.next_due_date ? { sv_next_due_date: '' } : undefined;
    if (!after.next_due_date) return derived ? { sv_next_due_date: derived } : undefined;
    // A due date that was the derived one, and that this save does not set, follows the new dates.
    const untouched = before !== undefined && after.next_due_date === before.next_due_date;
    if (untouched && before.next_due_date === defaultNextDue(before) && derived && derived !== after.next_due_date) return { sv_next_due_date: derived };
    return undefined;
  },
};
