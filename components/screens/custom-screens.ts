/**
 * Screens of their own (route screen `{ kind: 'custom', name }`), each a lazily loaded chunk taking
 * `ScreenProps`, by `CustomScreenName` (lib/routes.ts): a screen is one line here, its name there and its route.
 */
import type { ComponentType } from 'react';
import type { CustomScreenName } from '@/lib/routes';
import type { ScreenProps } from '@/components/screens/screen-props';

export const CUSTOM_SCREENS: Readonly<Record<CustomScreenName, () => Promise<{ default: ComponentType<ScreenProps> }>>> = {
  masters: () => import('./system/master-editor'),
  deliveryfee: () => import('./system/delivery-fees'),
  'role-matrix': () => import('./user/role-matrix'),
  'hod-preview': () => import('./orders/hod-preview'),
  'hod-list': () => import('./hod/hod-list'),
  'hod-uriage': () => import('./hod/hod-uriage'),
  'sales-rental': () => import('./sales/sales-rental'),
  closing: () => import('./closing/closing'),
  'closing-restore': () => import('./closing/closing-restore'),
  'sales-report': () => import('./sales/sales-report'),
  'order-list': () => import('./orders/order-list'),
  'order-form': () => import('./orders/order-form'),
  import: () => import('./system/import'),
  export: () => import('./system/export'),
  'data-download': () => import('./system/data-download'),
  jaccs: () => import('./system/jaccs'),
};
