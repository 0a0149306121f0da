/**
 * The route table and menus as they are drawn: taken before the generic resource routes were generated from the
 * declarations (lib/resources/*.ts `screens`), so the generated table is proved the same (paths, titles, parents, areas,
 * levels, screens) and the menus the same entries in the same order.
 */
import { describe, expect, it } from 'vitest';
import { HEADER_MENUS, matchRoute, ROUTES, SIDE_MENU } from '@/lib/routes';

/** Without keys whose value is undefined (an absent parent and an undefined one are the same route). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('route table', () => {
  it('has the same routes', () => {
    expect(plain([...ROUTES].sort((a, b) => (a.path < b.path ? -1 : 1)))).toMatchSnapshot();
  });

  it('opens each route at its own path (no route shadows another: a new record before a record)', () => {
    for (const route of ROUTES) expect(matchRoute(route.path.replace(/:\w+/g, '7'))?.route.path, route.path).toBe(route.path);
  });

  it('has the same menus', () => {
    expect(plain({ HEADER_MENUS, SIDE_MENU })).toMatchSnapshot();
  });
});
