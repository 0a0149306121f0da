/**
 * The permission model, shared by the server (which enforces it on every call) and the client
 * (which uses it to build menus and screens). Roles are stored as text labels; each role's areas
 * live in the `role` table and reach the server with the session and the client through `role_mine`.
 * `ROLE_TABLE` holds the default roles that migration 0005 writes into that table.
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
export const AREA_KEYS = Object.keys(AREAS) as Area[];

export type Level = 'none' | 'read' | 'write';
export const LEVELS: readonly Level[] = ['none', 'read', 'write'];
export const LEVEL_LABELS: Record<Level, string> = { none: 'なし', read: '閲覧', write: '編集' };

/** What a role may do, area by area (a missing area is `none`). */
export type RoleAreas = Partial<Record<Area, Level>>;

/** Areas only 管理 holds: user and role management (spec §6: only the admin sees those screens). */
export const ADMIN_ONLY_AREAS: readonly Area[] = ['user_admin'];

/** Whether an area is one only 管理 holds (its screens are 管理's whatever a role's stored areas say). */
export const isAdminOnlyArea = (area: Area | null | undefined): boolean => Boolean(area && ADMIN_ONLY_AREAS.includes(area));

/** Default role table (migration 0005 stores it in the `role` table). 管理 may do everything. */
export const ROLE_TABLE: Record<string, RoleAreas> = {
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
const isLevel = (x: unknown): x is Level => x === 'none' || x === 'read' || x === 'write';

/**
 * Every area with its level: unknown areas and levels are dropped, missing ones are `none`.
 * Accepts the stored JSON text or an object.
 * @example normalizeAreas('{"client":"read","bogus":"write"}').client // 'read'
 */
export function normalizeAreas(value: unknown): Record<Area, Level> {
  let source: unknown = value;
  if (typeof value === 'string') {
    try {
      source = JSON.parse(value);
    } catch {
      source = {};
    }
  }
  const record = typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Record<string, unknown>) : {};
  return Object.fromEntries(AREA_KEYS.map((area) => [area, isLevel(record[area]) ? record[area] : 'none'])) as Record<Area, Level>;
}

/** Every area at write: what 管理 always has. */
export const ALL_WRITE: Record<Area, Level> = Object.fromEntries(AREA_KEYS.map((area) => [area, 'write'])) as Record<Area, Level>;

/**
 * The areas a role has, from its stored areas: 管理 always every area at write, whatever is stored.
 * @example effectiveAreas('配送', '{"client":"read"}') // { client: 'read', crm: 'none', … }
 */
export function effectiveAreas(role: string | null | undefined, stored: unknown): Record<Area, Level> {
  return role === ADMIN_ROLE ? { ...ALL_WRITE } : normalizeAreas(stored);
}

/**
 * Whether a role's areas allow an area at a level (null areas: nothing is allowed).
 * @example can({ client: 'read' }, 'client', 'write') // false
 */
export function can(areas: RoleAreas | null | undefined, area: Area, level: Exclude<Level, 'none'>): boolean {
  if (!areas) return false;
  const granted = areas[area] ?? 'none';
  return RANK[granted] >= RANK[level];
}

export const isAdmin = (role: string | null | undefined): boolean => role === ADMIN_ROLE;
