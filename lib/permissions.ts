/**
 * The one permission table, shared by the server (which enforces it on every call)
 * and the client (which uses it to build menus). Roles are stored as text labels.
 */

export const ADMIN_ROLE = '管理';

export const AREAS = {
  client: '顧客',
  crm: '対応履歴・営業報告',
  order: '受注',
  hod: '配送',
  stock: '商品・サーバー・ボトル・倉庫',
  sales: '売上・入金・締め・請求',
  system: 'システム設定',
  import: 'データ取込・出力',
  download: 'データダウンロード',
  user_admin: 'ユーザー・権限管理',
} as const;
export type Area = keyof typeof AREAS;

export type Level = 'none' | 'read' | 'write';

/** Default role table. 管理 may do everything. */
export const ROLE_TABLE: Record<string, Partial<Record<Area, Level>>> = {
  [ADMIN_ROLE]: {
    client: 'write', crm: 'write', order: 'write', hod: 'write', stock: 'write', sales: 'write',
    system: 'write', import: 'write', download: 'write', user_admin: 'write',
  },
  営業: {
    client: 'write', crm: 'write', order: 'write', hod: 'read', stock: 'read', sales: 'read',
    system: 'read', import: 'write',
  },
  配送: {
    client: 'read', crm: 'write', order: 'read', hod: 'write', stock: 'write', sales: 'none',
    system: 'read', import: 'read',
  },
  経理: {
    client: 'read', crm: 'read', order: 'read', hod: 'read', stock: 'read', sales: 'write',
    system: 'read', import: 'write',
  },
};

export const ROLES = Object.keys(ROLE_TABLE);

const RANK: Record<Level, number> = { none: 0, read: 1, write: 2 };

/**
 * Whether a role may use an area at a level.
 * @example can('配送', 'client', 'write') // false
 */
export function can(role: string | null | undefined, area: Area, level: Exclude<Level, 'none'>): boolean {
  if (!role) return false;
  const granted = ROLE_TABLE[role]?.[area] ?? 'none';
  return RANK[granted] >= RANK[level];
}

export const isAdmin = (role: string | null | undefined): boolean => role === ADMIN_ROLE;
