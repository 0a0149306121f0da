/** The server-side rules of the resources that have any, by call prefix (see ../policy.ts). */
import type { ResourcePolicy } from '../policy';

export const POLICIES: Record<string, ResourcePolicy> = {};
