/**
 * The order lifecycle (issue 4): which status an order may move to, and the list screens' 「次の状態へ」.
 * untreated → pending | waitshipping; pending → waitshipping | untreated; waitshipping → shipped
 * (with a tracking number) or back; shipped → processed (its sales slip made), or back to waitshipping (stock
 * returned); processed → back to shipped (its sales slip deleted, refused once billed);
 * cancelling is allowed before shipped and keeps the order.
 */
import { ORDER_STATUS, type OrderStatus } from '../resources/order';

export const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  untreated: ['pending', 'waitshipping', 'cancelled'],
  pending: ['waitshipping', 'untreated', 'cancelled'],
  waitshipping: ['shipped', 'pending', 'untreated', 'cancelled'],
  shipped: ['processed', 'waitshipping'],
  processed: ['shipped'],
  cancelled: [],
};

/** The status 「次の状態へ」 moves an order to (none for processed and cancelled). */
export const NEXT_STATUS: Readonly<Partial<Record<OrderStatus, OrderStatus>>> = {
  untreated: 'waitshipping',
  pending: 'waitshipping',
  waitshipping: 'shipped',
  shipped: 'processed',
};

export const isOrderStatus = (value: unknown): value is OrderStatus => ORDER_STATUS.some((s) => s.value === value);

export const statusText = (status: string): string => ORDER_STATUS.find((s) => s.value === status)?.text ?? status;

/** Whether the lines' stock is out of the warehouse in a status. */
export const stockIsOut = (status: string): boolean => status === 'shipped' || status === 'processed';

/** One line of an order as stored and answered by `order_detail_lst`. */
export interface OrderLine {
  odd_id: number;
  odd_od_id: number;
  odd_sort: number;
  /** The item; null on the delivery fee's line. */
  odd_it_id: number | null;
  odd_name: string;
  odd_quantity: number;
  odd_price: number;
  odd_amount: number;
  odd_tax_class: string;
  odd_tax_rate: number;
  /** 1 on the delivery fee's line (derived by the order's save from 送料, never typed; migration 0046), else 0. */
  odd_fee: number;
}

/** One line as the form sends it in the save's `lines`: price empty means the customer's price of the item. */
export interface OrderLineInput {
  it_id: number | string;
  quantity: number | string;
  price?: number | string | null;
  name?: string;
}

/** What `order_status` answers per order. */
export interface StatusResult {
  od_id: number;
  /** The order number staff know the order by ('' when the order does not exist). */
  od_number: string;
  ok: boolean;
  /** The status after the call (pending when held by the credit limit). */
  status: string;
  /** Why the move was refused, or why the order was held. */
  message?: string;
  /** The sales slip a move to 処理済 made: its id (the link) and its number (what staff know it by). */
  slip?: { sl_id: number; sl_number: string };
}

/**
 * What a move that went through says: the status reached, and the sales slip it made (its number; the screen links it).
 * @example movedText({ od_id: 1, od_number: 'OD1', ok: true, status: 'processed', slip: { sl_id: 4, sl_number: 'SL000004' } }) // '処理済にしました（売上伝票 SL000004 を作成）。'
 */
export const movedText = (result: Pick<StatusResult, 'status' | 'slip'>): string =>
  `${statusText(result.status)}にしました${result.slip ? `（売上伝票 ${result.slip.sl_number} を作成）` : ''}。`;
