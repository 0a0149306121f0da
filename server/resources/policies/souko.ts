/**
 * 倉庫: a warehouse that still holds stock, or that customers ship from (their 出荷倉庫, a master
 * value rather than a reference), cannot be deleted.
 */
import { badRequest } from '../../http/api-error';
import { stockOnHand } from '../../stock/stock';
import type { ResourcePolicy } from '../policy';

export const soukoPolicy: ResourcePolicy = {
  async beforeDelete({ trx, id }) {
    const stock = await stockOnHand(trx, { sk_id: id });
    if (stock.total > 0) {
      throw badRequest(`この倉庫には在庫が残っているため削除できません（${stock.places.join('、')}）。先に出庫または棚卸調整で在庫を0にしてください。`);
    }
    const shipping = await trx.selectFrom('client').select((eb) => eb.fn.countAll<number>().as('n')).where('cl_sk_id', '=', String(id)).where('deleted', '=', 0).executeTakeFirstOrThrow();
    if (Number(shipping.n) > 0) {
      throw badRequest(`この倉庫は顧客（${Number(shipping.n)}件）の出荷倉庫に設定されているため削除できません。先に顧客の出荷倉庫を変更してください。`);
    }
  },
};
