/**
 * Local-storage keys the spec persists (§9), named once. Logout removes every key with the prefix.
 */
export const STORAGE_PREFIX = 'hod.';

export const KEYS = {
  authKey: `${STORAGE_PREFIX}authKey`,
  userName: `${STORAGE_PREFIX}userName`,
  userRole: `${STORAGE_PREFIX}userRole`,
  userId: `${STORAGE_PREFIX}userId`,
  userEmail: `${STORAGE_PREFIX}userEmail`,
  sideMenuOpen: `${STORAGE_PREFIX}sideMenuOpen`,
  detailSearchOpen: `${STORAGE_PREFIX}detailSearchOpen`,
  contactReceiptDate: `${STORAGE_PREFIX}ctUketsukeDate`,
  hodFilters: `${STORAGE_PREFIX}hodFilters`,
} as const;

/** Lists whose preferences persist (spec §9). */
export const LIST_KEYS = [
  'bottle', 'billing', 'client', 'contact', 'daily', 'item', 'log', 'order', 'payment', 'sales', 'server', 'user', 'warehouse',
] as const;
export type ListKey = (typeof LIST_KEYS)[number];

/** Key of one list preference: search (keyword), perPage, currentPage, tabIndex. */
export const listKey = (list: string, what: 'search' | 'perPage' | 'currentPage' | 'tabIndex'): string =>
  `${STORAGE_PREFIX}list.${list}.${what}`;

export function readStored<T>(key: string, fallback: T): T {
  if (typeof window === 'undefined') return fallback;
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  if (typeof window === 'undefined') return;
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: preferences simply do not persist.
  }
}

/** Removes every stored user datum and list preference (logout). */
export function clearStored(): void {
  if (typeof window === 'undefined') return;
  const keys: string[] = [];
  for (let i = 0; i < window.localStorage.length; i += 1) {
    const key = window.localStorage.key(i);
    if (key?.startsWith(STORAGE_PREFIX)) keys.push(key);
  }
  keys.forEach((key) => window.localStorage.removeItem(key));
}
