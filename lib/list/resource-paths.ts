/**
 * Where a resource's screens are: its list, a record's detail, a new record, a filtered list, read from the one
 * route table (lib/routes.ts), so screens and shared code (home's work items) never build paths by hand.
 */
import { fillPath, ROUTES, type ResourceScreen, type RouteDef } from '../routes';
import type { ResourceDef } from '../resources/types';
import { filterOf, type RawFilters } from './list-state';
import { cellText } from '../resources/checks';

/** The routes drawing a resource's screens of one kind (top-level first, then nested). */
function resourceRoutes(def: ResourceDef, kind: ResourceScreen['kind']): { route: RouteDef; screen: ResourceScreen }[] {
  return ROUTES.flatMap((route) =>
    route.screen.kind === kind && 'resource' in route.screen && route.screen.resource === def.name ? [{ route, screen: route.screen }] : [],
  ).sort((a, b) => Number(Boolean(a.screen.parent)) - Number(Boolean(b.screen.parent)));
}

/**
 * Whether the resource has a detail screen for its records (the audit log has none): a generic one,
 * or a screen of its own at `{basePath}/detail/…` (orders), where `detailPathOf` leads by default.
 */
export const hasDetailRoute = (def: ResourceDef): boolean =>
  resourceRoutes(def, 'detail').length > 0 || ROUTES.some((r) => r.path.startsWith(`${def.basePath}/detail/`));

/** A top-level route, or the nested one when a parent id is given (or when only a nested one exists). */
function pick(def: ResourceDef, kind: ResourceScreen['kind'], parentId: string | undefined) {
  const routes = resourceRoutes(def, kind);
  return (parentId ? routes.find((r) => r.screen.parent) : undefined) ?? routes.find((r) => !r.screen.parent) ?? routes[0];
}

/**
 * The list a record belongs to: under its parent's detail when it has one, else the resource's list route.
 * @example listPathOf(contactResource) // '/contact/list'; listPathOf(contactResource, '12') // '/client/detail/12'
 */
export function listPathOf(def: ResourceDef, parentId?: string): string {
  if (def.single !== undefined) return detailPathOf(def, def.single);
  const nested = parentId ? resourceRoutes(def, 'detail').find((r) => r.screen.parent) : undefined;
  if (nested?.route.parent && nested.screen.parent) return fillPath(nested.route.parent, { [nested.screen.parent.param]: parentId! });
  const route = resourceRoutes(def, 'list')[0];
  const detailParent = (resourceRoutes(def, 'detail')[0]?.route ?? ROUTES.find((r) => r.path.startsWith(`${def.basePath}/detail/`)))?.parent;
  return route?.route.path ?? detailParent ?? `${def.basePath}/list`;
}

/**
 * The list showing the records some filters find (a refusal's 「受注（3件）」 link): the resource's list
 * route with the filters in its query (`?filter={…}`), which the list applies on opening
 * (`linkedFilters`). Undefined when the resource has no list route of its own or does not take a filter.
 * @example filteredListPathOf(orderResource, { cl_id: '12' }) // '/orders/list/search?filter=%7B%22cl_id%22%3A%2212%22%7D'
 */
export function filteredListPathOf(def: ResourceDef, filters: RawFilters): string | undefined {
  const path = listPathOf(def);
  if (path.includes(':') || !ROUTES.some((r) => r.path === path) || !Object.keys(filters).every((name) => filterOf(def, name))) return undefined;
  return `${path}?${new URLSearchParams({ filter: JSON.stringify(filters) }).toString()}`;
}

/**
 * Where a record opens: its own detail route, or the one under its parent when a parent id is
 * given (or when the resource lives only under a parent).
 * @example detailPathOf(contactResource, 5) // '/contact/detail/5'; detailPathOf(contactResource, 5, '12') // '/client/detail/12/contact/5'
 */
export function detailPathOf(def: ResourceDef, id: string | number, parentId?: string): string {
  const chosen = pick(def, 'detail', parentId);
  if (!chosen) return `${def.basePath}/detail/${id}`;
  const params: Record<string, string> = { [chosen.screen.idParam ?? 'id']: String(id) };
  if (chosen.screen.parent) params[chosen.screen.parent.param] = parentId ?? '';
  return fillPath(chosen.route.path, params);
}

/**
 * Where a record another record names (a list's 顧客 column) opens: its own top-level detail, or undefined when it
 * has none (the audit log) or lives only under a parent the naming row does not know.
 * @example refPathOf(clientResource, 321) // '/client/detail/321'
 */
export function refPathOf(def: ResourceDef, id: string | number): string | undefined {
  const routes = resourceRoutes(def, 'detail');
  const own = routes.length > 0 ? routes.some((r) => !r.screen.parent) : hasDetailRoute(def);
  return own ? detailPathOf(def, id) : undefined;
}

/** Where a new record is entered (under its parent when a parent id is given). */
export function newPathOf(def: ResourceDef, parentId?: string): string {
  const chosen = pick(def, 'new', parentId);
  if (!chosen) return `${def.basePath}/new`;
  return fillPath(chosen.route.path, chosen.screen.parent ? { [chosen.screen.parent.param]: parentId ?? '' } : {});
}

/** The parent id of a row for a resource that lives only under a parent (agreements under a customer). */
export function parentIdOf(def: ResourceDef, row: Record<string, unknown>): string | undefined {
  const routes = resourceRoutes(def, 'detail');
  if (routes.some((r) => !r.screen.parent)) return undefined;
  const field = routes[0]?.screen.parent?.field;
  const value = field ? row[`${def.prefix}${field}`] : undefined;
  return value === undefined || value === null || value === '' ? undefined : cellText(value);
}
