export {
  applyLogin, logout, onLogout, useSession, routeAccess, profilePath, resolveMenuPath,
  type Access, type LogoutOptions, type Store, type UseSession,
} from './session';
