/**
 * サーバー履歴 (`serverhistory`, table `server_history`): one row per server that a move (`server_upd`)
 * took out of a warehouse to a customer or back — 設置, 交換 (the new one in, the old one out) and 引上げ —
 * with the day, the customer, the warehouse, the server it was exchanged with and who entered it. Written
 * only by the move, in its transaction; read on the server's and the customer's detail (関連情報).
 */
import { SERVER_MOVE_KINDS } from '../servers/move';
import { SERVER_STATUS } from './water-server';
import type { ResourceDef } from './types';

export const serverHistoryResource = {
  name: 'serverhistory',
  label: 'サーバー履歴',
  table: 'server_history',
  prefix: 'sh_',
  basePath: '/server/history',
  area: 'stock',
  storageKey: 'serverhistory',
  tabs: [{ key: 'basic', label: 'サーバー履歴' }],
  fields: [
    { name: 'date', label: '日付', type: 'date', tab: 'basic' },
    { name: 'kind', label: '区分', type: 'select', tab: 'basic', options: SERVER_MOVE_KINDS },
    { name: 'sv_id', label: 'サーバー', type: 'ref', ref: 'server', tab: 'basic' },
    { name: 'cl_id', label: '顧客', type: 'ref', ref: 'client', tab: 'basic' },
    { name: 'sk_id', label: '倉庫', type: 'ref', ref: 'souko', tab: 'basic' },
    { name: 'status', label: '移動後の状態', type: 'select', tab: 'basic', options: SERVER_STATUS },
    { name: 'other_sv_id', label: '交換相手のサーバー', type: 'ref', ref: 'server', tab: 'basic' },
    { name: 'usr_id', label: '登録者', type: 'ref', ref: 'user', tab: 'basic' },
    { name: 'note', label: '備考', type: 'text', tab: 'basic', max: 200 },
  ],
  list: {
    columns: [
      { name: 'sh_date', label: '日付', format: 'date' },
      { name: 'sh_kind', label: '区分', format: 'option' },
      { name: 'sh_sv_id', label: 'サーバー', format: 'ref' },
      { name: 'sh_cl_id', label: '顧客', format: 'ref' },
      { name: 'sh_sk_id', label: '倉庫', format: 'ref' },
      { name: 'sh_status', label: '移動後の状態', format: 'option' },
      { name: 'sh_other_sv_id', label: '交換相手', format: 'ref' },
      { name: 'sh_usr_id', label: '登録者', format: 'ref' },
    ],
    sortable: ['sh_id', 'sh_date', 'created'],
    keyword: ['note'],
    keywordHint: '備考',
    defaultSort: { col: 'sh_date', odr: 'desc' },
    filters: [
      { name: 'date', label: '日付', kind: 'dateRange' },
      { name: 'kind', label: '区分', kind: 'in' },
    ],
  },
  titleFields: ['date'],
  ops: { create: false, edit: false, delete: false },
} as const satisfies ResourceDef;
