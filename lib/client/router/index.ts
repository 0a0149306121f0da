/**
 * The hash router (DESIGN §4): one route table (`lib/routes.ts`), hash paths, lazy screens.
 * @example
 *   const { match } = useRoute();
 *   <Link to="/client/list">顧客一覧</Link>
 *   useLeaveGuard(isDirty);
 *   await navigate(`/client/detail/${id}`, { replace: true, force: true });
 */
export { useHashPath, useRoute, useLeaveGuard } from './hooks';
export { Link, hashHref, type LinkProps } from './link';
export {
  navigate, confirmLeave, setLeaveConfirm, isActivePath, splitPath, pathFromHash, currentPath, subscribePath,
  resetRouterForTests, type NavigateOptions,
} from './location';
