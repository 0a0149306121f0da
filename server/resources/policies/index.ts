/** The server-side rules of the resources that have any, by call prefix (see ../policy.ts). */
import type { ResourcePolicy } from '../policy';
import { masterOptionPolicy } from './master-option';

export const POLICIES: Record<string, ResourcePolicy> = {
  master_option: masterOptionPolicy,
};
