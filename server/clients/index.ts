/** The clients area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { billingCustomersOf, type BillingGroup, billingGroupsOf } from './billing-chain';
