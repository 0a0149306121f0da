/**
 * 倉庫: a warehouse that still holds stock, or that customers or orders ship from (their 出荷倉庫, a
 * master value `mt_warehouse` rather than a reference), cannot be deleted; 使用停止 retires it instead.
 */
import { badRequest } from '../http/api-error';
import { stockOnHand } from './stock';
import { type ResourcePolicy, masterUses, usedByRefusal } from '../resources';

export const soukoPolicy: ResourcePolicy = {
  async beforeDelete({ trx, id }) {
    const stock = await stockOnHand(trx, { sk_id: id });
    if (stock.total > 0) {
      throw badRequest(`この倉庫には在庫が残っているため削除できません（${stock.places.join('、')}）。先に出庫または棚卸調整で在庫を0にしてください。`);
    }
    const refusal = usedByRefusal('この倉庫', await masterUses(trx, 'mt_warehouse', String(id)), '先にそちらの出荷倉庫を変更するか、倉庫を使用停止にしてください。');
    if (refusal) throw refusal;
  },
};
