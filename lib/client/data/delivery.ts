/** Reads of regular delivery, orders and stock: one hook per call, named after what it reads. */
import type { ParamsOf } from '../../protocol/calls';
import { useCall } from './use-call';

const ONCE = { revalidateOnFocus: false } as const;
/** Pages of one query: the previous page stays shown while the next loads. */
const PAGED = { revalidateOnFocus: false, keepPreviousData: true } as const;
/** Previews of generated records: asked again on every mount and every page. */
const FRESH_PAGED = { revalidateOnFocus: false, revalidateOnMount: true, dedupingInterval: 0, keepPreviousData: true } as const;

/** The orders regular delivery would make in a period (`hod_preview`). */
export const useHodPreview = (params: ParamsOf<'hod_preview'>) => useCall('hod_preview', params, FRESH_PAGED);
/** The delivery list of a period (`hod_list`). */
export const useHodList = (params: ParamsOf<'hod_list'>) => useCall('hod_list', params, PAGED);
/** The delivery sales of a period (`hod_uriage`). */
export const useHodUriage = (params: ParamsOf<'hod_uriage'>) => useCall('hod_uriage', params, PAGED);
/** The slips a delivery report made (`hodreport_slip_lst`). */
export const useHodReportSlips = (params: ParamsOf<'hodreport_slip_lst'>) => useCall('hodreport_slip_lst', params, ONCE);
/** The rental slips a month would make (`rental_preview`). */
export const useRentalPreview = (params: ParamsOf<'rental_preview'> | null) => useCall('rental_preview', params, FRESH_PAGED);
/** The Yamato B2 rows of chosen orders (`export_b2_preview`). */
export const useB2Preview = (params: ParamsOf<'export_b2_preview'> | null) => useCall('export_b2_preview', params, PAGED);
/** Stock of a warehouse or an item (`stock_lst`). */
export const useStock = (params: ParamsOf<'stock_lst'>) => useCall('stock_lst', params, ONCE);
/** Stock moves of a warehouse or an item (`stock_move_lst`). */
export const useStockMoves = (params: ParamsOf<'stock_move_lst'>) => useCall('stock_move_lst', params, PAGED);
/** The bottles a customer holds (`bottle_balance`). */
export const useBottleBalance = (clientId: number | string) => useCall('bottle_balance', { cl_id: clientId }, ONCE);
/** The accounting exports made (`accounting_export_lst`). */
export const useAccountingExports = () => useCall('accounting_export_lst', {}, ONCE);
/** The recent imports of a kind (`import_lst`). */
export const useImports = (params: ParamsOf<'import_lst'>) => useCall('import_lst', params, ONCE);
