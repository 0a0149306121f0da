/** The closing area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { CLOSING_LOCK, shareClosingLock } from './closed';
