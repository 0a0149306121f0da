/** The stock area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { lockCustomers } from './bottle-policy';
export { adjustStock, adjustStockIn } from './stock';
