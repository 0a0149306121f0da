/** The master area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { masterOptions } from './masters';
