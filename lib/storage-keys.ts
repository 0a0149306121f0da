/**
 * Local-storage keys the spec persists (§9), named once. Logout removes every key with the prefix. Shared: a
 * resource declaration names the key its `remember` field is kept under; reading and writing is lib/client/state/storage.ts.
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
