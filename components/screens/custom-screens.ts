/**
 * Screens of their own (route screen `{ kind: 'custom', name }`), each a lazily loaded chunk taking
 * `ScreenProps`. A screen is one line here and one route in lib/routes.ts.
 */
import type { ComponentType } from 'react';
import type { ScreenProps } from '@/components/screens/screen-props';

export const CUSTOM_SCREENS: Record<string, () => Promise<{ default: ComponentType<ScreenProps> }>> = {
  masters: () => import('./system/master-editor'),
  deliveryfee: () => import('./system/delivery-fees'),
  'role-matrix': () => import('./role-matrix'),
  'hod-preview': () => import('./hod-preview'),
  'hod-list': () => import('./hod-list'),
  'hod-uriage': () => import('./hod-uriage'),
  'sales-rental': () => import('./sales-rental'),
  closing: () => import('./closing'),
  'closing-restore': () => import('./closing-restore'),
  'sales-report': () => import('./sales-report'),
  'order-list': () => import('./orders/order-list'),
  'order-form': () => import('./orders/order-form'),
  import: () => import('./import'),
  export: () => import('./export'),
  'data-download': () => import('./system/data-download'),
  jaccs: () => import('./jaccs'),
};
