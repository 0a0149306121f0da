/** The auth area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { findSession } from './auth-key';
export { openSessionCache, type SessionCache } from './session-cache';
export { createUser } from './users';
