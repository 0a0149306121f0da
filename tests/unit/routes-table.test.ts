/**
 * The route table and menus as they are drawn: taken before the generic resource routes were generated from the
 * declarations (lib/resources/*.ts `screens`), so the generated table is proved the same (paths, titles, parents, areas,
 * levels, screens, order) and the menus the same entries in the same order.
 */
import { describe, expect, it } from 'vitest';
import { HEADER_MENUS, ROUTES, SIDE_MENU } from '@/lib/routes';

/** Without keys whose value is undefined (an absent parent and an undefined one are the same route). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('route table', () => {
  it('has the same routes in the same order', () => {
    expect(plain(ROUTES)).toMatchSnapshot();
  });

  it('has the same menus', () => {
    expect(plain({ HEADER_MENUS, SIDE_MENU })).toMatchSnapshot();
  });
});
