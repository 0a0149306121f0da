/** The sales area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { allocateMany, type AllocationChange, carryingInvoices } from './allocation';
export { dropOrderSlip, slipFromOrder, slipsFromOrders } from './from-order';
export { recomputeReceivables } from './ledger';
export { rentalPlan } from './rental';
