/** The orders area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { idsParam } from './plugin';
export { orderSettings, priceLine, PRICING_CLIENT_COLUMNS, pricingBook, type PricingBook } from './pricing';
export { moveOrderIn } from './status';
