export {
  applyLogin, loadPermissions, logout, onLogout, useSession, routeAccess, entryOpens, profilePath, resolveMenuPath, visibleEntries, workMenus, menuGuide,
  type Access, type LogoutOptions, type Store, type UseSession,
} from './session';
