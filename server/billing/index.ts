/** The billing area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { companySettings } from './invoice-document';
export { closingParams } from './plugin';
export { cancelVersions } from './archive';
