/** The mail area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { assertMailReady, mailProblem, sendMail } from './mailer';
