/** 休配・スキップ: a one-off skip is one day, so its 終了日 is its 開始日 (filled when left empty). */
import { EXCEPTION_KIND } from '../../../lib/hod/kinds';
import type { ResourcePolicy } from '../policy';

export const hodPausePolicy: ResourcePolicy = {
  async beforeSave({ current, columns }) {
    const merged = { ...current, ...columns };
    if (String(merged.hp_kind ?? '') !== EXCEPTION_KIND.skip) return;
    if (String(merged.hp_to_date ?? '') === '' && merged.hp_from_date) return { hp_to_date: merged.hp_from_date };
  },
};
