/** The server-side rules of the resources that have any, by call prefix (see ../policy.ts). */
import type { ResourcePolicy } from '../policy';
import { mailTemplatePolicy } from './mail-template';
import { masterOptionPolicy } from './master-option';

export const POLICIES: Record<string, ResourcePolicy> = {
  mailtemplate: mailTemplatePolicy,
  master_option: masterOptionPolicy,
};
