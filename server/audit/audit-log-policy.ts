/**
 * 操作ログ: everyone who reads the system area reads the log, but a row tells about a record of its
 * table (an e-mail address, a role, who changed what), so it shows only to those who may read that
 * table's area (lib/system/audit `auditReadersOf`: user and role rows to user management, i.e. 管理);
 * a saved search's rows only to its owner; rows of a table the log does not know to user management.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { can } from '../../lib/permissions';
import { auditReadersOf, auditTables } from '../../lib/system/audit';
import type { ResourcePolicy } from '../resources';

export const auditLogPolicy: ResourcePolicy = {
  scope(user) {
    if (can(user.areas, 'user_admin', 'read')) return undefined;
    const tables = auditTables(user.areas).map((t) => t.value);
    const whole = tables.filter((table) => auditReadersOf(table) !== 'own');
    const own = tables.filter((table) => auditReadersOf(table) === 'own');
    return (eb) => {
      const parts: Expression<SqlBool>[] = [];
      if (whole.length) parts.push(eb('log_table', 'in', whole));
      if (own.length) parts.push(eb.and([eb('log_table', 'in', own), eb('log_user_id', '=', user.user_id)]));
      return parts.length ? eb.or(parts) : sql<SqlBool>`1 = 0`;
    };
  },
};
