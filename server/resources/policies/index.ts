/** The server-side rules of the resources that have any, by call prefix (see ../policy.ts). */
import type { ResourcePolicy } from '../policy';
import { mailTemplatePolicy } from './mail-template';
import { rolePolicy } from './role';
import { userPolicy } from './user';

export const POLICIES: Record<string, ResourcePolicy> = {
  user: userPolicy,
  role: rolePolicy,
  mailtemplate: mailTemplatePolicy,
};
