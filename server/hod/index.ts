/** The hod area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { hodGenerate } from './generate';
export { cashMethods } from './list';
