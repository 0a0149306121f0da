/** Pieces several resource declarations share: the customer and staff references, the stamp filters. */
import type { FilterDef } from '../filters';
import type { FieldDef } from './types';

/** The customer a record belongs to (picked by keyword). */
export const clientRef = (tab: string): FieldDef => ({ name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab, required: true });

/** The staff member in charge (a select of active users), the logged-in user by default. */
export const staffRef = (tab: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name: 'usr_id', label: '担当者', type: 'ref', ref: 'user', master: 'mt_user', tab, initial: 'me', ...extra,
});

/** 登録日 and 更新日 range filters every list offers. */
export const STAMP_FILTERS: readonly FilterDef[] = [
  { name: 'created', label: '登録日', kind: 'dateRange' },
  { name: 'modified', label: '更新日', kind: 'dateRange' },
];
