/**
 * 税率: the periods of one class may not overlap, so exactly one rate applies on any day
 * (lib/tax `rateOn`). To add a future rate, first give the current one its last day.
 */
import { overlaps, taxPeriodOf } from '../../lib/tax';
import { TAX_RATE_CLASS } from '../../lib/resources/tax';
import { serialize } from '../db/concurrency';
import { badRequest } from '../http/api-error';
import type { ResourcePolicy } from '../resources';

export const taxPolicy: ResourcePolicy = {
  async beforeSave({ trx, id, current, columns }) {
    const merged = { ...current, ...columns };
    const period = taxPeriodOf(merged);
    if (!period) return;
    // Saves of periods take turns: two new periods checked at once would not see each other.
    await serialize(trx, 'tax_rate');
    let others = trx.selectFrom('tax_rate').selectAll().where('tx_tax_class', '=', period.taxClass).where('deleted', '=', 0);
    if (id !== undefined) others = others.where('tx_id', '<>', id);
    const clash = (await others.orderBy('tx_valid_from').execute()).find((row) => {
      const other = taxPeriodOf(row);
      return other !== undefined && overlaps(period, other);
    });
    if (!clash) return;
    const className = TAX_RATE_CLASS.find((o) => o.value === period.taxClass)?.text ?? period.taxClass;
    const span = `${clash.tx_valid_from}〜${(clash.tx_valid_to ?? '')}`;
    const message = `適用期間が登録済みの${className}「${clash.tx_label}」（${span}）と重なっています。同じ区分の期間は重ねられません。先に登録済みの税率の適用終了日を設定してください。`;
    throw badRequest(message, { fields: { valid_from: message } });
  },
};
