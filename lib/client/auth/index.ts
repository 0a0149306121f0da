export {
  applyLogin, loadPermissions, logout, onLogout, useSession, routeAccess, entryOpens, profilePath, resolveMenuPath,
  type Access, type LogoutOptions, type Store, type UseSession,
} from './session';
