/** Pieces several resource declarations share: the customer and staff references, the stamp filters. */
import type { FilterDef } from '../filters';
import { CLOSING_DAY } from './options';
import type { FieldDef } from './types';

/** The customer a record belongs to (picked by keyword). */
export const clientRef = (tab: string) => ({ name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab, required: true }) as const satisfies FieldDef;

/** The staff member in charge (a select of active users), the logged-in user by default. */
export const staffRef = (tab: string, extra: Partial<Omit<FieldDef, 'type' | 'ref'>> = {}) => ({
  name: 'usr_id', label: '担当者', type: 'ref', ref: 'user', master: 'mt_user', tab, initial: 'me', ...extra,
}) as const satisfies FieldDef;

/** 登録日 and 更新日 range filters every list offers. */
export const STAMP_FILTERS: readonly FilterDef[] = [
  { name: 'created', label: '登録日', kind: 'dateRange' },
  { name: 'modified', label: '更新日', kind: 'dateRange' },
];

/**
 * 締日 of the customer's 請求先 (issue 19): the records of the customers a group's closing bills (its 請求先 and their
 * delivery sites, through the view `client_closing_group` of migration 0060), by the record's customer column `on`.
 * Implied: a closing warning's link carries it.
 * @example closingGroupFilter('od_cl_id') // the orders of customers billed by one closing group
 */
export const closingGroupFilter = (on: string): FilterDef => ({
  name: 'sime_gp', label: '請求先の締日', kind: 'in', options: CLOSING_DAY, implied: true,
  through: { table: 'client_closing_group', key: 'cl_id', column: 'sime_gp', on },
});
