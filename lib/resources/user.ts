/**
 * ユーザー (staff account). Admins manage every user; everyone reads and edits their own profile
 * (`owner`: name, kana, e-mail and password; a new password needs the current one). Rules that need
 * the database — the last admin, oneself, sessions — are in server/auth/user-policy.ts.
 * The password is stored as a scrypt hash and never answered.
 */
import { STAMP_FILTERS } from './common';
import type { ResourceDef } from './types';

export const userResource = {
  name: 'user',
  label: 'ユーザー',
  table: 'user',
  prefix: 'user_',
  basePath: '/user',
  screens: { list: 'ユーザー一覧', new: 'ユーザー追加', detail: 'ユーザー情報', id: 'id' },
  area: 'user_admin',
  storageKey: 'user',
  tabs: [{ key: 'basic', label: 'ユーザー情報' }],
  fields: [
    { name: 'name', label: '氏名', type: 'text', tab: 'basic', required: true, max: 50, reading: 'kana' },
    { name: 'kana', label: '氏名カナ', type: 'kana', tab: 'basic', max: 50 },
    { name: 'email', label: 'メールアドレス', type: 'email', tab: 'basic', required: true, max: 254, unique: true, lowerCase: true },
    { name: 'role', label: '権限', type: 'select', tab: 'basic', master: 'mt_role', required: true },
    { name: 'team', label: 'チーム', type: 'text', tab: 'basic', max: 50 },
    { name: 'active', label: '有効', type: 'flag', tab: 'basic', initial: '1' },
    { name: 'password', label: 'パスワード', type: 'secret', tab: 'basic', min: 8, max: 128 },
    { name: 'last_login', label: '最終ログイン', type: 'datetime', tab: 'basic', readOnly: true },
  ],
  list: {
    columns: [
      { name: 'user_id', label: 'ID' },
      { name: 'user_name', label: '氏名' },
      { name: 'user_kana', label: '氏名カナ' },
      { name: 'user_email', label: 'メールアドレス' },
      { name: 'user_role', label: '権限' },
      { name: 'user_team', label: 'チーム' },
      { name: 'user_active', label: '有効', format: 'flag' },
      { name: 'user_last_login', label: '最終ログイン', format: 'datetime' },
    ],
    sortable: ['user_id', 'user_name', 'user_kana', 'user_email', 'user_role', 'user_team', 'user_last_login', 'created', 'modified'],
    keyword: ['name', 'kana', 'email', 'team'],
    defaultSort: { col: 'user_id', odr: 'asc' },
    filters: [
      { name: 'active', label: '状態', kind: 'in', options: [{ value: '1', text: '有効' }, { value: '0', text: '無効' }] },
      STAMP_FILTERS[0],
    ],
  },
  titleFields: ['name'],
  owner: { fields: ['name', 'kana', 'email', 'password'], confirm: ['password'] },
} as const satisfies ResourceDef;
