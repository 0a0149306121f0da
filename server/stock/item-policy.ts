/** 商品: an item with stock on hand in any warehouse cannot be deleted. */
import { badRequest } from '../http/api-error';
import { stockOnHand } from './stock';
import type { ResourcePolicy } from '../resources';

export const itemPolicy: ResourcePolicy = {
  async beforeDelete({ trx, id }) {
    const stock = await stockOnHand(trx, { it_id: id });
    if (stock.total > 0) {
      throw badRequest(`この商品は在庫が残っているため削除できません（${stock.places.join('、')}）。先に出庫または棚卸調整で在庫を0にしてください。`);
    }
  },
};
