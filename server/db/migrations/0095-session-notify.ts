/**
 * PostgreSQL: every change that can end or narrow a session is announced on the channel `session_change`
 * (server/auth/session-cache.ts), by triggers — so no write path (logout, password change, a user deactivated or
 * given another role, a role's areas edited, an administrator's SQL) can forget to. The notice is sent when the
 * writing transaction commits, to every server listening. Payloads: `k:{ak_hash}` (a key deleted or changed),
 * `u:{user_id}` (a user's e-mail, name, role, password, active or deleted changed — not the last login stamp),
 * `r` (any role row written). SQLite keeps no session cache: nothing to announce.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`CREATE FUNCTION session_change_key() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('session_change', 'k:' || OLD.ak_hash); RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER auth_key_session_change AFTER UPDATE OR DELETE ON auth_key FOR EACH ROW EXECUTE FUNCTION session_change_key()`.execute(db);
  await sql`CREATE FUNCTION session_change_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('session_change', 'u:' || OLD.user_id); RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER user_session_change AFTER UPDATE ON "user" FOR EACH ROW
    WHEN ((OLD.user_id, OLD.user_email, OLD.user_name, OLD.user_role, OLD.user_password, OLD.user_active, OLD.deleted)
      IS DISTINCT FROM (NEW.user_id, NEW.user_email, NEW.user_name, NEW.user_role, NEW.user_password, NEW.user_active, NEW.deleted))
    EXECUTE FUNCTION session_change_user()`.execute(db);
  await sql`CREATE TRIGGER user_session_gone AFTER DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION session_change_user()`.execute(db);
  await sql`CREATE FUNCTION session_change_role() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('session_change', 'r'); RETURN NULL; END $$`.execute(db);
  await sql`CREATE TRIGGER role_session_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role FOR EACH STATEMENT EXECUTE FUNCTION session_change_role()`.execute(db);
  await sql`CREATE TRIGGER auth_key_session_truncate AFTER TRUNCATE ON auth_key FOR EACH STATEMENT EXECUTE FUNCTION session_change_role()`.execute(db);
  await sql`CREATE TRIGGER user_session_truncate AFTER TRUNCATE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION session_change_role()`.execute(db);
}
