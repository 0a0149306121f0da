/**
 * 送り状取込 (lib/imports/columns/waybill.ts), one handler for every carrier (Yamato B2 `waybill`, Sagawa e飛伝
 * `waybill_sagawa`): the carriers differ only in where their columns are, and the errors name the carrier's own column
 * labels (`waybillHandler(columns)`). Each row's order (お客様管理番号 = 受注番号) moves from 出荷待ち to 出荷済
 * with its tracking number through the order's own status rule (`moveOrderIn` of server/orders/status.ts: the stock
 * taken out, the audit row), inside the import's one transaction. An order already 出荷済 with the same number is
 * skipped (the file imported again); an unknown number, an order in another status (or shipped with another number),
 * a tracking number that is not 12 digits or whose check digit is wrong are errors by row — and the machinery imports
 * nothing while any is left. An order without a 出荷倉庫 ships from 受注設定's 既定の出荷倉庫 (stored on it); without that
 * either, the error names both fixes.
 */
import { statusText } from '../../../lib/orders/status';
import { normalizeTrackingNo, trackingNoProblem } from '../../../lib/orders/tracking';
import { waybillColumnLabel, waybillImportColumns, waybillSagawaImportColumns, type WaybillImportField } from '../../../lib/imports/columns/waybill';
import type { ImportAction, ImportError } from '../../../lib/imports/kinds';
import { resourceView } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { orderSettings, moveOrderIn } from '../../orders';
import type { ChunkOutcome, ImportKindHandler, ImportRow, ImportRun } from '../kind';

/** The run's state: order number → the tracking number an earlier row gave it. */
const ORDERS_SEEN = 'waybill.orders';
/** The run's state: 受注設定's 既定の出荷倉庫 (0: none), read once. */
const DEFAULT_WAREHOUSE = 'waybill.warehouse';

/** The handler of a carrier's waybill kind: `columns` only name the fields in its errors (the rules are the same). */
const waybillHandler = (columns: Parameters<typeof waybillColumnLabel>[0]): ImportKindHandler => ({
  apply: (run, rows) => apply(run, rows, (field) => waybillColumnLabel(columns, field)),
});

async function apply(run: ImportRun, rows: readonly ImportRow[], label: (field: WaybillImportField) => string): Promise<ChunkOutcome> {
  const seen = (run.state.get(ORDERS_SEEN) as Map<string, string> | undefined) ?? new Map<string, string>();
  run.state.set(ORDERS_SEEN, seen);
  const numbers = [...new Set(rows.map((r) => (r.values.order_no ?? '').trim()).filter(Boolean))];
  const orders = numbers.length === 0 ? [] : await resourceView(run.trx).selectFrom('orders')
    .select(['od_id', 'od_number', 'od_status', 'od_tracking_no']).where('od_number', 'in', numbers).where('deleted', '=', 0).execute();
  const byNumber = new Map(orders.map((o) => [String(o.od_number), o]));
  if (!run.state.has(DEFAULT_WAREHOUSE)) run.state.set(DEFAULT_WAREHOUSE, Number((await orderSettings(run.trx)).skId) || 0);
  const warehouseId = run.state.get(DEFAULT_WAREHOUSE) as number;
  const actions: ImportAction[] = [];
  const errors: ImportError[] = [];
  for (const row of rows) {
    const problem = (field: WaybillImportField | '', message: string) => {
      errors.push({ row: row.row, column: field === '' ? '' : label(field), message });
      actions.push('skip');
    };
    const number = (row.values.order_no ?? '').trim();
    const typed = (row.values.tracking_no ?? '').trim();
    const tracking = normalizeTrackingNo(typed);
    if (!number) { problem('order_no', 'お客様管理番号（受注番号）を入力してください。'); continue; }
    if (!typed) { problem('tracking_no', `${label('tracking_no')}を入力してください。`); continue; }
    const wrong = trackingNoProblem(label('tracking_no'), typed);
    if (wrong) { problem('tracking_no', wrong); continue; }
    const order = byNumber.get(number);
    if (!order) { problem('order_no', `受注番号「${number}」の受注が見つかりません。`); continue; }
    const earlier = seen.get(number);
    if (earlier !== undefined) {
      if (earlier === tracking) actions.push('skip');
      else problem('tracking_no', `受注番号「${number}」に別の伝票番号（${earlier}）の行があります。`);
      continue;
    }
    seen.set(number, tracking);
    const status = String(order.od_status);
    if (status === 'shipped' && normalizeTrackingNo(String(order.od_tracking_no ?? '')) === tracking) { actions.push('skip'); continue; }
    if (status === 'shipped') { problem('tracking_no', `受注番号「${number}」は別の伝票番号（${String(order.od_tracking_no ?? '')}）で出荷済です。`); continue; }
    if (status !== 'waitshipping') { problem('order_no', `受注番号「${number}」は「${statusText(status)}」です。「出荷待ち」の受注だけ出荷済にできます。`); continue; }
    try {
      // An order without a warehouse ships from 受注設定's 既定の出荷倉庫.
      await moveOrderIn(run.trx, run.actor, Number(order.od_id), 'shipped', { trackingNo: tracking, ...(warehouseId ? { warehouseId } : {}) });
      actions.push('update');
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      const fields = Object.keys(error.extra.fields ?? {});
      if (fields.includes('sk_id')) {
        problem('order_no', `受注番号「${number}」に出荷倉庫がありません（在庫を動かす倉庫です）。受注の出荷倉庫を選ぶか、システム > 受注設定の「既定の出荷倉庫」を選んでから取り込み直してください。`);
      } else problem(fields.includes('tracking_no') ? 'tracking_no' : '', `受注番号「${number}」: ${error.message}`);
    }
  }
  return { actions, errors };
}

export const waybillImport = waybillHandler(waybillImportColumns);
export const waybillSagawaImport = waybillHandler(waybillSagawaImportColumns);
