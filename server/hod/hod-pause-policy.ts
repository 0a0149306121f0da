/**
 * 休配・スキップ: a one-off skip is one day, so its 終了日 is its 開始日 (filled when left empty); a pause
 * period needs its 終了日 even when a save leaves the field out (the declaration's check sees only sent fields).
 */
import { EXCEPTION_KIND } from '../../lib/hod/kinds';
import { PAUSE_NEEDS_END } from '../../lib/resources/hod-pause';
import { badRequest } from '../http/api-error';
import type { ResourcePolicy } from '../resources';

export const hodPausePolicy: ResourcePolicy = {
  async beforeSave({ current, columns }) {
    const merged = { ...current, ...columns };
    const to = String(merged.hp_to_date ?? '');
    if (String(merged.hp_kind ?? '') !== EXCEPTION_KIND.skip) {
      if (to === '') throw badRequest(PAUSE_NEEDS_END, { fields: { to_date: PAUSE_NEEDS_END } });
      return;
    }
    if (to === '' && merged.hp_from_date) return { hp_to_date: merged.hp_from_date };
  },
};
