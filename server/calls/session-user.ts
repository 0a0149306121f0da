import type { Area, Level } from '../../lib/permissions';

/** The user a valid auth key belongs to. */
export interface SessionUser {
  user_id: number;
  user_email: string;
  user_name: string;
  user_role: string;
  /** The areas of the user's role, read from the `role` table with the session (管理: every area at write). */
  areas: Record<Area, Level>;
  /** sha256 of the auth key the call came with (logout deletes it). */
  keyHash: string;
}
