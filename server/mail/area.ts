/**
 * The mail area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { mailTemplatePolicy } from './mail-template-policy';
import { mailPlugin } from './plugin';

export const mailArea = {
  plugin: mailPlugin,
  policies: { mailtemplate: mailTemplatePolicy },
} satisfies ServerArea;
