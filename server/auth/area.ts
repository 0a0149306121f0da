/**
 * The auth area as the application is wired from it (server/areas.ts): its calls, the policies
 * of the resources it rules and the services it lends the resource pipeline.
 */
import { hashPassword, verifyPassword } from './password';
import type { ServerArea } from '../resources';
import { authPlugin } from './plugin';
import { rolePolicy } from './role-policy';
import { userPolicy } from './user-policy';

export const authArea = {
  plugin: authPlugin,
  policies: { user: userPolicy, role: rolePolicy },
  // The pipeline hashes a `password` field and checks a confirmation with the sign-in's hashing.
  services: { hashPassword, verifyPassword },
} satisfies ServerArea;
