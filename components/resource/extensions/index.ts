/**
 * Small per-resource additions to the generic detail screen, by resource name. A resource that
 * needs more than the declaration gives adds one line here, not a copy of the screen.
 * - `DETAIL_EXTENSIONS`: short facts in the bar above the form (inside it: no forms of their own).
 * - `DETAIL_SECTIONS`: panels of their own below the form (tables, forms with their own submit).
 */
import type { ComponentType } from 'react';
import { BottleBalance } from './bottle-balance';
import { LastOrder } from './last-order';
import { ItemStock, WarehouseStock } from './stock';
import { ItemTaxRate } from './tax-rate';
import type { DetailExtensionProps } from './types';

export type { DetailExtensionProps } from './types';

export const DETAIL_EXTENSIONS: Record<string, readonly ComponentType<DetailExtensionProps>[]> = {
  client: [LastOrder, BottleBalance],
  item: [ItemTaxRate],
};

export const DETAIL_SECTIONS: Record<string, readonly ComponentType<DetailExtensionProps>[]> = {
  souko: [WarehouseStock],
  item: [ItemStock],
};
