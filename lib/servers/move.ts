/**
 * Moving a water server (`server_upd`, spec §7 "update: id, cl_id, item_id"): 設置 (a server in stock goes to
 * a customer), 交換 (it replaces one of the customer's servers, which goes back to a warehouse as メンテ待ち)
 * and 引上げ (`cl_id` empty: an installed server goes back as メンテ待ち). The kinds name the server history
 * rows; `moveKindOf` is the one reading of a call's parameters, shared by the dialog and the server.
 */
import type { Option } from '../resources/types';

export type ServerMoveKind = 'install' | 'exchange' | 'takeback';

/** Kinds of a server history row: an exchange writes one row for each of its two servers. */
export const SERVER_MOVE_KINDS: readonly Option[] = [
  { value: 'install', text: '設置' },
  { value: 'exchange_in', text: '交換（設置）' },
  { value: 'exchange_out', text: '交換（引上げ）' },
  { value: 'takeback', text: '引上げ' },
];

/** The button and dialog names of the three moves. */
export const SERVER_MOVE_LABELS: Record<ServerMoveKind, string> = { install: '設置', exchange: '交換', takeback: '引上げ' };

/**
 * What `server_upd` does with its parameters: no customer — 引上げ; a customer and the server it replaces
 * (`old_id`) — 交換; a customer alone — 設置.
 * @example moveKindOf({ cl_id: '12', old_id: '' }) // 'install'
 */
export function moveKindOf(params: { cl_id?: string; old_id?: string }): ServerMoveKind {
  if (!params.cl_id?.trim()) return 'takeback';
  return params.old_id?.trim() ? 'exchange' : 'install';
}
