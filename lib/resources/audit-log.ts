/**
 * 操作ログ: the audit log (`audit_log`, written by server/audit/audit-log.ts on every write), read
 * on /system/log. Nobody writes it through the API (`ops` all off); its user reference never
 * blocks deleting a user (records nobody can edit or delete are history).
 */
import type { ResourceDef } from './types';

export const auditLogResource = {
  name: 'log',
  label: '操作ログ',
  table: 'audit_log',
  prefix: 'log_',
  basePath: '/system/log',
  screens: { list: '操作ログ', listPath: '/system/log' },
  area: 'system',
  storageKey: 'log',
  tabs: [{ key: 'basic', label: '操作ログ' }],
  fields: [
    { name: 'user_id', label: 'ユーザー', type: 'ref', ref: 'user', master: 'mt_user', tab: 'basic' },
    { name: 'call', label: '操作', type: 'select', master: 'mt_log_call', tab: 'basic' },
    { name: 'table', label: 'データ', type: 'select', master: 'mt_log_table', tab: 'basic' },
    { name: 'record_id', label: 'レコードID', type: 'number', tab: 'basic', min: 1 },
    { name: 'changes', label: '変更内容', type: 'textarea', tab: 'basic' },
  ],
  list: {
    columns: [
      { name: 'created', label: '日時', format: 'datetime' },
      { name: 'log_user_id', label: 'ユーザー', format: 'ref' },
      { name: 'log_call', label: '操作', format: 'option' },
      { name: 'log_table', label: 'データ', format: 'option' },
      { name: 'log_record_id', label: 'レコードID' },
    ],
    sortable: ['created', 'log_user_id', 'log_call', 'log_table'],
    keyword: ['call', 'table', 'changes'],
    keywordHint: '変更した値・項目名など',
    defaultSort: { col: 'created', odr: 'desc' },
    sortThen: 'created',
    filters: [
      { name: 'user_id', label: 'ユーザー', kind: 'equals' },
      { name: 'call', label: '操作', kind: 'equals' },
      { name: 'table', label: 'データ', kind: 'equals' },
      { name: 'record_id', label: 'レコードID', kind: 'equals' },
      { name: 'created', label: '日時', kind: 'dateRange' },
    ],
  },
  titleFields: ['call'],
  ops: { create: false, edit: false, delete: false },
} as const satisfies ResourceDef;
