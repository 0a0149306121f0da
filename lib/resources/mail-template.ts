/**
 * メールテンプレート (mail template): subject and body with placeholders such as `{{顧客名}}`
 * (lib/mail-template), for a customer or for one order. Lists at /system/mailtemplate/list; the
 * detail adds a preview with a real customer and a test send (server/mail).
 */
import { MAIL_TARGETS, placeholdersFor, placeholderText, templateProblems } from '../mail-template';
import type { Option, ResourceDef } from './types';

export const MAIL_CATEGORY: readonly Option[] = [
  { value: '1', text: '注文確認' },
  { value: '2', text: '配送予定' },
  { value: '3', text: '請求書送付' },
  { value: '4', text: '休止・解約' },
  { value: '5', text: '入会・契約' },
  { value: '9', text: 'その他' },
];

const only = (target: 'order' | 'billing') => placeholdersFor(target).filter((p) => p.only === target).map((p) => placeholderText(p.key)).join(' ');
const PLACEHOLDER_HINT =
  `件名と本文に使える差し込み項目: ${placeholdersFor('client').map((p) => placeholderText(p.key)).join(' ')}` +
  `　対象が「受注」のときは ${only('order')}、「請求」のときは ${only('billing')} も使えます。`;

export const mailTemplateResource = {
  name: 'mailtemplate',
  label: 'メールテンプレート',
  table: 'mail_template',
  prefix: 'ml_',
  basePath: '/system/mailtemplate',
  screens: { list: 'メールテンプレート一覧', new: 'メールテンプレート登録', detail: 'メールテンプレート詳細', id: 'mt' },
  area: 'system',
  storageKey: 'mailtemplate',
  tabs: [{ key: 'basic', label: 'テンプレート' }],
  fields: [
    { name: 'name', label: 'テンプレート名', type: 'text', tab: 'basic', required: true, max: 100, unique: true },
    { name: 'category', label: '用途', type: 'select', tab: 'basic', options: MAIL_CATEGORY, required: true, initial: '9' },
    { name: 'target', label: '対象', type: 'select', tab: 'basic', options: MAIL_TARGETS, required: true, initial: 'client' },
    { name: 'active', label: '使用中', type: 'flag', tab: 'basic', initial: '1' },
    { name: 'subject', label: '件名', type: 'text', tab: 'basic', required: true, max: 200, wide: true },
    { name: 'body', label: '本文', type: 'textarea', tab: 'basic', required: true, max: 4000, wide: true, hint: PLACEHOLDER_HINT },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', max: 1000, wide: true },
  ],
  list: {
    columns: [
      { name: 'ml_id', label: 'ID' },
      { name: 'ml_name', label: 'テンプレート名' },
      { name: 'ml_category', label: '用途', format: 'option' },
      { name: 'ml_target', label: '対象', format: 'option' },
      { name: 'ml_subject', label: '件名' },
      { name: 'ml_active', label: '使用中', format: 'flag' },
      { name: 'modified', label: '更新日時', format: 'datetime' },
    ],
    sortable: ['ml_id', 'ml_name', 'ml_category', 'ml_target', 'ml_subject', 'created', 'modified'],
    keyword: ['name', 'subject', 'body', 'note'],
    defaultSort: { col: 'ml_id', odr: 'asc' },
    filters: [
      { name: 'category', label: '用途', kind: 'in' },
      { name: 'target', label: '対象', kind: 'in' },
      { name: 'active', label: '状態', kind: 'in', options: [{ value: '1', text: '使用中' }, { value: '0', text: '使用停止' }] },
      { name: 'created', label: '登録日', kind: 'dateRange' },
      { name: 'modified', label: '更新日', kind: 'dateRange' },
    ],
  },
  titleFields: ['name'],
  check: templateProblems,
} as const satisfies ResourceDef;
